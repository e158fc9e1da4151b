//! C integers made from Python values where the cuda package converts a value itself (CUDA's
//! integer classes, the emulated functions' arguments), refused as the generated functions
//! refuse them: `int()` would parse strings (`int("5")`) and keep no range.
//!
//! An integer is an `int` (enum members and other subclasses included), an object with
//! `__index__` (NumPy's integers, CUDA's handle classes) or, unless `truncate` is off, a
//! number with `__int__`, truncated toward zero as cuda-python's Cython conversion does. An
//! address takes no number but an integer; other objects with `__int__` (HIP's pointer and
//! handle objects) give theirs. Anything else is a TypeError; a value outside the C type's
//! range an OverflowError. Both name what was being converted (`what`).

use hipgen_runtime::convert::number::has_int_slot;
use pyo3::exceptions::{PyOverflowError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::PyInt;

fn prefix(what: Option<&str>) -> String {
    what.map(|w| format!("{w}: ")).unwrap_or_default()
}

/// `value` through `__index__`, or None where its type has none.
fn index<'py>(value: &Bound<'py, PyAny>) -> PyResult<Option<Bound<'py, PyAny>>> {
    if value.is_instance_of::<PyInt>() {
        return Ok(Some(value.clone()));
    }
    // SAFETY: PyNumber_Index takes a live object and returns a new reference or NULL.
    match unsafe {
        Bound::from_owned_ptr_or_err(value.py(), pyo3::ffi::PyNumber_Index(value.as_ptr()))
    } {
        Ok(i) => Ok(Some(i)),
        Err(e) if e.is_instance_of::<PyTypeError>(value.py()) => Ok(None),
        Err(e) => Err(e),
    }
}

/// `int` in `[lo, hi]`, else an OverflowError naming `what`.
fn fit(int: &Bound<'_, PyAny>, lo: i128, hi: i128, what: Option<&str>) -> PyResult<i128> {
    match int.extract::<i128>() {
        Ok(v) if (lo..=hi).contains(&v) => Ok(v),
        _ => Err(PyOverflowError::new_err(format!(
            "{}{int} is out of range [{lo}, {hi}]",
            prefix(what)
        ))),
    }
}

/// `value` as a C integer of `size` bytes, `signed` or not.
#[pyfunction]
#[pyo3(signature = (value, size, signed, what=None, truncate=true))]
pub fn integer(
    value: &Bound<'_, PyAny>,
    size: u32,
    signed: bool,
    what: Option<&str>,
    truncate: bool,
) -> PyResult<i128> {
    let bits = size * 8;
    let (lo, hi) = if signed {
        (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
    } else {
        (0, (1i128 << bits) - 1)
    };
    let int = match index(value)? {
        Some(i) => i,
        None if truncate && has_int_slot(value) => {
            value.call_method0(pyo3::intern!(value.py(), "__int__"))?
        }
        None => {
            return Err(PyTypeError::new_err(format!(
                "{}'{}' object cannot be interpreted as an integer",
                prefix(what),
                value.get_type().name()?
            )))
        }
    };
    fit(&int, lo, hi, what)
}

/// `value` as a C pointer: an integer, or an object with `__int__` that is no number.
#[pyfunction]
#[pyo3(signature = (value, what=None))]
pub fn address(value: &Bound<'_, PyAny>, what: Option<&str>) -> PyResult<i128> {
    let py = value.py();
    let int = match index(value)? {
        Some(i) => i,
        None => {
            let number = py.import("numbers")?.getattr("Number")?;
            if value.is_instance(&number)? || !has_int_slot(value) {
                return Err(PyTypeError::new_err(format!(
                    "{}expected an address, got '{}'",
                    prefix(what),
                    value.get_type().name()?
                )));
            }
            value.call_method0(pyo3::intern!(py, "__int__"))?
        }
    };
    fit(&int, 0, u64::MAX as i128, what)
}
