//! C integer arguments and field values, converted as hip-python converts them.
//!
//! hip-python's Cython wrappers take any number with `__int__` where C wants an integer,
//! truncating toward zero (`hip.dim3(n / block.x)`, `hipMalloc(n * 4.0)`), so programs written
//! for it pass floats there. Strings, None and other objects stay a `TypeError`; values out of
//! the C type's range an `OverflowError`.

use pyo3::prelude::*;
use pyo3::types::PyInt;

/// The integer a non-integer number stands for (`int(8.7) == 8`), or None when `obj` is no
/// number with `__int__` (strings and None have none).
pub(crate) fn truncated<'py>(obj: &Bound<'py, PyAny>) -> PyResult<Option<Bound<'py, PyAny>>> {
    let py = obj.py();
    if obj.is_instance_of::<PyInt>() || !has_int_slot(obj) {
        return Ok(None);
    }
    // float('nan') raises ValueError and float('inf') OverflowError here, as in Python.
    obj.call_method0(pyo3::intern!(py, "__int__")).map(Some)
}

/// Whether `obj`'s type has `__int__` (its `nb_int` slot, which a class defining `__int__` in
/// Python fills too): asked without an attribute lookup, which would build an AttributeError
/// for every string or None given as an integer.
pub fn has_int_slot(obj: &Bound<'_, PyAny>) -> bool {
    // SAFETY: reading a slot of a live type object; `Py_nb_int` is a valid slot id.
    unsafe {
        !pyo3::ffi::PyType_GetSlot(obj.get_type().as_type_ptr(), pyo3::ffi::Py_nb_int).is_null()
    }
}

/// Whether `obj` may convert to a C integer: an `int`, or an object with `__index__` or
/// `__int__` (type-slot checks, no attribute lookup).
#[inline]
pub fn is_int_like(obj: &Bound<'_, PyAny>) -> bool {
    // SAFETY: a type-slot check on a live object.
    obj.is_instance_of::<PyInt>() || unsafe { index_check(obj.as_ptr()) } != 0 || has_int_slot(obj)
}

/// Extracts a C integer of type `T` from `obj`, truncating floats.
#[inline]
pub fn int_arg<'py, T: FromPyObject<'py>>(obj: &Bound<'py, PyAny>) -> PyResult<T> {
    match obj.extract::<T>() {
        Ok(v) => Ok(v),
        Err(e) => match truncated(obj)? {
            Some(i) => i.extract(),
            None => Err(e),
        },
    }
}

/// A C integer parameter: an `int`, anything with `__index__`, or a number with `__int__`.
pub struct CInt<T>(pub T);

impl<'py, T: FromPyObject<'py>> FromPyObject<'py> for CInt<T> {
    #[inline]
    fn extract_bound(obj: &Bound<'py, PyAny>) -> PyResult<Self> {
        int_arg(obj).map(CInt)
    }
}

/// A C integer parameter of a library whose spec takes no float for an integer: an `int` or
/// anything with `__index__` (NumPy's integers, enum members), as Python's own integer APIs
/// take (`range(1.5)` is a TypeError).
pub struct CIndex<T>(pub T);

impl<'py, T: FromPyObject<'py>> FromPyObject<'py> for CIndex<T> {
    #[inline]
    fn extract_bound(obj: &Bound<'py, PyAny>) -> PyResult<Self> {
        obj.extract().map(CIndex)
    }
}

extern "C" {
    /// CPython's `PyIndex_Check` (a function in the stable ABI): whether the object has
    /// `__index__`, without an attribute lookup. Declared here because pyo3-ffi links it
    /// under PyPy's name in limited-API builds.
    #[link_name = "PyIndex_Check"]
    pub(crate) fn index_check(o: *mut pyo3::ffi::PyObject) -> std::os::raw::c_int;
}
