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
    /// One allocation: the `extra` array (`[BUFFER_POINTER, args, BUFFER_SIZE, &size, END]`),
    /// the size it points at, then the packed argument bytes. Empty when nothing is packed.
    _buf: Vec<u64>,
    /// Keeps a pointer-like `extra` argument alive.
    _ptr: Option<PtrArg>,
}

/// Words of `KernelExtra::_buf` before the argument bytes: the five-entry array and the size.
const HEADER: usize = 6;

/// `ctypes._CData`'s concrete bases: values whose size and alignment ctypes knows.
static CTYPES_FUNCS: GILOnceCell<(PyObject, PyObject, Py<PyType>, Py<PyType>)> = GILOnceCell::new();

crate::table! {
    /// (class, size, alignment) of the ctypes classes packed so far, by identity: asked of ctypes
    /// once per class instead of twice per value (two Python calls each). A class's layout is
    /// final once it has instances; the table holds its classes alive.
    /// A few classes: a linear search; never borrowed across a call that could run Python code.
    static LAYOUTS: Vec<Layout>;
}

/// A ctypes class, its size and its alignment.
type Layout = (Py<PyType>, usize, usize);

/// Classes remembered at most (a program packs a handful).
const MAX_LAYOUTS: usize = 64;

impl KernelExtra {
    /// The address passed to C.
    #[inline]
    pub fn addr(&self) -> usize {
        self.addr
    }

    /// Packs a tuple or list of ctypes values and pointer-like objects.
    fn pack(items: &Bound<'_, PyAny>) -> PyResult<KernelExtra> {
        let mut buf = Vec::with_capacity(HEADER + items.len()? + 1);
        buf.resize(HEADER, 0u64);
        let len = pack_into(items, &mut buf)?;
        // The header last: the buffer no longer moves.
        let base = buf.as_ptr() as usize;
        buf[..HEADER].copy_from_slice(&[
            PARAM_BUFFER_POINTER as u64,
            (base + HEADER * 8) as u64,
            PARAM_BUFFER_SIZE as u64,
            (base + (HEADER - 1) * 8) as u64,
            crate::load::nvidia::launch_param_end() as u64,
            len as u64,
        ]);
        Ok(KernelExtra {
            addr: base,
            _buf: buf,
            _ptr: None,
        })
    }
}

/// The size and alignment of ctypes value `item`, or None when it is none.
fn ctypes_layout(item: &Bound<'_, PyAny>) -> PyResult<Option<(usize, usize)>> {
    let py = item.py();
    // By the class's address, borrowed: every thread packing a `c_int` would otherwise count
    // references to that one class (atomically, contended, in the free-threaded build).
    let class = item.get_type_ptr() as usize;
    let known = LAYOUTS.with(py, |layouts| {
        layouts
            .borrow()
            .iter()
            .find(|(c, _, _)| c.as_ptr() as usize == class)
            .map(|&(_, size, align)| (size, align))
    });
    if known.is_some() {
        return Ok(known);
    }
    let class = item.get_type();
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
    if !(item.is_instance(simple.bind(py))? || item.is_instance(structure.bind(py))?) {
        return Ok(None);
    }
    let size: usize = sizeof.bind(py).call1((&class,))?.extract()?;
    let align: usize = alignment.bind(py).call1((&class,))?.extract()?;
    LAYOUTS.with(py, |layouts| {
        let mut layouts = layouts.borrow_mut();
        if layouts.len() < MAX_LAYOUTS {
            layouts.push((class.unbind(), size, align));
        }
    });
    Ok(Some((size, align)))
}

/// Packs `items` after the `HEADER` words of `buf` (each value at its C alignment, the
/// buffer grown as needed); returns the byte length.
fn pack_into(items: &Bound<'_, PyAny>, buf: &mut Vec<u64>) -> PyResult<usize> {
    let py = items.py();
    let mut len = 0usize;
    for (i, item) in items.try_iter()?.enumerate() {
        let item = item?;
        let (size, align, guard, addr);
        // Our `Pointer`s first: a type check, where asking whether a value is a ctypes one
        // looks up `__instancecheck__` on ctypes' metaclass.
        if let Ok(p) = item.downcast::<Pointer>() {
            addr = p.get().addr();
            (size, align, guard) = (8, align_of::<usize>(), None);
        } else if let Some((s, a)) = ctypes_layout(&item)? {
            let g = BufferGuard::try_new(&item, false)?
                .ok_or_else(|| PyTypeError::new_err("ctypes value without a buffer"))?;
            if g.byte_len() < s {
                return Err(PyTypeError::new_err(format!(
                    "extra[{i}]: the ctypes value exports fewer bytes than its size"
                )));
            }
            (size, align, addr) = (s, a, 0);
            guard = Some(g);
        } else if item.is_instance_of::<PyInt>() || item.is_instance_of::<PyFloat>() {
            return Err(PyTypeError::new_err(format!(
                "extra[{i}]: a Python {} has no C size; wrap it in a ctypes type such as \
                     ctypes.c_int or ctypes.c_float",
                item.get_type().name()?
            )));
        } else {
            addr = PtrArg::convert(&item, false)
                .map_err(|e| PyTypeError::new_err(format!("extra[{i}]: {}", e.value(py))))?
                .addr;
            (size, align, guard) = (8, align_of::<usize>(), None);
        }
        let start = len.next_multiple_of(align.max(1));
        let end = start + size;
        let words = HEADER + end.div_ceil(8);
        if buf.len() < words {
            buf.resize(words, 0);
        }
        let src = match &guard {
            Some(g) => g.addr() as *const u8,
            None => &addr as *const usize as *const u8,
        };
        // SAFETY: `buf` holds at least `end` bytes after the header; `src` has `size` bytes
        // (the ctypes value's export, checked above, or the address itself).
        unsafe {
            let dst = (buf.as_mut_ptr() as *mut u8).add(HEADER * 8 + start);
            std::ptr::copy_nonoverlapping(src, dst, size);
        }
        len = end;
    }
    Ok(len)
}

/// The bytes `hipModuleLaunchKernel(..., extra=items)` passes to the kernel.
#[pyfunction]
pub fn pack_kernel_args(items: &Bound<'_, PyAny>) -> PyResult<Vec<u8>> {
    let mut buf = vec![0u64; HEADER];
    let len = pack_into(items, &mut buf)?;
    // SAFETY: `buf` holds `len` packed bytes after the header.
    let bytes =
        unsafe { std::slice::from_raw_parts((buf.as_ptr() as *const u8).add(HEADER * 8), len) };
    Ok(bytes.to_vec())
}

impl<'py> FromPyObject<'py> for KernelExtra {
    fn extract_bound(obj: &Bound<'py, PyAny>) -> PyResult<Self> {
        if obj.is_instance_of::<PyTuple>() || obj.is_instance_of::<PyList>() {
            return KernelExtra::pack(obj);
        }
        let p = PtrArg::convert(obj, false)?;
        Ok(KernelExtra {
            addr: p.addr,
            _buf: Vec::new(),
            _ptr: Some(p),
        })
    }
}
