//! DLPack (<https://dmlc.github.io/dlpack/latest/>) both ways, with DLPack's own structs (the
//! `dlpark` crate's `ffi`, generated from `dlpack.h`).
//!
//! A producer hands out a PyCapsule named "dltensor" (or "dltensor_versioned") holding a
//! `DLManagedTensor *`; the consumer renames it "used_dltensor" and calls the tensor's deleter
//! when it is done with the memory. A capsule nobody consumed calls the deleter when collected.
//! `to_dlpack` produces one over memory a Python object owns (kept alive until the deleter
//! runs); `from_dlpack` consumes one into a `DLPackTensor`, which calls the deleter when it is
//! released or collected.

use dlpark::ffi::{
    DLDataType, DLDataTypeCode, DLDevice, DLDeviceType, DLManagedTensor, DLManagedTensorVersioned,
    DLPackVersion, DLTensor, DLPACK_FLAG_BITMASK_READ_ONLY, DLPACK_MAJOR_VERSION,
    DLPACK_MINOR_VERSION,
};
use dlpark::DlpackFlags;
use pyo3::exceptions::{PyBufferError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyCapsule, PyDict};
use std::ffi::{c_void, CStr};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

const LEGACY: &CStr = c"dltensor";
const VERSIONED: &CStr = c"dltensor_versioned";
const USED_LEGACY: &CStr = c"used_dltensor";
const USED_VERSIONED: &CStr = c"used_dltensor_versioned";

/// Exports whose deleter has not run yet.
static LIVE_EXPORTS: AtomicUsize = AtomicUsize::new(0);

/// What an export keeps until its deleter runs: the tensor C reads, its shape and strides, and
/// the Python object owning the memory.
struct Export<T> {
    managed: T,
    shape: Vec<i64>,
    strides: Option<Vec<i64>>,
    /// Keeps the memory alive until the deleter runs.
    _owner: PyObject,
}

/// The tensor `to_dlpack` describes.
struct Described {
    data: usize,
    shape: Vec<i64>,
    dtype: (u8, u8, u16),
    device: (u32, i32),
    strides: Option<Vec<i64>>,
}

fn tensor(d: &Described, shape: &mut [i64], strides: Option<&mut Vec<i64>>) -> DLTensor {
    DLTensor {
        data: d.data as *mut c_void,
        device: DLDevice {
            device_type: DLDeviceType(d.device.0),
            device_id: d.device.1,
        },
        ndim: shape.len() as i32,
        dtype: DLDataType {
            code: DLDataTypeCode(d.dtype.0),
            bits: d.dtype.1,
            lanes: d.dtype.2,
        },
        shape: shape.as_mut_ptr(),
        strides: strides.map_or(std::ptr::null_mut(), |s| s.as_mut_ptr()),
        byte_offset: 0,
    }
}

/// Drops an export. Its owner is let go at once where the caller holds the GIL, else the next
/// time Python code runs (PyO3's deferred reference counting): a consumer may call the deleter
/// from any thread, also while the interpreter shuts down, where taking the GIL would abort.
fn drop_export<T>(ctx: *mut c_void) {
    if ctx.is_null() {
        return;
    }
    // SAFETY: `ctx` is the `Box<Export<T>>` leaked by `to_dlpack`, given to this deleter once.
    drop(unsafe { Box::from_raw(ctx as *mut Export<T>) });
    LIVE_EXPORTS.fetch_sub(1, Ordering::Relaxed);
}

unsafe extern "C" fn delete_legacy(managed: *mut DLManagedTensor) {
    // SAFETY: the consumer passes the tensor this export made.
    drop_export::<DLManagedTensor>(unsafe { (*managed).manager_ctx });
}

unsafe extern "C" fn delete_versioned(managed: *mut DLManagedTensorVersioned) {
    // SAFETY: as above.
    drop_export::<DLManagedTensorVersioned>(unsafe { (*managed).manager_ctx });
}

/// Runs the deleter of a capsule nobody consumed (its name is still the producer's).
unsafe extern "C" fn capsule_destructor(capsule: *mut pyo3::ffi::PyObject) {
    // SAFETY: CPython calls this with the capsule being destroyed, the GIL held.
    unsafe {
        if pyo3::ffi::PyCapsule_IsValid(capsule, LEGACY.as_ptr()) == 1 {
            let m =
                pyo3::ffi::PyCapsule_GetPointer(capsule, LEGACY.as_ptr()) as *mut DLManagedTensor;
            if let Some(deleter) = (*m).deleter {
                deleter(m);
            }
        } else if pyo3::ffi::PyCapsule_IsValid(capsule, VERSIONED.as_ptr()) == 1 {
            let m = pyo3::ffi::PyCapsule_GetPointer(capsule, VERSIONED.as_ptr())
                as *mut DLManagedTensorVersioned;
            if let Some(deleter) = (*m).deleter {
                deleter(m);
            }
        }
    }
}

/// A capsule named `name` over `pointer`, whose destructor runs an unconsumed tensor's deleter.
fn capsule(py: Python<'_>, pointer: *mut c_void, name: &'static CStr) -> PyResult<PyObject> {
    // SAFETY: `pointer` lives until its deleter runs; the name is static.
    let raw = unsafe { pyo3::ffi::PyCapsule_New(pointer, name.as_ptr(), Some(capsule_destructor)) };
    // SAFETY: a new reference, or NULL with an exception set.
    unsafe { Bound::from_owned_ptr_or_err(py, raw) }.map(Bound::unbind)
}

/// A DLPack capsule over memory `owner` keeps alive: `data` (an address), `shape`, `dtype`
/// (`(code, bits, lanes)`), `device` (`(device type, ordinal)`), `strides` in elements (None:
/// C-contiguous); `versioned` makes a DLPack 1.x "dltensor_versioned" capsule.
#[pyfunction]
#[pyo3(signature = (data, shape, dtype, device, owner, strides=None, versioned=false, read_only=false))]
#[allow(clippy::too_many_arguments)]
pub fn to_dlpack(
    py: Python<'_>,
    data: usize,
    shape: Vec<i64>,
    dtype: (u8, u8, u16),
    device: (u32, i32),
    owner: PyObject,
    strides: Option<Vec<i64>>,
    versioned: bool,
    read_only: bool,
) -> PyResult<PyObject> {
    if strides.as_ref().is_some_and(|s| s.len() != shape.len()) {
        return Err(PyValueError::new_err("strides and shape differ in length"));
    }
    let d = Described {
        data,
        shape,
        dtype,
        device,
        strides,
    };
    LIVE_EXPORTS.fetch_add(1, Ordering::Relaxed);
    if versioned {
        let flags = if read_only {
            DlpackFlags::READ_ONLY
        } else {
            DlpackFlags::empty()
        };
        export_versioned(py, d, owner, flags)
    } else {
        export_legacy(py, d, owner)
    }
}

fn export_legacy(py: Python<'_>, mut d: Described, owner: PyObject) -> PyResult<PyObject> {
    let mut export = Box::new(Export {
        managed: DLManagedTensor {
            dl_tensor: DLTensor::default_for_export(),
            manager_ctx: std::ptr::null_mut(),
            deleter: Some(delete_legacy),
        },
        shape: std::mem::take(&mut d.shape),
        strides: d.strides.take(),
        _owner: owner,
    });
    export.managed.dl_tensor = tensor(&d, &mut export.shape, export.strides.as_mut());
    let raw = Box::into_raw(export);
    // SAFETY: `raw` is the export just leaked; its deleter takes it back.
    unsafe {
        (*raw).managed.manager_ctx = raw as *mut c_void;
        capsule(py, &mut (*raw).managed as *mut _ as *mut c_void, LEGACY)
    }
}

fn export_versioned(
    py: Python<'_>,
    mut d: Described,
    owner: PyObject,
    flags: DlpackFlags,
) -> PyResult<PyObject> {
    let mut export = Box::new(Export {
        managed: DLManagedTensorVersioned {
            version: DLPackVersion {
                major: DLPACK_MAJOR_VERSION,
                minor: DLPACK_MINOR_VERSION,
            },
            manager_ctx: std::ptr::null_mut(),
            deleter: Some(delete_versioned),
            flags,
            dl_tensor: DLTensor::default_for_export(),
        },
        shape: std::mem::take(&mut d.shape),
        strides: d.strides.take(),
        _owner: owner,
    });
    export.managed.dl_tensor = tensor(&d, &mut export.shape, export.strides.as_mut());
    let raw = Box::into_raw(export);
    // SAFETY: as in `export_legacy`.
    unsafe {
        (*raw).managed.manager_ctx = raw as *mut c_void;
        capsule(py, &mut (*raw).managed as *mut _ as *mut c_void, VERSIONED)
    }
}

trait DefaultForExport {
    fn default_for_export() -> Self;
}

impl DefaultForExport for DLTensor {
    /// An empty tensor, filled in once the export's shape has its final address.
    fn default_for_export() -> Self {
        DLTensor {
            data: std::ptr::null_mut(),
            device: DLDevice {
                device_type: DLDeviceType::CPU,
                device_id: 0,
            },
            ndim: 0,
            dtype: DLDataType {
                code: DLDataTypeCode::UINT,
                bits: 8,
                lanes: 1,
            },
            shape: std::ptr::null_mut(),
            strides: std::ptr::null_mut(),
            byte_offset: 0,
        }
    }
}

/// How many tensors `to_dlpack` made are still held (their deleter has not run).
#[pyfunction]
pub fn dlpack_live_exports() -> usize {
    LIVE_EXPORTS.load(Ordering::Relaxed)
}

/// The managed tensor a consumed capsule held, until its deleter runs.
enum Held {
    Legacy(*mut DLManagedTensor),
    Versioned(*mut DLManagedTensorVersioned),
}

// SAFETY: the pointer is only dereferenced under the mutex, and DLPack lets any thread call
// the deleter.
unsafe impl Send for Held {}

/// A tensor taken from a DLPack capsule: its memory stays valid until `release()` (or until
/// this object is collected).
#[pyclass(frozen, module = "hipgen_runtime")]
pub struct DLPackTensor {
    held: Mutex<Option<Held>>,
    #[pyo3(get)]
    data: usize,
    #[pyo3(get)]
    shape: Vec<i64>,
    #[pyo3(get)]
    strides: Option<Vec<i64>>,
    /// `(code, bits, lanes)`.
    #[pyo3(get)]
    dtype: (u8, u8, u16),
    /// `(device type, ordinal)`.
    #[pyo3(get)]
    device: (u32, i32),
    #[pyo3(get)]
    read_only: bool,
}

#[pymethods]
impl DLPackTensor {
    /// Tells the producer the memory is no longer used (once).
    fn release(&self) {
        let held = self.held.lock().unwrap_or_else(|e| e.into_inner()).take();
        // SAFETY: the pointer came from a capsule this object consumed; its deleter runs once.
        unsafe {
            match held {
                Some(Held::Legacy(m)) => {
                    if let Some(deleter) = (*m).deleter {
                        deleter(m)
                    }
                }
                Some(Held::Versioned(m)) => {
                    if let Some(deleter) = (*m).deleter {
                        deleter(m)
                    }
                }
                None => {}
            }
        }
    }

    /// The device types and type codes of DLPack, by name (`{"CUDA": 2, ...}`).
    #[staticmethod]
    fn constants(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
        let d = PyDict::new(py);
        for (name, value) in [
            ("CPU", DLDeviceType::CPU.0),
            ("CUDA", DLDeviceType::CUDA.0),
            ("CUDA_HOST", DLDeviceType::CUDAHOST.0),
            ("CUDA_MANAGED", DLDeviceType::CUDAMANAGED.0),
            ("ROCM", DLDeviceType::ROCM.0),
            ("ROCM_HOST", DLDeviceType::ROCMHOST.0),
        ] {
            d.set_item(name, value)?;
        }
        for (name, value) in [
            ("INT", DLDataTypeCode::INT.0),
            ("UINT", DLDataTypeCode::UINT.0),
            ("FLOAT", DLDataTypeCode::FLOAT.0),
            ("BFLOAT", DLDataTypeCode::BFLOAT.0),
            ("COMPLEX", DLDataTypeCode::COMPLEX.0),
            ("BOOL", DLDataTypeCode::BOOL.0),
        ] {
            d.set_item(name, value)?;
        }
        Ok(d)
    }
}

impl Drop for DLPackTensor {
    fn drop(&mut self) {
        self.release();
    }
}

/// The tensor in a "dltensor" or "dltensor_versioned" capsule, which is renamed "used_…" (a
/// capsule consumed before is a `BufferError`).
#[pyfunction]
pub fn from_dlpack(capsule: &Bound<'_, PyCapsule>) -> PyResult<DLPackTensor> {
    let raw = capsule.as_ptr();
    // SAFETY: `raw` is a live capsule; the names are static.
    unsafe {
        if pyo3::ffi::PyCapsule_IsValid(raw, VERSIONED.as_ptr()) == 1 {
            let m = pyo3::ffi::PyCapsule_GetPointer(raw, VERSIONED.as_ptr())
                as *mut DLManagedTensorVersioned;
            pyo3::ffi::PyCapsule_SetName(raw, USED_VERSIONED.as_ptr());
            if (*m).version.major != DLPACK_MAJOR_VERSION {
                let major = (*m).version.major;
                if let Some(deleter) = (*m).deleter {
                    deleter(m);
                }
                return Err(PyBufferError::new_err(format!(
                    "DLPack {major}.x tensor: this package reads DLPack {DLPACK_MAJOR_VERSION}.x"
                )));
            }
            let read_only = (*m).flags.bits() & u64::from(DLPACK_FLAG_BITMASK_READ_ONLY) != 0;
            return Ok(imported(&(*m).dl_tensor, Held::Versioned(m), read_only));
        }
        if pyo3::ffi::PyCapsule_IsValid(raw, LEGACY.as_ptr()) == 1 {
            let m = pyo3::ffi::PyCapsule_GetPointer(raw, LEGACY.as_ptr()) as *mut DLManagedTensor;
            pyo3::ffi::PyCapsule_SetName(raw, USED_LEGACY.as_ptr());
            return Ok(imported(&(*m).dl_tensor, Held::Legacy(m), false));
        }
    }
    Err(PyBufferError::new_err(
        "not a DLPack capsule (\"dltensor\" or \"dltensor_versioned\"), or one consumed already",
    ))
}

/// A `DLPackTensor` of `t`, which `held` keeps valid.
///
/// # Safety
/// `t` is a valid tensor whose shape (and strides, if any) hold `ndim` entries.
unsafe fn imported(t: &DLTensor, held: Held, read_only: bool) -> DLPackTensor {
    let ndim = t.ndim.max(0) as usize;
    let read = |p: *mut i64| {
        // SAFETY: the producer's arrays hold `ndim` entries.
        (!p.is_null() && ndim > 0).then(|| unsafe { std::slice::from_raw_parts(p, ndim) }.to_vec())
    };
    DLPackTensor {
        held: Mutex::new(Some(held)),
        data: t.data as usize + t.byte_offset as usize,
        shape: read(t.shape).unwrap_or_default(),
        strides: read(t.strides),
        dtype: (t.dtype.code.0, t.dtype.bits, t.dtype.lanes),
        device: (t.device.device_type.0, t.device.device_id),
        read_only,
    }
}
