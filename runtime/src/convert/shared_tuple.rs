//! Results made of shared objects, made once: `(hipError_t.hipSuccess,)`, `(hipSuccess, 0)`,
//! `(CStr(b"..."),)`.
//!
//! hip-python returns a tuple even for a lone status, so nearly every call builds a new tuple
//! around the same few objects: `PyTuple_New`, the items' stores and, when the caller drops
//! it, the tuple's deallocation, ~290 instructions of a call's ~900 (callgrind, Python 3.11).
//! Tuples are immutable, so one made of objects that are shared anyway (enum members from the
//! member table, cached C strings, `True`/`False`, CPython's small ints) can be handed out
//! again: `hipGetDevice()` answers `(hipSuccess, 0)` call after call.

use pyo3::prelude::*;
use pyo3::types::{PyFloat, PyInt};

crate::table! {
    /// Tuples made, by their items' addresses: a direct-mapped table (the shared results a
    /// program meets are few: a status's success and a handful of errors, device numbers, some
    /// error strings). A kept tuple holds its items, so no other object can take their addresses
    /// while it is kept: the same addresses are the same objects.
    ///
    /// One table per thread: correct without the GIL (free-threaded Python), with no lock or
    /// atomic operation on the path every call takes. Never borrowed across a call that could run
    /// Python code.
    static KEPT: Vec<Option<Kept>>;
}

/// Slots of the table (a power of two: the slot is the top bits of a hash).
const SLOTS: usize = 128;

/// Items a kept tuple may have (the generator uses [`shared_tuple`] up to this many).
pub const MAX_ITEMS: usize = 4;

/// A kept tuple and its items' addresses (the first `len`).
struct Kept {
    items: [usize; MAX_ITEMS],
    len: usize,
    tuple: PyObject,
}

/// The slot of a tuple of these item addresses.
#[inline]
fn slot(items: &[usize]) -> usize {
    let h = items.iter().fold(0u64, |h, &a| {
        (h ^ a as u64)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .rotate_left(29)
    });
    (h.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - SLOTS.trailing_zeros())) as usize
}

/// An item of a result tuple the runtime may keep: an object the runtime holds anyway,
/// borrowed (an enum member of a member table: `TypeRegistry::enum_item`), or one the call made.
///
/// Borrowed, a hit touches no shared object's reference count: in the free-threaded build an
/// object another thread made counts references atomically, and threads returning the same
/// `hipSuccess` would all contend for it (a call from 16 threads ran at a twelfth of one
/// thread's rate).
pub enum Item<'a, 'py> {
    /// Held by the runtime for the process's life.
    Kept(Borrowed<'a, 'py, PyAny>),
    /// Made by this call (a cached C string, a number, a bool).
    Made(Bound<'py, PyAny>),
}

impl<'py> Item<'_, 'py> {
    /// An item the call made.
    #[inline]
    pub fn made(py: Python<'py>, obj: PyObject) -> Self {
        Item::Made(obj.into_bound(py))
    }

    #[inline]
    fn bound(&self) -> &Bound<'py, PyAny> {
        match self {
            Item::Kept(b) => b,
            Item::Made(b) => b,
        }
    }
}

/// `tuple(items)`, reused while the items are the same objects.
///
/// Only for results whose items are all of kinds the runtime shares (enum members, cached C
/// strings, bools, integers): a tuple is kept only when each item is such an object, never
/// around a fresh one (an integer outside CPython's small ints, a float), which keeping would
/// leave alive after the caller is done with it.
pub fn shared_tuple<'py, const N: usize>(
    py: Python<'py>,
    items: [Item<'_, 'py>; N],
) -> PyResult<PyObject> {
    const { assert!(N >= 1 && N <= MAX_ITEMS) };
    let key: [usize; N] = std::array::from_fn(|i| items[i].bound().as_ptr() as usize);
    let at = slot(&key);
    let hit = KEPT.with(py, |table| match table.borrow().get(at) {
        Some(Some(kept)) if kept.len == N && kept.items[..N] == key => {
            Some(kept.tuple.clone_ref(py))
        }
        _ => None,
    });
    match hit {
        Some(tuple) => Ok(tuple),
        None => keep(py, &items, &key, at),
    }
}

/// A new tuple of `items`, kept in slot `at` if every item is shared.
#[cold]
#[inline(never)]
fn keep(py: Python<'_>, items: &[Item<'_, '_>], key: &[usize], at: usize) -> PyResult<PyObject> {
    let tuple = pyo3::types::PyTuple::new(py, items.iter().map(Item::bound))?
        .into_any()
        .unbind();
    if !items.iter().all(is_shared) {
        return Ok(tuple);
    }
    let mut entry = Kept {
        items: [0; MAX_ITEMS],
        len: key.len(),
        tuple: tuple.clone_ref(py),
    };
    entry.items[..key.len()].copy_from_slice(key);
    let replaced = KEPT.with(py, |table| {
        let mut table = table.borrow_mut();
        if table.is_empty() {
            table.resize_with(SLOTS, || None);
        }
        table[at].replace(entry)
    });
    // Dropped after the borrow ends: freeing the old tuple may run Python code.
    drop(replaced);
    Ok(tuple)
}

/// Whether keeping `item` keeps nothing alive that would otherwise go: not a fresh number
/// (ints outside CPython's small-int cache, -5..=256, are made per call; floats always are).
/// The generator passes only enum members, cached C strings, bools and numbers.
fn is_shared(item: &Item<'_, '_>) -> bool {
    let Item::Made(item) = item else {
        return true;
    };
    if item.is_exact_instance_of::<PyInt>() {
        return item.extract::<i64>().is_ok_and(|v| (-5..=256).contains(&v));
    }
    !item.is_exact_instance_of::<PyFloat>()
}
