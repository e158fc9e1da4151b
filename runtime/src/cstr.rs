//! `CStr`: the C strings functions return (`hipGetErrorString`, `hiprtcGetLoweredName`), as
//! hip-python's `hip._util.types.CStr` behaves: `str()` gives the text, `bytes()` the bytes,
//! `len()` their count, `int()` an address of the characters.
//!
//! A result is copied when the call returns, so it stays valid after the library frees or
//! reuses its memory (a destroyed program's lowered names); it is compared and hashed as its
//! bytes, and equals the `bytes` and `str` with the same content.

use crate::pointer::{Pointer, PtrArg};
use pyo3::exceptions::PyIndexError;
use pyo3::prelude::*;
use pyo3::sync::GILOnceCell;
use pyo3::types::{PyBytes, PyString};
use std::collections::HashMap;
use std::ffi::c_char;
use std::sync::Mutex;

/// A NUL-terminated C string.
#[pyclass(extends = Pointer, subclass, module = "hip._util.types")]
pub struct CStr {
    /// Number of bytes before the NUL.
    len: usize,
}

/// Results already made, by the address the library returned: most strings functions return
/// are static (error names), so the same object serves every call whose text is unchanged.
static RESULTS: GILOnceCell<Mutex<HashMap<usize, Py<CStr>>>> = GILOnceCell::new();

/// How many results the cache keeps at most (addresses of static strings are few).
const CACHED_RESULTS: usize = 4096;

/// The bytes of the NUL-terminated string at `addr`.
///
/// # Safety
/// `addr` must be NULL or point at a NUL-terminated string that outlives the slice.
unsafe fn c_bytes<'a>(addr: usize) -> &'a [u8] {
    if addr == 0 {
        return &[];
    }
    std::ffi::CStr::from_ptr(addr as *const c_char).to_bytes()
}

impl CStr {
    /// A new `CStr` holding a copy of `bytes`.
    fn copy_of<'py>(py: Python<'py>, bytes: &[u8]) -> PyResult<Bound<'py, CStr>> {
        // `bytes` objects keep a NUL after their content, so the copy is a C string.
        let owner = PyBytes::new(py, bytes);
        let addr = owner.as_bytes().as_ptr() as usize;
        let init = PyClassInitializer::from(Pointer {
            addr,
            owner: Some(owner.into_any().unbind()),
        })
        .add_subclass(CStr { len: bytes.len() });
        Bound::new(py, init)
    }

    /// The characters, without the NUL.
    fn content<'a>(slf: &'a Bound<'_, Self>) -> &'a [u8] {
        let addr = slf.as_super().borrow().addr;
        let len = slf.borrow().len;
        if addr == 0 {
            return &[];
        }
        // SAFETY: `addr` points at `len` readable bytes: a copy this object owns, or memory
        // the caller handed to the constructor and vouches for.
        unsafe { std::slice::from_raw_parts(addr as *const u8, len) }
    }

    /// The content as `bytes`.
    fn to_pybytes<'py>(slf: &Bound<'py, Self>) -> Bound<'py, PyBytes> {
        PyBytes::new(slf.py(), CStr::content(slf))
    }
}

/// A C string the library returned, as a `CStr` (None for NULL).
pub fn cstr_result(py: Python<'_>, addr: usize) -> PyResult<PyObject> {
    if addr == 0 {
        return Ok(py.None());
    }
    // SAFETY: the library returned a NUL-terminated string; it is read at once.
    let text = unsafe { c_bytes(addr) };
    let cache = RESULTS.get_or_init(py, || Mutex::new(HashMap::new()));
    let mut cache = cache.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(hit) = cache.get(&addr) {
        if CStr::content(hit.bind(py)) == text {
            return Ok(hit.clone_ref(py).into_any());
        }
    }
    let made = CStr::copy_of(py, text)?;
    if cache.len() < CACHED_RESULTS || cache.contains_key(&addr) {
        cache.insert(addr, made.clone().unbind());
    }
    Ok(made.into_any().unbind())
}

/// A `char *` the library handed over: copied into a `CStr`, then freed with the library's
/// own function (`LLVMDisposeMessage`); None for NULL.
pub fn owned_cstr_result(
    py: Python<'_>,
    addr: usize,
    free: &'static crate::loader::Symbol,
) -> PyResult<PyObject> {
    if addr == 0 {
        return Ok(py.None());
    }
    // SAFETY: a NUL-terminated string the library allocated, copied before it is freed.
    let copy = CStr::copy_of(py, unsafe { c_bytes(addr) })?;
    let f = free.get(py)?;
    // SAFETY: `free` is the library's `void f(char *)` for strings it allocated, and `addr`
    // is such a string, copied above and not used after this call.
    unsafe {
        let f: unsafe extern "C" fn(*mut c_char) = std::mem::transmute(f);
        f(addr as *mut c_char);
    }
    Ok(copy.into_any().unbind())
}

#[pymethods]
impl CStr {
    /// From `bytes`, `str` (UTF-8) or any buffer (copied), or from a pointer-like object
    /// (None, int, `Pointer`, ctypes) whose NUL-terminated characters are read where they are.
    #[new]
    #[pyo3(signature = (pyobj=None))]
    fn new(pyobj: Option<&Bound<'_, PyAny>>) -> PyResult<PyClassInitializer<Self>> {
        let Some(obj) = pyobj else {
            return Ok(PyClassInitializer::from(Pointer::at(0)).add_subclass(CStr { len: 0 }));
        };
        let py = obj.py();
        let copied: Option<Vec<u8>> = if let Ok(s) = obj.downcast::<PyString>() {
            Some(s.to_cow()?.as_bytes().to_vec())
        } else if let Ok(b) = obj.downcast::<PyBytes>() {
            Some(b.as_bytes().to_vec())
        } else if let Ok(c) = obj.downcast::<CStr>() {
            Some(CStr::content(c).to_vec())
        } else if crate::pointer::is_ctypes(obj) {
            None
        } else {
            crate::buffer::BufferGuard::try_new(obj, false)?.map(|g| {
                // SAFETY: the export covers `byte_len` bytes while `g` lives.
                unsafe { std::slice::from_raw_parts(g.addr() as *const u8, g.byte_len()) }.to_vec()
            })
        };
        if let Some(mut bytes) = copied {
            // Up to the first NUL, as C reads it.
            if let Some(end) = bytes.iter().position(|b| *b == 0) {
                bytes.truncate(end);
            }
            let owner = PyBytes::new(py, &bytes);
            let addr = owner.as_bytes().as_ptr() as usize;
            return Ok(PyClassInitializer::from(Pointer {
                addr,
                owner: Some(owner.into_any().unbind()),
            })
            .add_subclass(CStr { len: bytes.len() }));
        }
        let addr = PtrArg::convert(obj, false)?.addr;
        // SAFETY: the caller hands over the address of a NUL-terminated string.
        let len = unsafe { c_bytes(addr) }.len();
        Ok(PyClassInitializer::from(Pointer {
            addr,
            owner: Some(obj.clone().unbind()),
        })
        .add_subclass(CStr { len }))
    }

    /// The text, decoded as UTF-8.
    fn __str__(slf: &Bound<'_, Self>) -> PyResult<String> {
        match std::str::from_utf8(CStr::content(slf)) {
            Ok(text) => Ok(text.to_string()),
            // Python's own decoder raises the UnicodeDecodeError, with its position.
            Err(_) => CStr::decode(slf, "utf-8", "strict")?.extract(),
        }
    }

    /// The text, as hip-python shows it.
    fn __repr__(slf: &Bound<'_, Self>) -> PyResult<String> {
        Ok(String::from_utf8_lossy(CStr::content(slf)).into_owned())
    }

    /// The bytes before the NUL.
    fn __bytes__<'py>(slf: &Bound<'py, Self>) -> Bound<'py, PyBytes> {
        CStr::to_pybytes(slf)
    }

    /// Number of bytes before the NUL.
    fn __len__(&self) -> usize {
        self.len
    }

    /// Whether the string is not empty.
    fn __bool__(&self) -> bool {
        self.len > 0
    }

    /// Characters of the decoded text, by index or slice.
    fn __getitem__(slf: &Bound<'_, Self>, item: &Bound<'_, PyAny>) -> PyResult<PyObject> {
        if slf.as_super().borrow().addr == 0 {
            return Err(PyIndexError::new_err("the string is NULL"));
        }
        let text = PyString::new(slf.py(), &CStr::__str__(slf)?);
        Ok(text.get_item(item)?.unbind())
    }

    /// Equal to a `CStr`, `bytes` or `str` with the same content.
    fn __eq__(slf: &Bound<'_, Self>, other: &Bound<'_, PyAny>) -> bool {
        let mine = CStr::content(slf);
        if let Ok(b) = other.downcast::<PyBytes>() {
            return b.as_bytes() == mine;
        }
        if let Ok(s) = other.downcast::<PyString>() {
            return s.to_cow().is_ok_and(|s| s.as_bytes() == mine);
        }
        if let Ok(c) = other.downcast::<CStr>() {
            return CStr::content(c) == mine;
        }
        false
    }

    /// The hash of the equal `bytes`.
    fn __hash__(slf: &Bound<'_, Self>) -> PyResult<isize> {
        CStr::to_pybytes(slf).hash()
    }

    /// The text decoded with `encoding`.
    #[pyo3(signature = (encoding="utf-8", errors="strict"))]
    fn decode<'py>(
        slf: &Bound<'py, Self>,
        encoding: &str,
        errors: &str,
    ) -> PyResult<Bound<'py, PyAny>> {
        CStr::to_pybytes(slf).call_method1("decode", (encoding, errors))
    }

    /// The text decoded and encoded again with `encoding`.
    #[pyo3(signature = (encoding="utf-8", errors="strict"))]
    fn encode<'py>(
        slf: &Bound<'py, Self>,
        encoding: &str,
        errors: &str,
    ) -> PyResult<Bound<'py, PyAny>> {
        CStr::decode(slf, encoding, errors)?.call_method1("encode", (encoding, errors))
    }
}
