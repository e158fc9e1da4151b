//! `CStr`: the C strings functions return (`hipGetErrorString`, `hiprtcGetLoweredName`,
//! `LLVMPrintModuleToString`), as hip-python's `hip._util.types.CStr` behaves.
//!
//! The class is a `bytes` subclass written in Python (`py/cstr.py`): hip-python's exports a
//! buffer, so `b"x" in s`, `s.startswith(...)` and `ctypes.string_at(s, n)` work on it, and a
//! native class cannot export buffers under the stable ABI before Python 3.11. Results are
//! made here without running Python code (`bytes.__new__(CStr, data)`), hold a copy taken
//! when the call returns, and are reused while the library returns the same text at the same
//! address (static error names), so most calls allocate nothing.

use pyo3::prelude::*;
use pyo3::sync::GILOnceCell;
use pyo3::types::{PyBytes, PyType};
use std::ffi::c_char;

/// The `CStr` class and `bytes.__new__`, made on first use.
static CLASS: GILOnceCell<(Py<PyType>, PyObject)> = GILOnceCell::new();

crate::table! {
    /// Results already made, by the address the library returned: a direct-mapped table (the
    /// addresses of static strings are few; two that meet in a slot take turns). Each slot keeps
    /// the text it was made from, compared without calling into Python.
    ///
    /// One table per thread rather than one behind a lock: correct without the GIL
    /// (free-threaded Python), no contention between threads, and no atomic operations (a lock
    /// would cost ~5% of an error-string call). A thread's first results are made anew.
    /// Never borrowed across a call that could run Python code. Sized on first use.
    static RESULTS: Vec<Option<Cached>>;
}

/// Slots of the table (a power of two: the slot is the top bits of a hash).
const CACHED_RESULTS: usize = 512;

/// One cached result: the address, the text it held, the object made from it.
struct Cached {
    addr: usize,
    text: Box<[u8]>,
    result: PyObject,
}

/// The slot of `addr` (Fibonacci hashing: neighbouring strings land apart).
fn slot(addr: usize) -> usize {
    ((addr as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - CACHED_RESULTS.trailing_zeros()))
        as usize
}

/// The `CStr` class and `bytes.__new__`. One class in a process: the module that defines it
/// is published in `sys.modules`, where the runtime of every other extension (hip-python's,
/// rocm-llvm-python's of each LLVM and comgr version) finds it, so that `isinstance(s, CStr)`
/// holds whichever extension made `s`.
fn class(py: Python<'_>) -> PyResult<&(Py<PyType>, PyObject)> {
    CLASS.get_or_try_init(py, || {
        const NAME: &std::ffi::CStr = c"hip._util._cstr";
        // One whose code is still running (another thread's first use) has no class yet.
        let published = py
            .import("sys")?
            .getattr("modules")?
            .get_item(NAME.to_str().unwrap_or_default())
            .ok()
            .filter(|m| m.hasattr("CStr").unwrap_or(false));
        let m = match published {
            Some(m) => m,
            None => {
                let code = pyo3::ffi::c_str!(include_str!("py/cstr.py"));
                PyModule::from_code(py, code, c"cstr.py", NAME)?.into_any()
            }
        };
        let cls = m.getattr("CStr")?.downcast_into::<PyType>()?;
        let new = py.get_type::<PyBytes>().getattr("__new__")?;
        Ok((cls.unbind(), new.unbind()))
    })
}

/// The `CStr` class, for modules that export it.
pub fn cstr_class(py: Python<'_>) -> PyResult<Bound<'_, PyType>> {
    Ok(class(py)?.0.bind(py).clone())
}

/// A new `CStr` holding a copy of `text`.
fn make(py: Python<'_>, text: &[u8]) -> PyResult<PyObject> {
    let (cls, new) = class(py)?;
    Ok(new.bind(py).call1((cls, PyBytes::new(py, text)))?.unbind())
}

/// The bytes of the NUL-terminated string at `addr`.
///
/// # Safety
/// `addr` must point at a NUL-terminated string that outlives the slice.
unsafe fn c_bytes<'a>(addr: usize) -> &'a [u8] {
    std::ffi::CStr::from_ptr(addr as *const c_char).to_bytes()
}

/// A C string the library returned, as a `CStr` (None for NULL).
pub fn cstr_result(py: Python<'_>, addr: usize) -> PyResult<PyObject> {
    if addr == 0 {
        return Ok(py.None());
    }
    // SAFETY: the library returned a NUL-terminated string; it is read at once.
    let text = unsafe { c_bytes(addr) };
    let slot = slot(addr);
    let hit = RESULTS.with(py, |cache| {
        let mut cache = cache.borrow_mut();
        if cache.is_empty() {
            cache.resize_with(CACHED_RESULTS, || None);
        }
        match &cache[slot] {
            // The same address can hold other text later (a buffer reused): compare it.
            Some(hit) if hit.addr == addr && *hit.text == *text => Some(hit.result.clone_ref(py)),
            _ => None,
        }
    });
    match hit {
        Some(result) => Ok(result),
        None => remember(py, slot, addr, text),
    }
}

/// A new result for `text`, kept in `slot` of the table.
#[cold]
fn remember(py: Python<'_>, slot: usize, addr: usize, text: &[u8]) -> PyResult<PyObject> {
    let made = make(py, text)?;
    let entry = Cached {
        addr,
        text: text.into(),
        result: made.clone_ref(py),
    };
    let replaced = RESULTS.with(py, |cache| cache.borrow_mut()[slot].replace(entry));
    // Dropped after the borrow ends: freeing the old result may run Python code.
    drop(replaced);
    Ok(made)
}

/// Whether `obj` is a `CStr`: a copy the bindings made, whose C string (if the library handed
/// one over) was freed already. The library's free function given one does nothing: programs
/// written for rocm-llvm-python free every message (`LLVMDisposeMessage(msg)`), which there
/// is the library's pointer and here a copy whose memory Python owns.
fn is_cstr_copy(obj: &Bound<'_, PyAny>) -> PyResult<bool> {
    obj.is_instance(class(obj.py())?.0.bind(obj.py()))
}

/// The pointer given to a library's string free function (`LLVMDisposeMessage`): None for one
/// of our `CStr` copies (nothing to free: its C string went back when it was made); a
/// TypeError for any other Python buffer (`bytes`, `bytearray`, arrays), whose memory the
/// library never allocated and `free()` would corrupt; else the address (an int, a
/// `Pointer`, a ctypes pointer) as any pointer argument.
pub fn freed_string_arg(obj: &Bound<'_, PyAny>) -> PyResult<Option<crate::PtrArg>> {
    if is_cstr_copy(obj)? {
        return Ok(None);
    }
    if crate::convert::pointer::holds_memory(obj)? {
        return Err(pyo3::exceptions::PyTypeError::new_err(format!(
            "a {} is Python's memory, not a string the library allocated: pass the string the \
             library returned",
            obj.get_type().name()?
        )));
    }
    crate::PtrArg::convert(obj, false).map(Some)
}

/// A `char *` the library handed over: copied into a `CStr`, then freed with the library's
/// own function (`LLVMDisposeMessage`); None for NULL.
pub fn owned_cstr_result(
    py: Python<'_>,
    addr: usize,
    free: &'static crate::load::Symbol,
) -> PyResult<PyObject> {
    if addr == 0 {
        return Ok(py.None());
    }
    // SAFETY: a NUL-terminated string the library allocated, copied before it is freed.
    let copy = make(py, unsafe { c_bytes(addr) })?;
    let f = free.get(py)?;
    // SAFETY: `free` is the library's `void f(char *)` for strings it allocated, and `addr`
    // is such a string, copied above and not used after this call.
    unsafe {
        let f: unsafe extern "C" fn(*mut c_char) = std::mem::transmute(f);
        f(addr as *mut c_char);
    }
    Ok(copy)
}
