//! C arrays and value slots that generated code makes from Python arguments when it calls a
//! C function with arguments of its own making (lists as C arrays, arrays the call fills,
//! slots for values of a size an argument gives).

use crate::convert::number::CInt;
use crate::convert::pointer::{not_pointer_like, PtrArg};
use pyo3::exceptions::{PyOverflowError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString, PyTuple};

// `what` names the value in errors: `argument 'options'`, `argument 'options'[2]`.

/// `e` with `what` before its message, of the same type (a TypeError stays one).
fn named(py: Python<'_>, e: PyErr, what: &str) -> PyErr {
    let msg = format!("{what}: {}", e.value(py));
    if e.is_instance_of::<PyOverflowError>(py) {
        PyOverflowError::new_err(msg)
    } else if e.is_instance_of::<PyValueError>(py) {
        PyValueError::new_err(msg)
    } else {
        PyTypeError::new_err(msg)
    }
}

/// The type name of `obj`, for messages.
fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_default()
}

/// The items of a list argument: a list or tuple, as cuda-python's list parameters are
/// (None: no items). Anything else is refused before it is iterated: a handle object has
/// `__getitem__` and no end.
pub fn items<'py>(obj: &Bound<'py, PyAny>, what: &str) -> PyResult<Vec<Bound<'py, PyAny>>> {
    if obj.is_none() {
        return Ok(Vec::new());
    }
    if let Ok(list) = obj.downcast::<PyList>() {
        return Ok(list.iter().collect());
    }
    if let Ok(tuple) = obj.downcast::<PyTuple>() {
        return Ok(tuple.iter().collect());
    }
    Err(PyTypeError::new_err(format!(
        "{what}: expected a list or tuple, got '{}'",
        type_name(obj)
    )))
}

/// An integer argument of C type `T` (None: 0).
pub fn int_of<'py, T: FromPyObject<'py> + Default>(
    obj: &Bound<'py, PyAny>,
    what: &str,
) -> PyResult<T> {
    if obj.is_none() {
        return Ok(T::default());
    }
    obj.extract::<CInt<T>>()
        .map(|v| v.0)
        .map_err(|e| named(obj.py(), e, what))
}

/// A floating-point argument (None: 0).
pub fn float_of(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<f64> {
    if obj.is_none() {
        return Ok(0.0);
    }
    if obj.is_instance_of::<PyString>() {
        return Err(PyTypeError::new_err(format!(
            "{what}: expected a number, got str"
        )));
    }
    obj.extract::<f64>().map_err(|e| named(obj.py(), e, what))
}

/// A list argument as a C array of integers of type `T`.
pub fn int_list<'py, T: FromPyObject<'py> + Default>(
    obj: &Bound<'py, PyAny>,
    what: &str,
) -> PyResult<Vec<T>> {
    items(obj, what)?
        .iter()
        .enumerate()
        .map(|(i, v)| int_of(v, &format!("{what}[{i}]")))
        .collect()
}

/// A pointer argument (None: NULL).
pub fn ptr_of(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<PtrArg> {
    match PtrArg::try_convert(obj, false) {
        Ok(Some(p)) => Ok(p),
        Ok(None) => Err(named(obj.py(), not_pointer_like(obj, None), what)),
        Err(e) => Err(named(obj.py(), e, what)),
    }
}

/// A list argument as a C array of pointers (ints, pointer objects, buffers: what a pointer
/// argument takes), with what keeps each one's memory alive for the call.
pub fn ptr_list(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<(Vec<usize>, Vec<PtrArg>)> {
    let mut kept = Vec::new();
    for (i, v) in items(obj, what)?.iter().enumerate() {
        kept.push(ptr_of(v, &format!("{what}[{i}]"))?);
    }
    Ok((kept.iter().map(|p| p.addr()).collect(), kept))
}

/// The address of a C array (NULL for none).
pub fn array_addr<T>(values: &mut [T]) -> usize {
    if values.is_empty() {
        0
    } else {
        values.as_mut_ptr() as usize
    }
}

/// A count or byte size given as an argument (None: 0), which must not be negative.
pub fn count_of(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<usize> {
    let v: i128 = int_of(obj, what)?;
    usize::try_from(v)
        .map_err(|_| PyOverflowError::new_err(format!("{what}: {v} is out of range for a count")))
}

/// Plain C scalars, for which all-zero bytes are the value 0.
pub trait Zeroable: Copy {}
macro_rules! zeroable {
    ($($t:ty),*) => { $(impl Zeroable for $t {})* };
}
zeroable!(u8, i8, u16, i16, u32, i32, u64, i64, usize, isize, f32, f64);

/// Zeroed memory for `n` elements of `T`, refused (MemoryError) where there is not that much.
/// The pages are the allocator's zeroed ones, untouched until C writes them: asking for an
/// array larger than C will fill costs no memory (as `ctypes` arrays cost none).
pub fn zeroed<T: Zeroable>(n: usize, what: &str) -> PyResult<Vec<T>> {
    let refused =
        || pyo3::exceptions::PyMemoryError::new_err(format!("{what}: no memory for {n} elements"));
    if n == 0 {
        return Ok(Vec::new());
    }
    let layout = std::alloc::Layout::array::<T>(n).map_err(|_| refused())?;
    // SAFETY: a layout of non-zero size; all-zero bytes are a valid `T` (`Zeroable`), so
    // the vector owns `n` initialized elements allocated by the global allocator with the
    // layout `Vec` uses for a capacity of `n`.
    unsafe {
        let p = std::alloc::alloc_zeroed(layout) as *mut T;
        if p.is_null() {
            return Err(refused());
        }
        Ok(Vec::from_raw_parts(p, n, n))
    }
}

/// A list argument of counts or byte sizes.
pub fn count_list(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec<usize>> {
    items(obj, what)?
        .iter()
        .enumerate()
        .map(|(i, v)| count_of(v, &format!("{what}[{i}]")))
        .collect()
}

/// Zeroed slots of `sizes` bytes each (at least one byte), and the address of each.
pub fn slots(sizes: &[usize], what: &str) -> PyResult<(Vec<Vec<u64>>, Vec<usize>)> {
    let mut slots = Vec::new();
    for s in sizes {
        slots.push(zeroed::<u64>(s.div_ceil(8).max(1), what)?);
    }
    let addrs = slots.iter_mut().map(|s| s.as_mut_ptr() as usize).collect();
    Ok((slots, addrs))
}

/// What C wrote into a slot of `size` bytes, as 32-bit integers: one as an `int`, more as a
/// list.
pub fn int32s(py: Python<'_>, slot: &[u64], size: usize) -> PyResult<PyObject> {
    let n = (size / 4).max(1);
    let words: Vec<i32> = (0..n)
        .map(|i| {
            let w = slot[i / 2];
            (if i % 2 == 0 { w } else { w >> 32 }) as u32 as i32
        })
        .collect();
    if n == 1 {
        crate::obj(py, words[0])
    } else {
        Ok(PyList::new(py, words)?.into_any().unbind())
    }
}

/// `value` as a member of enum class `class` where it has one, else the integer.
pub fn member_or_int(py: Python<'_>, class: &Bound<'_, PyAny>, value: i64) -> PyResult<PyObject> {
    match class.call1((value,)) {
        Ok(m) => Ok(m.unbind()),
        Err(e) if e.is_instance_of::<PyValueError>(py) => crate::obj(py, value),
        Err(e) => Err(e),
    }
}
