//! NumPy arrays as pointer arguments, without exporting a buffer.
//!
//! Exporting a NumPy array's buffer (`PyObject_GetBuffer`, then its release) costs ~800
//! instructions: NumPy allocates and compares a description of the array each time, and the
//! view is filled and emptied. A pointer argument needs only the start of the memory and two
//! facts, whether it is one piece and whether it is writable, which every `ndarray` holds in
//! the fields NumPy's own C macros read (`PyArray_DATA`, `PyArray_FLAGS`): the start of
//! `PyArrayObject_fields`, unchanged from NumPy 1.0 to 2.x because compiled extensions read it.
//!
//! The `ndarray` type is learned from the first array that goes through the buffer protocol,
//! and only after the fields read here agree with that export; exact `ndarray`s only
//! (subclasses may override the buffer protocol). Anything the buffer protocol would refuse
//! or treat otherwise (not one piece, read-only where C writes, NumPy's warn-on-write views)
//! takes the buffer path and its messages.

use super::buffer::BufferGuard;
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::sync::GILOnceCell;
use std::os::raw::{c_int, c_void};
use std::sync::atomic::{AtomicUsize, Ordering};

/// The start of NumPy's `PyArrayObject_fields` (numpy/ndarraytypes.h).
#[repr(C)]
struct ArrayFields {
    ob_base: ffi::PyObject,
    data: *mut c_void,
    nd: c_int,
    dimensions: *mut isize,
    strides: *mut isize,
    base: *mut ffi::PyObject,
    descr: *mut ffi::PyObject,
    flags: c_int,
}

/// `NPY_ARRAY_C_CONTIGUOUS | NPY_ARRAY_F_CONTIGUOUS`: the memory is one piece (NumPy sets
/// both on 0-d and 1-d contiguous arrays).
const ONE_PIECE: c_int = 0x0001 | 0x0002;
/// `NPY_ARRAY_WRITEABLE`.
const WRITEABLE: c_int = 0x0400;
/// `NPY_ARRAY_WARN_ON_WRITE`: a view NumPy warns about when written (its buffer export does).
const WARN_ON_WRITE: c_int = 1 << 31;

/// The address of `numpy.ndarray` once learned; [`UNKNOWN`] before, [`REFUSED`] if the
/// fields did not agree with a buffer export (then never used).
static NDARRAY: AtomicUsize = AtomicUsize::new(UNKNOWN);
const UNKNOWN: usize = 0;
const REFUSED: usize = 1;

/// `numpy.ndarray`, held so the learned address stays its own.
static NDARRAY_TYPE: GILOnceCell<PyObject> = GILOnceCell::new();

/// The last type found not to be `ndarray` (its address): a program passing `bytearray`s and
/// no NumPy asks its name once, not on every call. At worst (the address reused by NumPy's
/// type after that type went) `ndarray` is never learned, and arrays take the buffer path.
static NOT_NDARRAY: AtomicUsize = AtomicUsize::new(0);

/// Where `PyArray_Descr` keeps the item size, learned with `ndarray` from an export (and
/// stored before it, so a thread that sees `ndarray` learned sees this too): not known yet
/// (0), an `int` 16 bytes after the object header (NumPy 1), an `npy_intp` 24 bytes after it
/// (NumPy 2).
static ELSIZE_LAYOUT: AtomicUsize = AtomicUsize::new(0);

/// The object header's size: 16 bytes, 32 in the free-threaded build (its owner thread and
/// split reference counts), which every offset past it moves with.
const HEAD: usize = size_of::<ffi::PyObject>();

/// The item size of an array's descriptor under `layout`.
///
/// # Safety
/// `descr` is a live `PyArray_Descr` of the NumPy the layout was learned from.
unsafe fn elsize(descr: *const u8, layout: usize) -> Option<usize> {
    match layout {
        1 => usize::try_from(std::ptr::read_unaligned(
            descr.add(HEAD + 16) as *const c_int
        ))
        .ok(),
        2 => usize::try_from(std::ptr::read_unaligned(
            descr.add(HEAD + 24) as *const isize
        ))
        .ok(),
        _ => None,
    }
}

/// The number of items of an array's `nd` dimensions.
///
/// # Safety
/// `fields` are a live array's.
unsafe fn items(fields: &ArrayFields) -> usize {
    (0..fields.nd.max(0) as usize)
        .map(|i| *fields.dimensions.add(i) as usize)
        .product()
}

/// The start of the memory of an exact `ndarray` that the buffer protocol would export as
/// one piece (`writable`: and writable); None for anything else.
#[inline]
pub fn address(obj: &Bound<'_, PyAny>, writable: bool) -> Option<usize> {
    address_and_len(obj, writable).map(|(a, _)| a)
}

/// [`address`], with the array's length in bytes where the item size is known.
#[inline]
pub fn address_and_len(obj: &Bound<'_, PyAny>, writable: bool) -> Option<(usize, Option<usize>)> {
    let known = NDARRAY.load(Ordering::Acquire);
    if known <= REFUSED || obj.get_type_ptr() as usize != known {
        return None;
    }
    // SAFETY: `obj` is an exact `numpy.ndarray`, whose object starts with these fields (checked
    // against a buffer export when the type was learned).
    let fields = unsafe { &*(obj.as_ptr() as *const ArrayFields) };
    let flags = fields.flags;
    if flags & ONE_PIECE == 0 {
        return None;
    }
    if writable && (flags & WRITEABLE == 0 || flags & WARN_ON_WRITE != 0) {
        return None;
    }
    let layout = ELSIZE_LAYOUT.load(Ordering::Relaxed);
    // SAFETY: the fields of a live array, and its descriptor under the learned layout.
    let len = unsafe { elsize(fields.descr as *const u8, layout).map(|e| e * items(fields)) };
    // `ndarray` is learned only with its layout, so the length is known: a size check never
    // goes without it.
    Some((fields.data as usize, Some(len?)))
}

/// Called with each object the buffer protocol exported while `ndarray` is not yet known:
/// learns it if `obj` is an exact `numpy.ndarray` whose fields agree with `view`.
pub fn learn(obj: &Bound<'_, PyAny>, view: &BufferGuard) {
    if NDARRAY.load(Ordering::Acquire) != UNKNOWN {
        return;
    }
    let py = obj.py();
    let ty = obj.get_type();
    if ty.as_ptr() as usize == NOT_NDARRAY.load(Ordering::Relaxed) {
        return;
    }
    let named = ty.name().is_ok_and(|n| n == "ndarray") && ty.module().is_ok_and(|m| m == "numpy");
    if !named {
        NOT_NDARRAY.store(ty.as_ptr() as usize, Ordering::Relaxed);
        return;
    }
    // The type NumPy itself exports under that name, not a look-alike.
    let Ok(Some(numpy)) = py
        .import("sys")
        .and_then(|sys| sys.getattr("modules"))
        .and_then(|m| m.call_method1("get", ("numpy",)))
        .map(|m| (!m.is_none()).then_some(m))
    else {
        return;
    };
    if !numpy.getattr("ndarray").is_ok_and(|t| t.is(&ty)) {
        return;
    }
    // SAFETY: a live `ndarray`; the fields are read only to compare them with the export.
    let fields = unsafe { &*(obj.as_ptr() as *const ArrayFields) };
    let agrees = fields.data as usize == view.addr()
        && fields.nd == view.ndim()
        && (fields.flags & WRITEABLE != 0) == view.writable();
    // The item size's place: the layout whose size times the items is the export's length.
    // SAFETY: a live array and its descriptor; both candidate reads stay inside it.
    let n = unsafe { items(fields) };
    if agrees && n == 0 {
        // An empty array cannot show where the item size is: learn from a later one.
        return;
    }
    let found = [1, 2].into_iter().find(|&l| {
        agrees
            && unsafe { elsize(fields.descr as *const u8, l) }
                .is_some_and(|e| e * n == view.byte_len())
    });
    let learned = match found {
        Some(l) => {
            ELSIZE_LAYOUT.store(l, Ordering::Relaxed);
            let _ = NDARRAY_TYPE.set(py, ty.clone().into_any().unbind());
            ty.as_ptr() as usize
        }
        // Fields or a layout that do not agree with the export: arrays take the buffer path.
        None => REFUSED,
    };
    NDARRAY.store(learned, Ordering::Release);
}
