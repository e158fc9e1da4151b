//! C string arguments: `const char *` and `const char **` (results are `cstr.rs`'s).

use crate::convert::pointer::PtrArg;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};
use std::ffi::{c_char, CString};

/// A `const char *` argument: `bytes`, `str` (UTF-8), None, or anything pointer-like.
///
/// `bytes` and `str` pass their own storage, which CPython keeps NUL-terminated (a `str`'s
/// UTF-8 form is cached in the object): no copy, and the pointer stays valid as long as the
/// object, as in hip-python. A library may keep it (`LLVMCreateMemoryBufferWithMemoryRange`
/// reads the caller's bytes later), and data with NULs inside (bitcode) passes whole.
pub struct CStrArg {
    /// The address passed to C.
    addr: usize,
    /// Keeps a pointer-like argument's buffer alive.
    _ptr: Option<PtrArg>,
}

impl<'py> FromPyObject<'py> for CStrArg {
    fn extract_bound(obj: &Bound<'py, PyAny>) -> PyResult<Self> {
        let addr = if let Ok(b) = obj.downcast::<PyBytes>() {
            b.as_bytes().as_ptr() as usize
        } else if let Ok(s) = obj.downcast::<PyString>() {
            s.to_str()?.as_ptr() as usize
        } else {
            let p = PtrArg::convert(obj, false).map_err(|_| {
                PyTypeError::new_err(format!(
                    "expected bytes, str, None or a pointer-like object, got {}",
                    obj.get_type()
                        .name()
                        .map(|n| n.to_string())
                        .unwrap_or_default()
                ))
            })?;
            return Ok(CStrArg {
                addr: p.addr,
                _ptr: Some(p),
            });
        };
        Ok(CStrArg { addr, _ptr: None })
    }
}

impl CStrArg {
    /// The address passed to C.
    #[inline]
    pub fn addr(&self) -> usize {
        self.addr
    }
}

/// Copies `bytes` into a NUL-terminated string, rejecting embedded NULs.
fn to_cstring(b: &[u8]) -> PyResult<CString> {
    CString::new(b).map_err(|_| PyValueError::new_err("string contains an embedded NUL byte"))
}

/// A `const char **` argument: a list or tuple of `bytes`/`str`, None, or pointer-like.
pub struct CStrArrayArg {
    /// The address passed to C.
    addr: usize,
    /// The strings.
    _strings: Vec<CString>,
    /// Their addresses, NULL-terminated (C ignores the extra entry).
    _ptrs: Vec<*const c_char>,
    /// Keeps a pointer-like argument's buffer alive.
    _ptr: Option<PtrArg>,
}

impl<'py> FromPyObject<'py> for CStrArrayArg {
    fn extract_bound(obj: &Bound<'py, PyAny>) -> PyResult<Self> {
        if obj.is_instance_of::<pyo3::types::PyList>()
            || obj.is_instance_of::<pyo3::types::PyTuple>()
        {
            let mut strings = Vec::new();
            for item in obj.try_iter()? {
                let item = item?;
                let s = if let Ok(b) = item.downcast::<PyBytes>() {
                    to_cstring(b.as_bytes())?
                } else if let Ok(s) = item.downcast::<PyString>() {
                    to_cstring(s.to_cow()?.as_bytes())?
                } else {
                    return Err(PyTypeError::new_err(format!(
                        "expected a list of bytes or str, found {}",
                        item.get_type().name()?
                    )));
                };
                strings.push(s);
            }
            let mut ptrs: Vec<*const c_char> = strings.iter().map(|s| s.as_ptr()).collect();
            ptrs.push(std::ptr::null());
            return Ok(CStrArrayArg {
                addr: ptrs.as_ptr() as usize,
                _strings: strings,
                _ptrs: ptrs,
                _ptr: None,
            });
        }
        let p = PtrArg::convert(obj, false)?;
        Ok(CStrArrayArg {
            addr: p.addr,
            _strings: Vec::new(),
            _ptrs: Vec::new(),
            _ptr: Some(p),
        })
    }
}

impl CStrArrayArg {
    /// The address passed to C.
    #[inline]
    pub fn addr(&self) -> usize {
        self.addr
    }

    /// How many strings C may read: a list's length, a buffer's whole pointers; None for an
    /// address.
    pub fn item_count(&self) -> Option<usize> {
        match &self._ptr {
            None => Some(self._strings.len()),
            Some(p) if p.addr == 0 => Some(0),
            Some(p) => p.buffer_len().map(|n| n / size_of::<usize>()),
        }
    }
}
