//! `hipModuleLaunchKernel(..., extra=...)`: kernel arguments packed with C alignment.

use crate::convert::buffer::BufferGuard;
use crate::convert::pointer::{Pointer, PtrArg};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::sync::GILOnceCell;
use pyo3::types::{PyFloat, PyInt, PyList, PyTuple, PyType};

/// `HIP_LAUNCH_PARAM_BUFFER_POINTER`.
const PARAM_BUFFER_POINTER: usize = 0x01;
/// `HIP_LAUNCH_PARAM_BUFFER_SIZE`.
const PARAM_BUFFER_SIZE: usize = 0x02;

/// The packed `extra` array and the memory it points into.
pub struct KernelExtra {
    /// Address of the `extra` array passed to C (0 for None).
    addr: usize,
    /// The packed argument bytes.
    _args: Vec<u64>,
    /// Their size, pointed at by the array (None when nothing is packed: no allocation).
    _size: Option<Box<usize>>,
    /// `[BUFFER_POINTER, args, BUFFER_SIZE, &size, END]`.
    _config: Vec<usize>,
    /// Keeps a pointer-like `extra` argument alive.
    _ptr: Option<PtrArg>,
}

/// `ctypes._CData`'s concrete bases: values whose size and alignment ctypes knows.
static CTYPES_FUNCS: GILOnceCell<(PyObject, PyObject, Py<PyType>, Py<PyType>)> = GILOnceCell::new();

impl KernelExtra {
    /// The address passed to C.
    #[inline]
    pub fn addr(&self) -> usize {
        self.addr
    }

    /// Packs a tuple or list of ctypes values and pointer-like objects.
    fn pack(items: &Bound<'_, PyAny>) -> PyResult<KernelExtra> {
        let bytes = packed_args(items)?;
        let size = Box::new(bytes.len());
        let mut args = vec![0u64; bytes.len().div_ceil(8)];
        // SAFETY: `args` has at least `bytes.len()` bytes.
        unsafe {
            std::ptr::copy_nonoverlapping(bytes.as_ptr(), args.as_mut_ptr() as *mut u8, bytes.len())
        };
        let config = vec![
            PARAM_BUFFER_POINTER,
            args.as_ptr() as usize,
            PARAM_BUFFER_SIZE,
            &*size as *const usize as usize,
            crate::load::nvidia::launch_param_end(),
        ];
        Ok(KernelExtra {
            addr: config.as_ptr() as usize,
            _args: args,
            _size: Some(size),
            _config: config,
            _ptr: None,
        })
    }
}

/// The kernel argument buffer for `items`: each value at its C alignment.
fn packed_args(items: &Bound<'_, PyAny>) -> PyResult<Vec<u8>> {
    let py = items.py();
    let (sizeof, alignment, simple, structure) = CTYPES_FUNCS.get_or_try_init(py, || {
        let m = py.import("ctypes")?;
        PyResult::Ok((
            m.getattr("sizeof")?.unbind(),
            m.getattr("alignment")?.unbind(),
            m.getattr("_SimpleCData")?
                .downcast_into::<PyType>()?
                .unbind(),
            m.getattr("Structure")?.downcast_into::<PyType>()?.unbind(),
        ))
    })?;
    let mut bytes: Vec<u8> = Vec::new();
    for (i, item) in items.try_iter()?.enumerate() {
        let item = item?;
        let is_ctypes_value =
            item.is_instance(simple.bind(py))? || item.is_instance(structure.bind(py))?;
        let (data, align): (Vec<u8>, usize) = if is_ctypes_value {
            let size: usize = sizeof.bind(py).call1((&item,))?.extract()?;
            let align: usize = alignment.bind(py).call1((&item,))?.extract()?;
            let guard = BufferGuard::try_new(&item, false)?
                .ok_or_else(|| PyTypeError::new_err("ctypes value without a buffer"))?;
            // SAFETY: the ctypes object exports `size` bytes at this address.
            let data =
                unsafe { std::slice::from_raw_parts(guard.addr() as *const u8, size) }.to_vec();
            (data, align)
        } else if item.is_instance_of::<PyInt>() || item.is_instance_of::<PyFloat>() {
            return Err(PyTypeError::new_err(format!(
                "extra[{i}]: a Python {} has no C size; wrap it in a ctypes type such as \
                     ctypes.c_int or ctypes.c_float",
                item.get_type().name()?
            )));
        } else {
            let addr = if let Ok(p) = item.downcast::<Pointer>() {
                p.get().addr()
            } else {
                PtrArg::convert(&item, false)
                    .map_err(|e| PyTypeError::new_err(format!("extra[{i}]: {}", e.value(py))))?
                    .addr
            };
            (addr.to_ne_bytes().to_vec(), std::mem::align_of::<usize>())
        };
        let pad = bytes.len().next_multiple_of(align.max(1)) - bytes.len();
        bytes.extend(std::iter::repeat_n(0u8, pad));
        bytes.extend_from_slice(&data);
    }
    Ok(bytes)
}

/// The bytes `hipModuleLaunchKernel(..., extra=items)` passes to the kernel.
#[pyfunction]
pub fn pack_kernel_args(items: &Bound<'_, PyAny>) -> PyResult<Vec<u8>> {
    packed_args(items)
}

impl<'py> FromPyObject<'py> for KernelExtra {
    fn extract_bound(obj: &Bound<'py, PyAny>) -> PyResult<Self> {
        if obj.is_instance_of::<PyTuple>() || obj.is_instance_of::<PyList>() {
            return KernelExtra::pack(obj);
        }
        let p = PtrArg::convert(obj, false)?;
        Ok(KernelExtra {
            addr: p.addr,
            _args: Vec::new(),
            _size: None,
            _config: Vec::new(),
            _ptr: Some(p),
        })
    }
}
