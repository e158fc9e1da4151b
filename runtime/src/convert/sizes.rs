//! Checks of a count or size against the Python object it describes, made before C runs.
//!
//! C trusts `hiprtcCompileProgram(prog, numOptions, options)`'s count and
//! `hiprtcGetCode(prog, code)`'s buffer: a count larger than the list, or a buffer smaller
//! than what C writes, makes C read or write past the end of Python memory. Where the argument
//! tells its length (a list, a buffer) the binding compares; an int address or a `Pointer`
//! tells none and stays the caller's word.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// Refuses a negative `count` (the C parameter `count_name`), or one larger than the `len`
/// items the argument `list_name` holds (None: an address, whose length is unknown).
#[inline]
pub fn check_count(
    count: i128,
    count_name: &str,
    len: Option<usize>,
    list_name: &str,
) -> PyResult<()> {
    if count < 0 {
        return Err(PyValueError::new_err(format!(
            "{count_name} is {count}: a count cannot be negative"
        )));
    }
    match len {
        Some(len) if count > len as i128 => Err(PyValueError::new_err(format!(
            "{count_name} is {count} but {list_name} holds {len} item(s): C would read past its end"
        ))),
        _ => Ok(()),
    }
}

/// Refuses a buffer `buf_name` of `len` bytes (None: an address) that is smaller than the
/// `need` bytes C reads or writes there (None: unknown, as when the buffer is NULL and C is
/// asked for a size).
#[inline]
pub fn check_size(
    len: Option<usize>,
    need: Option<u64>,
    buf_name: &str,
    size_name: &str,
) -> PyResult<()> {
    match (len, need) {
        (Some(len), Some(need)) if (len as u64) < need => Err(PyValueError::new_err(format!(
            "{buf_name} holds {len} bytes but C accesses {need} there ({size_name}): pass a \
             buffer at least that large"
        ))),
        _ => Ok(()),
    }
}

/// The size a `size_t *` parameter holds before the call (comgr's in/out sizes), or None for
/// NULL.
#[inline]
pub fn size_at(addr: usize) -> Option<u64> {
    // SAFETY: `addr` is the address of a size argument the binding converted, checked to hold
    // at least 8 bytes when it is Python memory.
    (addr != 0).then(|| unsafe { std::ptr::read_unaligned(addr as *const u64) })
}
