//! What generated code calls after C returns, to keep each handle object's `Life` mark true:
//! a destroyed handle is marked (`destroyed`), a handle made inside another ends with it
//! (`depends_on`, `inherits`). Passing a marked handle to C again is refused by its conversion
//! (`convert::pointer::check_alive`).

use crate::convert::life::Life;
use crate::convert::pointer::{ref_owner, Pointer};
use pyo3::prelude::*;

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
