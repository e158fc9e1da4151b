//! Kernel arguments as `cuda.core`'s `launch(stream, config, kernel, *args)` takes them: each
//! value copied into a slot of its own, by its Python type alone (cuda.core checks no kernel
//! signature either), and the `void *[]` of those slots that the launch passes as
//! `kernelParams`.
//!
//! - `bool` → a C++ `bool` (1 byte); `int` → `intptr_t` (8 bytes; in `[-2**63, 2**64)`);
//!   `float` → `double`; `complex` → two `double`s;
//! - NumPy scalars (`np.float32(1)`, `np.uint8(3)`, `np.float16`, `np.complex64`...): their own
//!   bytes, as wide as their dtype;
//! - ctypes scalars (`c_int32(5)`, `c_float`, `c_void_p`...): their own bytes;
//! - a device buffer: a class registered with `register_buffer_class` (cuda.core's `Buffer`)
//!   gives its `handle`; any `Pointer` (a handle, a `DeviceArray`) its address.
//!
//! Anything else is a `TypeError` naming its type, as in cuda.core.

use crate::convert::attr::is_subtype;
use crate::convert::buffer::BufferGuard;
use crate::convert::pointer::as_pointer;
use pyo3::exceptions::{PyOverflowError, PyTypeError};
use pyo3::prelude::*;
use pyo3::sync::GILOnceCell;
use pyo3::types::{PyBool, PyComplex, PyFloat, PyInt, PyString, PyTuple, PyType};
use std::sync::Mutex;

/// The widest value a slot holds: a `complex128` or a `std::complex<double>`.
const SLOT_BYTES: usize = 16;

/// One argument's storage, aligned for any scalar type a kernel takes.
#[repr(C, align(16))]
#[derive(Clone, Copy, Default)]
struct Slot([u8; SLOT_BYTES]);

/// The classes whose instances pass an attribute of theirs (an int address), and its name.
static BUFFER_CLASSES: Mutex<Vec<(Py<PyType>, Py<PyString>)>> = Mutex::new(Vec::new());

/// What an argument of a type other than Python's scalars and `Pointer`s is, by type: the
/// decision is made once per type (a type is kept here, so its address names no other).
static KINDS: Mutex<Vec<(Py<PyType>, Kind)>> = Mutex::new(Vec::new());

#[derive(Clone, Copy)]
enum Kind {
    /// A registered buffer class: the address is the attribute at that index of
    /// `BUFFER_CLASSES`.
    Buffer(usize),
    /// A NumPy or ctypes scalar: its own bytes.
    Scalar,
    Unsupported,
}

/// `numpy.generic`, looked up once NumPy is imported (an argument can only be a NumPy scalar
/// then).
static NUMPY_GENERIC: GILOnceCell<Py<PyType>> = GILOnceCell::new();

/// `ctypes._SimpleCData`.
static CTYPES_SIMPLE: GILOnceCell<Py<PyType>> = GILOnceCell::new();

/// Makes instances of `cls` (and its subclasses) pass their `attribute` (an int address, or
/// an object with `getPtr()`) as the kernel argument.
#[pyfunction]
#[pyo3(signature = (cls, attribute="handle"))]
pub fn register_buffer_class(cls: Bound<'_, PyType>, attribute: &str) {
    let mut classes = BUFFER_CLASSES.lock().unwrap_or_else(|e| e.into_inner());
    if !classes.iter().any(|(c, _)| c.is(&cls)) {
        let name = PyString::intern(cls.py(), attribute).unbind();
        classes.push((cls.unbind(), name));
    }
    // Types seen before may be subclasses of this one.
    KINDS.lock().unwrap_or_else(|e| e.into_inner()).clear();
}

/// A launch's packed arguments: `address` is the `void *[]` (0 for none), valid while this
/// object lives.
#[pyclass(frozen, module = "hipgen_runtime")]
pub struct KernelArgs {
    slots: Box<[Slot]>,
    pointers: Box<[usize]>,
    sizes: Box<[usize]>,
}

#[pymethods]
impl KernelArgs {
    #[new]
    #[pyo3(signature = (*args))]
    fn new(args: &Bound<'_, PyTuple>) -> PyResult<Self> {
        let mut slots = vec![Slot::default(); args.len()].into_boxed_slice();
        let mut sizes = Vec::with_capacity(args.len());
        for (slot, arg) in slots.iter_mut().zip(args.iter()) {
            sizes.push(pack(&arg, &mut slot.0)?);
        }
        let pointers = slots.iter().map(|s| s as *const Slot as usize).collect();
        Ok(KernelArgs {
            slots,
            pointers,
            sizes: sizes.into_boxed_slice(),
        })
    }

    /// The address of the `void *[]` the kernel reads its arguments through; 0 for none.
    #[getter]
    fn address(&self) -> usize {
        if self.pointers.is_empty() {
            0
        } else {
            self.pointers.as_ptr() as usize
        }
    }

    fn __len__(&self) -> usize {
        self.slots.len()
    }

    /// The bytes argument `i` is passed as (as wide as its C type).
    fn argument_bytes(&self, i: usize) -> PyResult<Vec<u8>> {
        let size = *self.sizes.get(i).ok_or_else(|| {
            pyo3::exceptions::PyIndexError::new_err(format!("argument {i} out of range"))
        })?;
        Ok(self.slots[i].0[..size].to_vec())
    }
}

impl KernelArgs {
    /// `args` packed by the rules `KernelArgs(*args)` follows, for a launch made natively.
    pub fn pack(args: &Bound<'_, PyTuple>) -> PyResult<Self> {
        Self::new(args)
    }

    /// The `void *[]` a launch passes as the kernel's parameters (null for none), valid while
    /// this value lives.
    pub fn parameters(&self) -> *mut *mut std::ffi::c_void {
        self.address() as *mut *mut std::ffi::c_void
    }
}

/// Writes `arg` into `slot`; returns how many bytes it takes.
fn pack(arg: &Bound<'_, PyAny>, slot: &mut [u8; SLOT_BYTES]) -> PyResult<usize> {
    if let Some(size) = pack_python(arg, slot)? {
        return Ok(size);
    }
    if let Some(p) = as_pointer(arg) {
        slot[..8].copy_from_slice(&(p.get().addr() as u64).to_ne_bytes());
        return Ok(8);
    }
    match kind_of(arg)? {
        Kind::Buffer(i) => {
            slot[..8].copy_from_slice(&(buffer_address(arg, i)? as u64).to_ne_bytes());
            Ok(8)
        }
        Kind::Scalar => scalar_bytes(arg, slot),
        Kind::Unsupported => Err(PyTypeError::new_err(format!(
            "the argument is of unsupported type: {}",
            arg.get_type().str()?
        ))),
    }
}

/// The kind of `arg`'s type, decided on its first argument and remembered.
fn kind_of(arg: &Bound<'_, PyAny>) -> PyResult<Kind> {
    let ty = arg.get_type_ptr();
    {
        let kinds = KINDS.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((_, kind)) = kinds.iter().find(|(t, _)| t.as_ptr() as *mut _ == ty) {
            return Ok(*kind);
        }
    }
    let kind = if let Some(i) = registered_class(arg) {
        Kind::Buffer(i)
    } else if is_scalar_object(arg)? {
        Kind::Scalar
    } else {
        Kind::Unsupported
    };
    let mut kinds = KINDS.lock().unwrap_or_else(|e| e.into_inner());
    kinds.push((arg.get_type().unbind(), kind));
    Ok(kind)
}

/// The index in `BUFFER_CLASSES` of the class `arg` is an instance of, if any.
fn registered_class(arg: &Bound<'_, PyAny>) -> Option<usize> {
    let classes = BUFFER_CLASSES.lock().unwrap_or_else(|e| e.into_inner());
    classes
        .iter()
        .position(|(c, _)| is_subtype(arg, c.bind(arg.py())))
}

/// The address a buffer of registered class `i` passes.
fn buffer_address(arg: &Bound<'_, PyAny>, i: usize) -> PyResult<usize> {
    let attribute = {
        let classes = BUFFER_CLASSES.lock().unwrap_or_else(|e| e.into_inner());
        classes[i].1.clone_ref(arg.py())
    };
    let handle = arg.getattr(attribute.bind(arg.py()))?;
    let handle = if handle.is_instance_of::<PyInt>() {
        handle
    } else {
        handle.call_method0("getPtr")?
    };
    handle.extract::<usize>()
}

/// Python's own scalars (`bool` before `int`: it is one); None for other objects.
fn pack_python(arg: &Bound<'_, PyAny>, slot: &mut [u8; SLOT_BYTES]) -> PyResult<Option<usize>> {
    if arg.is_instance_of::<PyBool>() {
        slot[0] = u8::from(arg.extract::<bool>()?);
        return Ok(Some(1));
    }
    if arg.is_instance_of::<PyInt>() {
        let bits = match arg.extract::<i64>() {
            Ok(v) => v as u64,
            Err(_) => arg.extract::<u64>().map_err(|_| {
                PyOverflowError::new_err(format!(
                    "kernel argument {} does not fit in 64 bits (an int is passed as intptr_t)",
                    arg.repr().map(|r| r.to_string()).unwrap_or_default()
                ))
            })?,
        };
        slot[..8].copy_from_slice(&bits.to_ne_bytes());
        return Ok(Some(8));
    }
    if arg.is_instance_of::<PyFloat>() {
        slot[..8].copy_from_slice(&arg.extract::<f64>()?.to_ne_bytes());
        return Ok(Some(8));
    }
    if let Ok(c) = arg.downcast::<PyComplex>() {
        slot[..8].copy_from_slice(&c.real().to_ne_bytes());
        slot[8..].copy_from_slice(&c.imag().to_ne_bytes());
        return Ok(Some(16));
    }
    Ok(None)
}

/// Whether `arg` is a NumPy or ctypes scalar, whose own bytes are the argument.
fn is_scalar_object(arg: &Bound<'_, PyAny>) -> PyResult<bool> {
    let py = arg.py();
    let simple = CTYPES_SIMPLE.get_or_try_init(py, || {
        py.import("ctypes")?
            .getattr("_SimpleCData")?
            .downcast_into::<PyType>()
            .map(Bound::unbind)
            .map_err(PyErr::from)
    })?;
    if is_subtype(arg, simple.bind(py)) {
        return Ok(true);
    }
    let generic = match NUMPY_GENERIC.get(py) {
        Some(g) => g,
        None => {
            let numpy = py.import("sys")?.getattr("modules")?.get_item("numpy");
            let Ok(numpy) = numpy else { return Ok(false) };
            let generic = numpy.getattr("generic")?.downcast_into::<PyType>()?;
            NUMPY_GENERIC.get_or_init(py, || generic.unbind())
        }
    };
    if !is_subtype(arg, generic.bind(py)) {
        return Ok(false);
    }
    // Numbers and bools only: a string, datetime or object scalar is no kernel argument.
    let kind: String = arg.getattr("dtype")?.getattr("kind")?.extract()?;
    Ok(matches!(kind.as_str(), "b" | "i" | "u" | "f" | "c"))
}

/// Copies a NumPy or ctypes scalar's bytes (through the buffer protocol) into `slot`.
fn scalar_bytes(arg: &Bound<'_, PyAny>, slot: &mut [u8; SLOT_BYTES]) -> PyResult<usize> {
    let unsupported = |len: usize| -> PyResult<PyErr> {
        Ok(PyTypeError::new_err(format!(
            "the argument is of unsupported type: {} ({len} bytes)",
            arg.get_type().str()?
        )))
    };
    let Some(view) = BufferGuard::try_new(arg, false)? else {
        return Err(unsupported(0)?);
    };
    let len = view.byte_len();
    if len == 0 || len > SLOT_BYTES {
        return Err(unsupported(len)?);
    }
    // SAFETY: the exported buffer holds `len` bytes at `addr` while `view` lives.
    let bytes = unsafe { std::slice::from_raw_parts(view.addr() as *const u8, len) };
    slot[..len].copy_from_slice(bytes);
    Ok(len)
}
