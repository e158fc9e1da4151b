//! One-item results made once: `(hipError_t.hipSuccess,)`, `(CStr(b"..."),)`.
//!
//! hip-python returns a tuple even for a lone status, so nearly every call that returns only
//! its status builds a new 1-tuple around the same enum member: `PyTuple_New`, the item's
//! store and, when the caller drops it, the tuple's deallocation, ~290 instructions of a
//! call's ~900 (callgrind, Python 3.11). Tuples are immutable, so one made around an object
//! that is shared anyway (an enum member from the member table, a cached C string) can be
//! handed out again.

use pyo3::prelude::*;
use pyo3::sync::GILProtected;
use std::cell::RefCell;

/// Tuples made, by their item's address: a direct-mapped table (the shared items a program
/// meets are few: a status's success and a handful of errors, some error strings). A kept
/// tuple holds its item, so no other object can take that address while it is kept.
///
/// Guarded by the GIL; never borrowed across a call that could run Python code.
static KEPT: GILProtected<RefCell<Vec<Option<Kept>>>> = GILProtected::new(RefCell::new(Vec::new()));

/// Slots of the table (a power of two: the slot is the top bits of a hash).
const SLOTS: usize = 64;

/// A kept tuple and the address of its item.
struct Kept {
    item: usize,
    tuple: PyObject,
}

/// The slot of an item's address (Fibonacci hashing: neighbouring objects land apart).
fn slot(item: usize) -> usize {
    ((item as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - SLOTS.trailing_zeros())) as usize
}

/// `(item,)`, reused while `item` is the same object.
///
/// Only for items that stay shared whatever the caller does with them (enum members, cached
/// C strings, `True`/`False`): a kept tuple keeps its item alive, which would delay the
/// release of a fresh object (a handle, a buffer) until another item took its slot.
pub fn shared_tuple1(py: Python<'_>, item: PyObject) -> PyResult<PyObject> {
    // Bound: dropping it on a hit is a plain decrement (a `Py` asks first whether the GIL is
    // held, through thread-local storage).
    let item = item.into_bound(py);
    let addr = item.as_ptr() as usize;
    let at = slot(addr);
    if let Some(Some(kept)) = KEPT.get(py).borrow().get(at) {
        if kept.item == addr {
            return Ok(kept.tuple.clone_ref(py));
        }
    }
    keep(py, item, at)
}

/// A new tuple around `item`, kept in slot `at`.
#[cold]
#[inline(never)]
fn keep(py: Python<'_>, item: Bound<'_, PyAny>, at: usize) -> PyResult<PyObject> {
    let addr = item.as_ptr() as usize;
    let tuple = crate::tuple(py, [item.unbind()])?;
    let kept = KEPT.get(py);
    let replaced = {
        let mut table = kept.borrow_mut();
        if table.is_empty() {
            table.resize_with(SLOTS, || None);
        }
        table[at].replace(Kept {
            item: addr,
            tuple: tuple.clone_ref(py),
        })
    };
    // Dropped after the borrow ends: freeing the old tuple may run Python code.
    drop(replaced);
    Ok(tuple)
}
