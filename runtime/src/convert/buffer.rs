//! The buffer protocol under the stable ABI.
//!
//! `PyObject_GetBuffer` joined the limited API only in Python 3.11, yet every CPython 3
//! exports it and `Py_buffer` has kept one layout since 3.3, so abi3 wheels for 3.9 may
//! declare it themselves.

use pyo3::exceptions::PyTypeError;
use pyo3::ffi;
use pyo3::prelude::*;
use std::mem::ManuallyDrop;
use std::os::raw::{c_char, c_int, c_void};

/// CPython's `Py_buffer`.
#[repr(C)]
struct RawBuffer {
    /// Start of the memory.
    buf: *mut c_void,
    /// The exporting object (a new reference).
    obj: *mut ffi::PyObject,
    /// Length in bytes.
    len: isize,
    /// Size of one item.
    itemsize: isize,
    /// Whether the memory is read-only.
    readonly: c_int,
    /// Number of dimensions.
    ndim: c_int,
    /// Item format.
    format: *mut c_char,
    /// Shape.
    shape: *mut isize,
    /// Strides.
    strides: *mut isize,
    /// Sub-offsets.
    suboffsets: *mut isize,
    /// Exporter's private data.
    internal: *mut c_void,
}

extern "C" {
    fn PyObject_GetBuffer(obj: *mut ffi::PyObject, view: *mut RawBuffer, flags: c_int) -> c_int;
    fn PyBuffer_Release(view: *mut RawBuffer);
    fn PyObject_CheckBuffer(obj: *mut ffi::PyObject) -> c_int;
}

/// Whether `obj`'s type exports buffers (a type-slot check, no exception on failure).
pub fn has_buffer(obj: &Bound<'_, PyAny>) -> bool {
    // SAFETY: `obj` is a live object; the function only reads its type.
    unsafe { PyObject_CheckBuffer(obj.as_ptr()) != 0 }
}

/// `PyBUF_ANY_CONTIGUOUS`: the memory in one piece, in C or Fortran order (hip-python takes
/// a Fortran-ordered array as its bytes, the layout hipBLAS and hipSOLVER want).
const PYBUF_ANY_CONTIGUOUS: c_int = 0x0080 | 0x0010 | 0x0008;
/// `PyBUF_WRITABLE`.
const PYBUF_WRITABLE: c_int = 0x0001;

/// An exported buffer, released on drop (with the GIL held, as the wrappers drop it).
pub struct BufferGuard {
    /// The export, in a view taken from [`SPARE`] and given back on release.
    view: ManuallyDrop<Box<RawBuffer>>,
}

crate::table! {
    /// Views kept for reuse: a buffer argument takes one and gives it back when released, instead
    /// of allocating one per call (malloc and free, ~250 instructions, a tenth of a NumPy
    /// argument's cost) or holding the 80-byte view inline in every pointer argument (which each
    /// of the thousands of generated functions would then copy around: ~1 MB per extension).
    /// Kept per thread: correct without the GIL (free-threaded Python) and free of contention.
    static SPARE: Vec<Released>;
}

/// A released view kept for reuse, handed out and taken back whole (no copy, no allocation).
struct Released(Box<RawBuffer>);

// SAFETY: a released view's pointers dangle and are never read; it is zeroed before reuse.
unsafe impl Send for Released {}

/// Views kept at most (one per buffer argument of the calls in flight is enough).
const MAX_SPARE: usize = 16;

/// A zeroed view, reused where one is spare.
fn take_view(py: Python<'_>) -> Box<RawBuffer> {
    let reused = SPARE.with(py, |spare| spare.borrow_mut().pop());
    match reused {
        Some(Released(mut v)) => {
            // SAFETY: `RawBuffer` is plain data; zeroed is its documented initial state.
            *v = unsafe { std::mem::zeroed() };
            v
        }
        // SAFETY: as above.
        None => Box::new(unsafe { std::mem::zeroed() }),
    }
}

/// Gives a released view back for reuse.
fn give_back(py: Python<'_>, view: Box<RawBuffer>) {
    SPARE.with(py, |spare| {
        let mut spare = spare.borrow_mut();
        if spare.len() < MAX_SPARE {
            spare.push(Released(view));
        }
    });
}

impl BufferGuard {
    /// Exports `obj`'s buffer; `None` if it has no buffer interface.
    ///
    /// A read-only buffer passed where C writes is an error, not a silent copy.
    pub fn try_new(obj: &Bound<'_, PyAny>, writable: bool) -> PyResult<Option<BufferGuard>> {
        if !has_buffer(obj) {
            return Ok(None);
        }
        let mut view = take_view(obj.py());
        let flags = if writable {
            PYBUF_ANY_CONTIGUOUS | PYBUF_WRITABLE
        } else {
            PYBUF_ANY_CONTIGUOUS
        };
        // SAFETY: `obj` is a live object and `view` outlives the export.
        let rc = unsafe { PyObject_GetBuffer(obj.as_ptr(), &mut *view, flags) };
        if rc == 0 {
            return Ok(Some(BufferGuard {
                view: ManuallyDrop::new(view),
            }));
        }
        give_back(obj.py(), view);
        let err = PyErr::fetch(obj.py());
        if writable && PyBuffer_is_readonly(obj) {
            return Err(PyTypeError::new_err(format!(
                "a {} is read-only, but this argument is written to: pass a writable buffer \
                 such as a bytearray",
                obj.get_type().name()?
            )));
        }
        // The type exports buffers but refused this one (e.g. a non-contiguous array).
        Err(err)
    }

    /// Start of the exported memory.
    pub fn addr(&self) -> usize {
        self.view.buf as usize
    }

    /// Length of the exported memory in bytes.
    pub fn byte_len(&self) -> usize {
        self.view.len.max(0) as usize
    }

    /// Number of dimensions of the export.
    pub fn ndim(&self) -> c_int {
        self.view.ndim
    }

    /// Whether the exported memory may be written.
    pub fn writable(&self) -> bool {
        self.view.readonly == 0
    }
}

/// Whether `obj` exports a buffer that is read-only.
#[allow(non_snake_case)]
fn PyBuffer_is_readonly(obj: &Bound<'_, PyAny>) -> bool {
    BufferGuard::try_new(obj, false)
        .ok()
        .flatten()
        .is_some_and(|g| g.view.readonly != 0)
}

impl Drop for BufferGuard {
    fn drop(&mut self) {
        // SAFETY: the view was filled by a successful PyObject_GetBuffer and is released once;
        // the generated wrappers drop their arguments with the GIL held.
        unsafe {
            PyBuffer_Release(&mut **self.view);
            give_back(
                Python::assume_gil_acquired(),
                ManuallyDrop::take(&mut self.view),
            );
        }
    }
}
