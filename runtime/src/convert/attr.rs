//! Probes of Python objects: type checks by the MRO alone (`is_subtype`, `enum`'s classes),
//! and attribute probes that do not raise: asking whether an object has `__cuda_array_interface__`
//! must not build and discard an `AttributeError` (microseconds) on every failing conversion.
//!
//! CPython has such a lookup (`PyObject_GetOptionalAttr` from 3.13, `_PyObject_LookupAttr`
//! in 3.7–3.12, the same signature), but not in the limited API these extensions are built
//! against, so it is found in the running interpreter once; where it is not there (another
//! interpreter, a host that loaded Python privately) the plain `getattr` is used.

use pyo3::prelude::*;
use pyo3::sync::GILOnceCell;
use pyo3::types::{PyString, PyType};
use std::os::raw::c_int;
use std::sync::OnceLock;

type LookupFn = unsafe extern "C" fn(
    *mut pyo3::ffi::PyObject,
    *mut pyo3::ffi::PyObject,
    *mut *mut pyo3::ffi::PyObject,
) -> c_int;

/// The interpreter's non-raising attribute lookup, if it has one.
fn lookup_fn() -> Option<LookupFn> {
    static FN: OnceLock<Option<LookupFn>> = OnceLock::new();
    *FN.get_or_init(|| {
        #[cfg(unix)]
        {
            let this = libloading::os::unix::Library::this();
            for name in [
                &b"PyObject_GetOptionalAttr\0"[..],
                b"_PyObject_LookupAttr\0",
            ] {
                // SAFETY: both functions have the signature `LookupFn` in the releases that
                // export them under these names.
                if let Ok(f) = unsafe { this.get::<LookupFn>(name) } {
                    return Some(*f);
                }
            }
            None
        }
        #[cfg(not(unix))]
        None
    })
}

/// `getattr(obj, name)`, or None when `obj` has no such attribute (other errors raise).
pub fn optional_attr<'py>(
    obj: &Bound<'py, PyAny>,
    name: &Bound<'py, PyString>,
) -> PyResult<Option<Bound<'py, PyAny>>> {
    let Some(lookup) = lookup_fn() else {
        return obj.getattr_opt(name);
    };
    let mut out: *mut pyo3::ffi::PyObject = std::ptr::null_mut();
    // SAFETY: live objects; `out` receives a new reference when the result is 1.
    let rc = unsafe { lookup(obj.as_ptr(), name.as_ptr(), &mut out) };
    match rc {
        1 => Ok(Some(unsafe { Bound::from_owned_ptr(obj.py(), out) })),
        0 => Ok(None),
        _ => Err(PyErr::fetch(obj.py())),
    }
}

/// Whether `obj` describes memory through `__cuda_array_interface__` or `__array_interface__`.
pub fn has_array_interface(obj: &Bound<'_, PyAny>) -> PyResult<bool> {
    let py = obj.py();
    Ok(
        optional_attr(obj, pyo3::intern!(py, "__cuda_array_interface__"))?.is_some()
            || optional_attr(obj, pyo3::intern!(py, "__array_interface__"))?.is_some(),
    )
}

/// Whether `obj`'s type is `cls` or a subclass of it (its MRO, no `__instancecheck__`).
pub(crate) fn is_subtype(obj: &Bound<'_, PyAny>, cls: &Bound<'_, PyAny>) -> bool {
    let Ok(cls) = cls.downcast::<PyType>() else {
        return false;
    };
    // SAFETY: two live type objects.
    unsafe { pyo3::ffi::PyType_IsSubtype(obj.get_type().as_type_ptr(), cls.as_type_ptr()) != 0 }
}

/// `enum.IntEnum` and `enum.Enum`, imported once.
static ENUM_CLASSES: GILOnceCell<(Py<PyAny>, Py<PyType>)> = GILOnceCell::new();

/// `enum.IntEnum` and `enum.Enum`.
pub(crate) fn enum_classes(py: Python<'_>) -> PyResult<&(Py<PyAny>, Py<PyType>)> {
    ENUM_CLASSES.get_or_try_init(py, || {
        let m = py.import("enum")?;
        Ok((
            m.getattr("IntEnum")?.unbind(),
            m.getattr("Enum")?.downcast_into::<PyType>()?.unbind(),
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_interpreters_lookup_or_falls_back() {
        // In a test binary without an interpreter there is none: the fallback is used.
        let _ = lookup_fn();
    }
}
