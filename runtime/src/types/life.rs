//! Whether a handle object still stands for a live C object.
//!
//! A handle destroyed through the bindings (`hipStreamDestroy(s)`, `hiprtcDestroyProgram(p)`,
//! every function a spec's `destroys` names) is marked, and the mark travels with the object
//! and its copies (`hipStream_t(s)`, `p.createRef()`'s owner): passing it to C again is a
//! `ValueError`, not a dangling pointer handed to C. Plain int addresses stay the caller's
//! risk, as do handles destroyed by other means (a library that frees what it owns).
//!
//! The mark is one shared cell per handle identity, created only when a copy is made or the
//! handle is destroyed, so creating and using a live handle costs nothing more than a field
//! read per argument.

use crate::convert::pointer::Pointer;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use std::sync::{Arc, OnceLock};

/// The shared mark of one handle: the C function that destroyed it, once it has, and the
/// handle it lives in, if any (an LLVM module in its context): destroying that one ends this
/// one too.
#[derive(Debug, Default)]
pub struct Life {
    by: OnceLock<&'static str>,
    parent: Option<Arc<Life>>,
}

impl Life {
    /// A new cell of a live handle.
    pub fn new() -> Arc<Life> {
        Arc::new(Life::default())
    }

    /// A new cell of a live handle that ends with `parent`'s.
    pub fn child_of(parent: Arc<Life>) -> Arc<Life> {
        Arc::new(Life {
            by: OnceLock::new(),
            parent: Some(parent),
        })
    }

    /// The function that destroyed the handle, or the handle it lives in, if one has.
    #[inline]
    pub fn destroyed_by(&self) -> Option<&'static str> {
        match self.by.get() {
            Some(by) => Some(by),
            None => self.parent.as_ref()?.destroyed_by(),
        }
    }

    /// The outermost handle this one lives in (an LLVM context), if it lives in one.
    pub fn root(&self) -> Option<Arc<Life>> {
        let mut root = self.parent.clone()?;
        while let Some(up) = root.parent.clone() {
            root = up;
        }
        Some(root)
    }

    /// Marks the handle destroyed by `by` (the first mark stays).
    pub fn mark(&self, by: &'static str) {
        let _ = self.by.set(by);
    }
}

/// Refuses a handle object whose C object was destroyed through the bindings.
#[inline]
pub fn check(obj: &Bound<'_, PyAny>, p: &Pointer) -> PyResult<()> {
    match p.destroyed_by() {
        None => Ok(()),
        Some(by) => Err(destroyed_error(obj, p.addr(), by)),
    }
}

/// The error for a use of a destroyed handle (built only on that path).
fn destroyed_error(obj: &Bound<'_, PyAny>, addr: usize, by: &str) -> PyErr {
    let class = obj
        .get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "handle".into());
    PyValueError::new_err(format!(
        "this {class} (0x{addr:x}) was destroyed by {by} (it, or the handle it lives in): C \
         would be given a dangling handle"
    ))
}

/// Whether `p` was made by `createRef()`: its owner is a `Pointer` whose value slot it points
/// at. Returns that owner.
pub fn ref_owner<'py>(obj: &Bound<'py, PyAny>, p: &Pointer) -> Option<Bound<'py, Pointer>> {
    let owner = p
        .owner
        .as_ref()?
        .bind(obj.py())
        .downcast::<Pointer>()
        .ok()?;
    (owner.get().slot() == p.addr()).then(|| owner.clone())
}

/// Marks the handle `obj` stands for as destroyed by `by` (after `by` returned success).
/// `by_ref`: the C parameter is a pointer to the handle (`hiprtcProgram *`), so a
/// `createRef()` pointer stands for its owner.
pub fn destroyed(obj: &Bound<'_, PyAny>, by_ref: bool, by: &'static str) {
    let Ok(p) = obj.downcast::<Pointer>() else {
        return; // an int or a buffer: nothing of ours to mark
    };
    let b = p.get();
    let target = if by_ref {
        ref_owner(obj, b).unwrap_or_else(|| p.clone())
    } else if b.addr() == 0 {
        // NULL given by value names no C object (destroying it is a no-op that C answers
        // with success): nothing to mark.
        return;
    } else {
        p.clone()
    };
    target.get().life_cell().mark(by);
}

/// Before a call that may write a new handle through a `createRef()` pointer: its owner
/// stands for whatever C writes, no longer for the handle it held (a destroyed one is
/// re-created in a loop at the same object).
pub fn may_be_rewritten(obj: &Bound<'_, PyAny>, p: &Pointer) {
    if p.owner.is_none() {
        return;
    }
    if let Some(owner) = ref_owner(obj, p) {
        owner.get().clear_life();
    }
}

/// Makes the handle `child` (just returned by C) end with the handle `parent` it was made in
/// (the spec's `results_depend`: a module with its context), then returns it. Nothing to do
/// for a NULL result or a parent given as a plain address.
pub fn depends_on(py: Python<'_>, child: PyObject, parent: &Bound<'_, PyAny>) -> PyObject {
    let (Ok(c), Ok(p)) = (
        child.bind(py).downcast::<Pointer>(),
        parent.downcast::<Pointer>(),
    ) else {
        return child;
    };
    if p.get().addr() != 0 {
        c.get().set_life(Life::child_of(p.get().life_cell()));
    }
    child
}

/// Makes the handle `child` (just returned by C) end with the outermost handle the first of
/// `args` that lives in one lives in (the spec's `results_inherit`: whatever an LLVM function
/// returns from a type, value or module of a context lives in that context), then returns it.
pub fn inherits(py: Python<'_>, child: PyObject, args: &[&Bound<'_, PyAny>]) -> PyObject {
    let Ok(c) = child.bind(py).downcast::<Pointer>() else {
        return child;
    };
    let root = args.iter().find_map(|a| {
        let p = a.downcast::<Pointer>().ok()?;
        p.get().life()?.root()
    });
    if let Some(root) = root {
        c.get().set_life(Life::child_of(root));
    }
    child
}
