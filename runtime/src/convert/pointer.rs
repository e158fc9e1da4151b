//! `Pointer`, `DeviceArray`, and the conversion of any pointer-like Python object to an address.

use crate::convert::attr::optional_attr;
use crate::convert::buffer::BufferGuard;
use crate::convert::life::Life;
use crate::convert::ndarray;
use crate::convert::number::index_check;
use pyo3::exceptions::{PyOverflowError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::GILOnceCell;
use pyo3::types::{PyDict, PyInt, PyTuple, PyType};
use pyo3::PyTypeInfo;
use std::sync::atomic::{AtomicBool, AtomicPtr, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// An address, optionally keeping alive the Python object that owns the memory.
///
/// Base class of every handle, struct and array type, as `hip._util.types.Pointer` is in
/// hip-python.
#[pyclass(subclass, frozen, module = "hipgen_runtime")]
pub struct Pointer {
    /// The address. C may write it through `createRef()`/`getPtr()`, and a handle argument
    /// C rewrites is updated in place, so it is set through shared references: frozen, the
    /// class needs no borrow flag (two atomic operations on every handle argument and field
    /// access, ~20 ns here). Relaxed: the GIL orders every access.
    addr: AtomicUsize,
    /// Object owning the memory, kept alive as long as this pointer.
    pub owner: Option<PyObject>,
    /// For a handle: whether it was destroyed through the bindings, shared with its copies
    /// (`types::life`); None until a copy is made or it is destroyed.
    life: Mutex<Option<Arc<Life>>>,
    /// Whether `life` holds a cell: read without the lock on every argument conversion.
    has_life: AtomicBool,
}

impl Pointer {
    /// A pointer to `addr`, owning nothing.
    pub fn at(addr: usize) -> Self {
        Pointer::owned(addr, None)
    }

    /// A new instance of `class` (this class or a subclass of it) holding `p`, made as the
    /// type's `__new__` makes one but without a Python call: argument parsing, `__init__`
    /// lookup and the owner object cost ~100 ns of every handle a function returns. The class
    /// must add no fields to `Pointer`'s (the registry's handle classes; a `Struct` or
    /// `DeviceArray` subclass would be left half made).
    pub(crate) fn new_instance(class: &Bound<'_, PyType>, p: Pointer) -> PyResult<PyObject> {
        use pyo3::impl_::pyclass_init::PyObjectInit;
        let py = class.py();
        // SAFETY: two live type objects (`PyType_IsSubtype`: the MRO, no `__subclasscheck__`).
        let is_pointer_class = unsafe {
            pyo3::ffi::PyType_IsSubtype(class.as_type_ptr(), Pointer::type_object_raw(py)) != 0
        };
        if !is_pointer_class {
            return Err(PyTypeError::new_err(format!(
                "{} is no Pointer class",
                class.name()?
            )));
        }
        // SAFETY: `class` is `Pointer` or a subclass of it (checked above); the initializer
        // allocates through the subclass's `tp_alloc` and fills the `Pointer` part of it.
        unsafe {
            let obj = PyClassInitializer::from(p).into_new_object(py, class.as_ptr().cast())?;
            Ok(PyObject::from_owned_ptr(py, obj))
        }
    }

    /// A pointer to `addr` keeping `owner` alive.
    pub fn owned(addr: usize, owner: Option<PyObject>) -> Self {
        Pointer::with_life(addr, owner, None)
    }

    /// A pointer to `addr` keeping `owner` alive and sharing the handle cell `life`.
    pub fn with_life(addr: usize, owner: Option<PyObject>, life: Option<Arc<Life>>) -> Self {
        Pointer {
            addr: AtomicUsize::new(addr),
            owner,
            has_life: AtomicBool::new(life.is_some()),
            life: Mutex::new(life),
        }
    }

    /// The address.
    #[inline]
    pub fn addr(&self) -> usize {
        self.addr.load(Ordering::Relaxed)
    }

    /// Sets the address (a handle C replaced).
    #[inline]
    pub fn set_addr(&self, addr: usize) {
        self.addr.store(addr, Ordering::Relaxed)
    }

    /// The address of the slot holding the address (a `void **` C may write through).
    #[inline]
    pub fn slot(&self) -> usize {
        self.addr.as_ptr() as usize
    }

    /// The function that destroyed the handle through the bindings, if one has (`types::life`):
    /// a flag read, and the lock only for a handle that has a cell (a copy, or destroyed).
    #[inline]
    pub fn destroyed_by(&self) -> Option<&'static str> {
        if !self.has_life.load(Ordering::Relaxed) {
            return None;
        }
        let life = self.life.lock().unwrap_or_else(|e| e.into_inner());
        life.as_ref().and_then(|l| l.destroyed_by())
    }

    /// The handle cell, created (and shared from then on) when there is none.
    pub fn life_cell(&self) -> Arc<Life> {
        let mut life = self.life.lock().unwrap_or_else(|e| e.into_inner());
        self.has_life.store(true, Ordering::Relaxed);
        life.get_or_insert_with(Life::new).clone()
    }

    /// The handle cell, if there is one (none is made).
    pub fn life(&self) -> Option<Arc<Life>> {
        if !self.has_life.load(Ordering::Relaxed) {
            return None;
        }
        self.life.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// Gives the pointer the handle cell `life` (a handle made inside another).
    pub fn set_life(&self, life: Arc<Life>) {
        *self.life.lock().unwrap_or_else(|e| e.into_inner()) = Some(life);
        self.has_life.store(true, Ordering::Relaxed);
    }

    /// Forgets the handle cell: the pointer now stands for another C object.
    pub fn clear_life(&self) {
        *self.life.lock().unwrap_or_else(|e| e.into_inner()) = None;
        self.has_life.store(false, Ordering::Relaxed);
    }
}

#[pymethods]
impl Pointer {
    /// Wraps any pointer-like object (None, int, buffer, ctypes object, array interface).
    #[new]
    #[pyo3(signature = (pyobj=None))]
    fn new(pyobj: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        let Some(obj) = pyobj else {
            return Ok(Pointer::at(0));
        };
        if let Ok(p) = obj.downcast::<Pointer>() {
            // A copy of a handle (`hipStream_t(s)`): it shares the handle's life, so a destroy
            // through either is seen by both.
            let p = p.get();
            let life = (p.addr() != 0).then(|| p.life_cell());
            return Ok(Pointer::with_life(
                p.addr(),
                Some(obj.clone().unbind()),
                life,
            ));
        }
        let arg = PtrArg::convert(obj, false)?;
        Ok(Pointer::owned(arg.addr, Some(obj.clone().unbind())))
    }

    /// hip-python's constructor from any pointer-like object.
    #[classmethod]
    #[pyo3(name = "fromObj")]
    fn from_obj<'py>(
        cls: &Bound<'py, PyType>,
        pyobj: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        if pyobj.is_instance(cls)? {
            return Ok(pyobj.clone());
        }
        cls.call1((pyobj,))
    }

    /// A `Pointer` to this pointer's own address slot (`void **`), as hip-python offers:
    /// a C function writing through it (`hipsparseCreateMatDescr`) sets this pointer.
    #[pyo3(name = "createRef")]
    fn create_ref(slf: &Bound<'_, Self>) -> Pointer {
        // The slot lives in the Python object, which the new pointer keeps alive; C writes a
        // plain address there while no Rust borrow of it exists.
        let slot = slf.get().slot();
        Pointer::owned(slot, Some(slf.clone().into_any().unbind()))
    }

    /// The address of the slot holding this pointer's value (cuda-python's `getPtr()` of a
    /// handle: what a `CUstream *` parameter or a kernel argument wants).
    #[pyo3(name = "getPtr")]
    fn get_ptr(&self) -> usize {
        self.slot()
    }

    /// Whether the address is 0 (a property, as in hip-python).
    #[getter]
    fn is_ptr_null(&self) -> bool {
        self.addr() == 0
    }

    /// The address.
    fn __int__(&self) -> usize {
        self.addr()
    }

    /// Marks the class for the other extensions of a package (`foreign_pointer`).
    #[classattr]
    fn __hipgen_pointer__() -> bool {
        true
    }

    /// Whether the address is not 0.
    fn __bool__(&self) -> bool {
        self.addr() != 0
    }

    /// Two pointers are equal when their addresses are.
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        if let Ok(o) = other.downcast::<Pointer>() {
            // A destroyed handle still compares by its address.
            return o.get().addr() == self.addr();
        }
        PtrArg::convert(other, false).is_ok_and(|o| o.addr == self.addr())
    }

    /// Hash of the address.
    fn __hash__(&self) -> u64 {
        self.addr() as u64
    }

    /// `<ClassName object at 0x...>` style representation.
    fn __repr__(slf: &Bound<'_, Self>) -> PyResult<String> {
        let name = slf.get_type().name()?;
        Ok(format!("<{name} object, addr=0x{:x}>", slf.get().addr()))
    }

    /// The address as `ctypes.c_void_p`.
    fn as_c_void_p<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        py.import("ctypes")?
            .getattr("c_void_p")?
            .call1((self.addr(),))
    }

    /// A new `Pointer` at this address plus `offset` bytes (never negative, as in hip-python).
    fn __getitem__(&self, py: Python<'_>, offset: &Bound<'_, PyAny>) -> PyResult<Pointer> {
        let offset: usize = offset.extract::<i128>().and_then(|o| {
            usize::try_from(o)
                .map_err(|_| PyValueError::new_err(format!("offset {o} must be non-negative")))
        })?;
        let addr = self
            .addr()
            .checked_add(offset)
            .ok_or_else(|| PyOverflowError::new_err("pointer offset overflows"))?;
        Ok(Pointer::owned(
            addr,
            self.owner.as_ref().map(|o| o.clone_ref(py)),
        ))
    }
}

/// Device memory with `__cuda_array_interface__`, as returned by `hipMalloc`.
#[pyclass(extends = Pointer, subclass, module = "hipgen_runtime")]
pub struct DeviceArray {
    /// Shape in elements.
    shape: Vec<usize>,
    /// NumPy type string of one element (`|u1` for bytes).
    typestr: String,
    /// Whether consumers may only read.
    read_only: bool,
    /// Whether the memory is the host's, which `bytes()` may read (memory a library returns,
    /// such as `LLVMGetBufferStart`'s); a device allocation is never read by the host.
    host: bool,
}

impl DeviceArray {
    /// A byte array of `size` bytes at `addr`.
    pub fn bytes(py: Python<'_>, addr: usize, size: u64) -> PyResult<PyObject> {
        Self::at(py, addr, size, false)
    }

    /// A byte array of `size` bytes of host memory at `addr`, which `bytes()` reads.
    pub fn host_bytes(py: Python<'_>, addr: usize, size: u64) -> PyResult<PyObject> {
        Self::at(py, addr, size, true)
    }

    /// A byte array at `addr`.
    fn at(py: Python<'_>, addr: usize, size: u64, host: bool) -> PyResult<PyObject> {
        let init = PyClassInitializer::from(Pointer::at(addr)).add_subclass(DeviceArray {
            shape: vec![size as usize],
            typestr: "|u1".into(),
            read_only: false,
            host,
        });
        Ok(Bound::new(py, init)?.into_any().unbind())
    }
}

/// The `__cuda_array_interface__` typestr (`<f4`) of a NumPy type name or char code
/// (`float32`, `f4`, `=f4`), as hip-python accepts them; typestrs pass unchanged.
fn normalize_typestr(name: &str) -> PyResult<String> {
    let code = match name {
        "bool" => "b1",
        "int8" | "byte" => "i1",
        "uint8" | "ubyte" => "u1",
        "int16" | "short" => "i2",
        "uint16" | "ushort" => "u2",
        "int32" | "intc" => "i4",
        "uint32" | "uintc" => "u4",
        "int64" | "long" | "longlong" => "i8",
        "uint64" | "ulong" | "ulonglong" => "u8",
        "float16" | "half" => "f2",
        "float32" | "single" => "f4",
        "float64" | "double" => "f8",
        "complex64" => "c8",
        "complex128" => "c16",
        other => other.trim_start_matches('='),
    };
    if code.starts_with(['<', '>', '|']) {
        return Ok(code.to_string());
    }
    let order = if code.ends_with('1') && !code.ends_with("c1") && code.len() == 2 {
        '|'
    } else {
        '<'
    };
    let typestr = format!("{order}{code}");
    typestr_itemsize(&typestr)?;
    Ok(typestr)
}

/// Size in bytes of one element of a NumPy type string such as `<f4`.
fn typestr_itemsize(typestr: &str) -> PyResult<usize> {
    typestr
        .get(2..)
        .and_then(|n| n.parse::<usize>().ok())
        .filter(|n| *n > 0)
        .ok_or_else(|| PyValueError::new_err(format!("invalid typestr {typestr:?}")))
}

#[pymethods]
impl DeviceArray {
    /// Wraps an object with `__cuda_array_interface__`, or any pointer-like object.
    #[new]
    #[pyo3(signature = (pyobj=None))]
    fn new(pyobj: Option<&Bound<'_, PyAny>>) -> PyResult<PyClassInitializer<Self>> {
        let mut shape = vec![0];
        let mut typestr = "|u1".to_string();
        if let Some(obj) = pyobj {
            if let Some(cai) = obj.getattr_opt("__cuda_array_interface__")? {
                shape = cai.get_item("shape")?.extract()?;
                typestr = cai.get_item("typestr")?.extract()?;
            }
        }
        Ok(
            PyClassInitializer::from(Pointer::new(pyobj)?).add_subclass(DeviceArray {
                shape,
                typestr,
                read_only: false,
                host: false,
            }),
        )
    }

    /// The CUDA array interface (version 3) of the memory.
    #[getter]
    fn __cuda_array_interface__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyDict>> {
        let py = slf.py();
        let me = slf.borrow();
        let addr = me.as_super().addr();
        let d = PyDict::new(py);
        d.set_item("shape", PyTuple::new(py, &me.shape)?)?;
        d.set_item("typestr", &me.typestr)?;
        d.set_item("data", (addr, me.read_only))?;
        d.set_item("strides", py.None())?;
        d.set_item("version", 3)?;
        Ok(d)
    }

    /// Shape in elements.
    #[getter]
    fn shape<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, &self.shape)
    }

    /// NumPy type string of one element.
    #[getter]
    fn typestr(&self) -> &str {
        &self.typestr
    }

    /// Size of one element in bytes.
    #[getter]
    fn itemsize(&self) -> PyResult<usize> {
        typestr_itemsize(&self.typestr)
    }

    /// Number of elements.
    #[getter]
    fn size(&self) -> usize {
        self.shape.iter().product()
    }

    /// Number of dimensions.
    #[getter]
    fn rank(&self) -> usize {
        self.shape.len()
    }

    /// Whether consumers may only read.
    #[getter]
    fn is_read_only(&self) -> bool {
        self.read_only
    }

    /// A contiguous sub-array, as hip-python's `DeviceArray` gives one: `a[i]`, `a[i, :]`,
    /// `a[1:3]`. Integer subscripts keep their axis with extent 1; a subscript whose result
    /// would not be contiguous is a `ValueError`.
    fn __getitem__<'py>(
        slf: &Bound<'py, Self>,
        subscript: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let py = slf.py();
        let (shape, typestr, read_only, host) = {
            let me = slf.borrow();
            (me.shape.clone(), me.typestr.clone(), me.read_only, me.host)
        };
        let itemsize = typestr_itemsize(&typestr)?;
        let subs = subscripts(subscript, shape.len())?;
        let (mut offset, mut stride) = (0usize, 1usize);
        let mut result = vec![0usize; shape.len()];
        // Inner axes first: once one is cut short, every outer axis must be a single index.
        let mut contiguous_so_far = true;
        for axis in (0..shape.len()).rev() {
            let dim = shape[axis];
            let (start, stop) = axis_range(subscript, &subs[axis], dim, &mut contiguous_so_far)?;
            result[axis] = stop - start;
            offset += start * stride;
            stride *= dim;
        }
        let addr = slf.as_super().get().addr() + offset * itemsize;
        let init =
            PyClassInitializer::from(Pointer::owned(addr, Some(slf.clone().into_any().unbind())))
                .add_subclass(DeviceArray {
                    shape: result,
                    typestr,
                    read_only,
                    host,
                });
        Ok(Bound::new(py, init)?.into_any())
    }

    /// The bytes of host memory the array covers (rocm-llvm-python's
    /// `bytes(LLVMGetBufferStart(buf).configure(_force=True, shape=(n,)))`). Device memory
    /// is refused: the host cannot read it (copy it with hipMemcpy first).
    fn __bytes__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, pyo3::types::PyBytes>> {
        let me = slf.borrow();
        if !me.host {
            return Err(PyTypeError::new_err(
                "bytes() of device memory: copy it to the host with hipMemcpy first",
            ));
        }
        let len = me
            .shape
            .iter()
            .try_fold(typestr_itemsize(&me.typestr)?, |n, &d| n.checked_mul(d))
            .filter(|&n| n <= isize::MAX as usize)
            .ok_or_else(|| {
                PyValueError::new_err("the array's shape covers more bytes than memory has")
            })?;
        let addr = slf.as_super().get().addr();
        if addr == 0 && len > 0 {
            return Err(PyValueError::new_err("bytes() of a NULL pointer"));
        }
        let data: &[u8] = if len == 0 {
            &[]
        } else {
            // SAFETY: host memory the library returned, `len` bytes long as the caller
            // configured it (AMD's NDBuffer trusts the same shape).
            unsafe { std::slice::from_raw_parts(addr as *const u8, len) }
        };
        Ok(pyo3::types::PyBytes::new(slf.py(), data))
    }

    /// Changes the shape and element type, keeping the address; returns self.
    ///
    /// Without `_force`, the new view may not cover more bytes than the old one.
    #[pyo3(signature = (**kwargs))]
    fn configure<'py>(
        slf: &Bound<'py, Self>,
        kwargs: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Bound<'py, Self>> {
        let mut me = slf.borrow_mut();
        let old_bytes = me.shape.iter().product::<usize>() * typestr_itemsize(&me.typestr)?;
        let mut shape = me.shape.clone();
        let mut typestr = me.typestr.clone();
        let mut force = false;
        if let Some(kw) = kwargs {
            for (k, v) in kw.iter() {
                match k.extract::<String>()?.as_str() {
                    "shape" => {
                        shape = match v.extract::<usize>() {
                            Ok(n) => vec![n],
                            Err(_) => v.extract()?,
                        }
                    }
                    "typestr" => typestr = normalize_typestr(&v.extract::<String>()?)?,
                    "read_only" => me.read_only = v.extract()?,
                    "_force" => force = v.extract()?,
                    other => {
                        return Err(PyTypeError::new_err(format!(
                            "configure() got an unexpected keyword argument '{other}'"
                        )))
                    }
                }
            }
        }
        let new_bytes = shape.iter().product::<usize>() * typestr_itemsize(&typestr)?;
        if !force && new_bytes > old_bytes {
            return Err(PyValueError::new_err(format!(
                "new shape and typestr cover {new_bytes} bytes, more than the {old_bytes} bytes \
                 of the array"
            )));
        }
        me.shape = shape;
        me.typestr = typestr;
        drop(me);
        Ok(slf.clone())
    }
}

/// A pointer argument converted from Python, keeping a buffer export alive for the call.
pub struct PtrArg {
    /// The address passed to C.
    pub addr: usize,
    /// The length in bytes of a NumPy array read without an export (see `ndarray`).
    len: Option<usize>,
    /// Keeps an exported buffer alive until the call returns.
    _guard: Option<BufferGuard>,
}

/// `ctypes` classes needed to read addresses out of `ctypes` objects (and, for kernel
/// arguments, to tell and make its values).
pub(crate) struct CtypesClasses {
    /// `ctypes._SimpleCData`.
    pub(crate) simple: Py<PyType>,
    /// `ctypes.Structure`.
    pub(crate) structure: Py<PyType>,
    /// `ctypes.Union`.
    pub(crate) union: Py<PyType>,
    /// `ctypes.addressof`.
    pub(crate) addressof: PyObject,
    /// `ctypes._Pointer`.
    pointer: Py<PyType>,
    /// `ctypes._CFuncPtr`.
    funcptr: Py<PyType>,
    /// `ctypes.c_void_p`, to read pointer values with `ctypes.cast`.
    c_void_p: PyObject,
    /// `ctypes.cast`.
    cast: PyObject,
    /// The class of `ctypes.byref(...)` results (`CArgObject`, not exported by name).
    carg: Py<PyType>,
}

/// Lazily imported `ctypes` classes.
static CTYPES: GILOnceCell<CtypesClasses> = GILOnceCell::new();

/// `numbers.Integral`: integer scalars such as `numpy.int64` are addresses, not buffers.
static INTEGRAL: GILOnceCell<PyObject> = GILOnceCell::new();

/// The `ctypes` classes, importing `ctypes` on first use.
pub(crate) fn ctypes_classes(py: Python<'_>) -> PyResult<&CtypesClasses> {
    CTYPES.get_or_try_init(py, || {
        let m = py.import("ctypes")?;
        let ty = |n: &str| -> PyResult<Py<PyType>> {
            Ok(m.getattr(n)?.downcast_into::<PyType>()?.unbind())
        };
        Ok(CtypesClasses {
            simple: ty("_SimpleCData")?,
            structure: ty("Structure")?,
            union: ty("Union")?,
            addressof: m.getattr("addressof")?.unbind(),
            pointer: ty("_Pointer")?,
            funcptr: ty("_CFuncPtr")?,
            c_void_p: m.getattr("c_void_p")?.unbind(),
            cast: m.getattr("cast")?.unbind(),
            carg: m
                .getattr("byref")?
                .call1((m.getattr("c_int")?.call0()?,))?
                .get_type()
                .unbind(),
        })
    })
}

/// `Pointer`'s type object, kept after first use: PyO3's `downcast` finds it through its lazy
/// type object on each check (~40 instructions), and every handle argument, struct field
/// access and `Pointer` argument checks it.
static POINTER_TYPE: AtomicPtr<pyo3::ffi::PyTypeObject> = AtomicPtr::new(std::ptr::null_mut());

/// `obj` as a `Pointer` (the base of every handle, struct and array class), or None.
#[inline]
pub fn as_pointer<'a, 'py>(obj: &'a Bound<'py, PyAny>) -> Option<&'a Bound<'py, Pointer>> {
    let mut ty = POINTER_TYPE.load(Ordering::Relaxed);
    if ty.is_null() {
        // Made once and kept for the life of the process, as PyO3 keeps it.
        ty = Pointer::type_object_raw(obj.py());
        POINTER_TYPE.store(ty, Ordering::Relaxed);
    }
    let t = obj.get_type_ptr();
    // SAFETY: two live type objects.
    if t == ty || unsafe { pyo3::ffi::PyType_IsSubtype(t, ty) } != 0 {
        // SAFETY: `obj` is an instance of `Pointer` or of a subclass.
        Some(unsafe { obj.downcast_unchecked::<Pointer>() })
    } else {
        None
    }
}

/// Whether `obj` is exactly a `Pointer` (not a handle, struct or array subclass). Asked after
/// [`as_pointer`] found one, which keeps `Pointer`'s type object.
#[inline]
pub(crate) fn is_exact_pointer(obj: &Bound<'_, PyAny>) -> bool {
    obj.get_type_ptr() == POINTER_TYPE.load(Ordering::Relaxed)
}

/// Reads an address from a non-negative Python int.
fn int_to_addr(obj: &Bound<'_, PyAny>) -> PyResult<usize> {
    obj.extract::<usize>().map_err(|e| {
        if obj.extract::<i64>().is_ok_and(|v| v < 0) {
            PyOverflowError::new_err("a pointer address cannot be negative")
        } else {
            e
        }
    })
}

impl PtrArg {
    /// Memory the caller holds for the call (a cell a generated adapter made).
    pub fn at(addr: usize) -> PtrArg {
        PtrArg {
            addr,
            len: None,
            _guard: None,
        }
    }

    /// Converts `obj`; `writable` asks exported buffers to be writable.
    ///
    /// The common cases come first and cost a type check each: our `Pointer`s, None, ints,
    /// then buffers (NumPy, bytearray). ctypes objects are buffers too but may mean their
    /// value (`c_void_p`), so they are told apart by their metatype before exporting.
    pub fn convert(obj: &Bound<'_, PyAny>, writable: bool) -> PyResult<PtrArg> {
        match PtrArg::try_convert(obj, writable)? {
            Some(arg) => Ok(arg),
            None => Err(not_pointer_like(obj, None)),
        }
    }

    /// `convert`, with None where `obj` is nothing pointer-like (no error built: a failing
    /// argument builds its message once, naming the argument).
    pub fn try_convert(obj: &Bound<'_, PyAny>, writable: bool) -> PyResult<Option<PtrArg>> {
        PtrArg::try_convert_as(obj, writable, writable)
    }

    /// `try_convert`, telling apart a pointer C may write through (`may_write`: a
    /// `createRef()` owner then stands for what C writes) from one whose buffers must be
    /// writable (`need_writable`: read-only buffers refused).
    pub(crate) fn try_convert_as(
        obj: &Bound<'_, PyAny>,
        may_write: bool,
        need_writable: bool,
    ) -> PyResult<Option<PtrArg>> {
        let writable = need_writable;
        let plain = |addr| {
            Ok(Some(PtrArg {
                addr,
                len: None,
                _guard: None,
            }))
        };
        if obj.is_instance_of::<PyInt>() {
            return plain(int_address(obj)?);
        }
        if let Some((addr, len)) = ndarray::address_and_len(obj, writable) {
            return Ok(Some(PtrArg {
                addr,
                len,
                _guard: None,
            }));
        }
        if let Some(p) = as_pointer(obj) {
            let p = p.get();
            check_alive(obj, p)?;
            if may_write && p.owner.is_some() {
                may_be_rewritten(obj, p);
            }
            return plain(p.addr());
        }
        if obj.is_none() {
            return plain(0);
        }
        let ctypes = is_ctypes(obj);
        if ctypes {
            if let Some(addr) = ctypes_value(obj)? {
                return plain(addr);
            }
        }
        if let Some(guard) = BufferGuard::try_new(obj, writable)? {
            return buffer_arg(obj, guard, ctypes);
        }
        match other_address(obj)? {
            Some(addr) => plain(addr),
            None => Ok(None),
        }
    }
}

/// The address an int (or int subclass) `obj` gives (`PtrArg::try_convert_as`).
fn int_address(obj: &Bound<'_, PyAny>) -> PyResult<usize> {
    // An address given as an int (`ctypes.addressof(params)`) or an int subclass (CUDA's
    // `CUdeviceptr`, an enum member): one call into the interpreter where it fits; negative
    // or too large takes `int_to_addr`'s messages.
    // SAFETY: an int; a failure is an OverflowError, cleared below.
    let v = unsafe { pyo3::ffi::PyLong_AsUnsignedLongLong(obj.as_ptr()) };
    if v != u64::MAX {
        return Ok(v as usize);
    }
    // SAFETY: clears the OverflowError (if any) that is about to be raised again.
    unsafe { pyo3::ffi::PyErr_Clear() };
    int_to_addr(obj)
}

/// The argument of `obj`, a buffer exported as `guard` (`ctypes`: a ctypes object), which it
/// keeps exported (`PtrArg::try_convert_as`).
fn buffer_arg(
    obj: &Bound<'_, PyAny>,
    guard: BufferGuard,
    ctypes: bool,
) -> PyResult<Option<PtrArg>> {
    // NumPy integer scalars export a few bytes but stand for their value (a small ctypes
    // array or struct is memory: not asked, as the ABC check costs ~100 ns).
    if guard.byte_len() <= 8 && !ctypes && is_integral(obj)? {
        return Ok(Some(PtrArg {
            addr: int_to_addr(obj)?,
            len: None,
            _guard: None,
        }));
    }
    ndarray::learn(obj, &guard);
    Ok(Some(PtrArg {
        addr: guard.addr(),
        len: None,
        _guard: Some(guard),
    }))
}

/// The address of an object that is no int, `Pointer`, ctypes value or buffer: its array
/// interface's, its `__index__` value, a foreign `Pointer`'s or a `byref()`'s; None where it
/// has none (`PtrArg::try_convert_as`).
fn other_address(obj: &Bound<'_, PyAny>) -> PyResult<Option<usize>> {
    let py = obj.py();
    // Looked up without raising: a failing conversion must not pay for AttributeErrors.
    let cai = optional_attr(obj, pyo3::intern!(py, "__cuda_array_interface__"))?;
    if let Some(cai) = cai {
        return Ok(Some(interface_address(obj, &cai)?));
    }
    if let Some(ai) = optional_attr(obj, pyo3::intern!(py, "__array_interface__"))? {
        return Ok(Some(interface_address(obj, &ai)?));
    }
    // SAFETY: a type-slot check on a live object.
    if unsafe { index_check(obj.as_ptr()) } != 0 {
        // Integers of other kinds (`__index__`): the value.
        return Ok(Some(int_to_addr(obj)?));
    }
    if let Some(addr) = foreign_pointer(obj)? {
        return Ok(Some(addr));
    }
    byref_address(obj)
}

/// The subscripts of each of `rank` axes (`DeviceArray.__getitem__`): a tuple's items, else
/// the one subscript, then whole slices.
fn subscripts<'py>(subscript: &Bound<'py, PyAny>, rank: usize) -> PyResult<Vec<Bound<'py, PyAny>>> {
    let py = subscript.py();
    let mut subs: Vec<Bound<'py, PyAny>> = if let Ok(t) = subscript.downcast::<PyTuple>() {
        t.iter().collect()
    } else {
        vec![subscript.clone()]
    };
    if subs.len() > rank {
        return Err(pyo3::exceptions::PyIndexError::new_err(format!(
            "too many indices: the array has {} dimensions",
            rank
        )));
    }
    let full = pyo3::types::PySlice::full(py).into_any();
    subs.resize(rank, full);
    Ok(subs)
}

/// The range `(start, stop)` that `sub` (an axis's part of `subscript`) takes of an axis of
/// extent `dim`. `contiguous_so_far` says whether the axes inside it are whole; a slice after
/// one that is not is a `ValueError`.
fn axis_range(
    subscript: &Bound<'_, PyAny>,
    sub: &Bound<'_, PyAny>,
    dim: usize,
    contiguous_so_far: &mut bool,
) -> PyResult<(usize, usize)> {
    if let Ok(slice) = sub.downcast::<pyo3::types::PySlice>() {
        if !*contiguous_so_far {
            return Err(PyValueError::new_err(format!(
                "subscript {} yields no contiguous sub-array",
                subscript.repr()?
            )));
        }
        let ix = slice.indices(dim as isize)?;
        if ix.step != 1 {
            return Err(PyValueError::new_err("a slice's step must be 1"));
        }
        if ix.start >= ix.stop {
            return Err(PyValueError::new_err(format!(
                "slice {} of an axis of extent {dim} is empty",
                sub.repr()?
            )));
        }
        let (start, stop) = (ix.start as usize, ix.stop as usize);
        *contiguous_so_far = start == 0 && stop == dim;
        Ok((start, stop))
    } else if sub.is_instance_of::<PyInt>() || sub.hasattr("__index__")? {
        let i: i64 = sub.extract()?;
        let i = if i < 0 { i + dim as i64 } else { i };
        if i < 0 || i >= dim as i64 {
            return Err(PyValueError::new_err(format!(
                "index {} is out of range for an axis of extent {dim}",
                sub.repr()?
            )));
        }
        *contiguous_so_far = false;
        Ok((i as usize, i as usize + 1))
    } else {
        Err(PyTypeError::new_err(format!(
            "subscripts are ints, slices or tuples of them, got {}",
            sub.get_type().name()?
        )))
    }
}

/// The address of a `Pointer` of another extension's runtime: a package that loads several
/// (rocm-llvm-python, one per LLVM and comgr version) hands its `Pointer` class to all of them.
/// Only the class itself counts (its type's own `__hipgen_pointer__`): a handle or struct of
/// another extension is no address here.
fn foreign_pointer(obj: &Bound<'_, PyAny>) -> PyResult<Option<usize>> {
    let py = obj.py();
    let own = obj
        .get_type()
        .getattr(pyo3::intern!(py, "__dict__"))?
        .contains(pyo3::intern!(py, "__hipgen_pointer__"))?;
    if !own {
        return Ok(None);
    }
    int_to_addr(&obj.call_method0(pyo3::intern!(py, "__int__"))?).map(Some)
}

/// The start of the memory an array interface (`__cuda_array_interface__` or
/// `__array_interface__`) describes, which must be one piece: C reads it as such, so strides
/// that leave gaps or reorder it (`a[:, ::2]`, `a.T` of a C array) are refused as a
/// non-contiguous buffer is.
fn interface_address(obj: &Bound<'_, PyAny>, interface: &Bound<'_, PyAny>) -> PyResult<usize> {
    let addr = int_to_addr(&interface.get_item("data")?.get_item(0)?)?;
    let strides = interface.get_item("strides").ok().filter(|s| !s.is_none());
    if let Some(strides) = strides {
        let shape: Vec<i128> = interface.get_item("shape")?.extract()?;
        let strides: Vec<i128> = strides.extract()?;
        let typestr: String = interface.get_item("typestr")?.extract()?;
        let itemsize = typestr_itemsize(&typestr)? as i128;
        if !one_piece(&shape, &strides, itemsize) {
            let class = obj.get_type().name()?;
            return Err(PyValueError::new_err(format!(
                "{class} is not contiguous (strides {strides:?} for shape {shape:?}): C reads \
                 one piece of memory"
            )));
        }
    }
    Ok(addr)
}

/// Whether `strides` lay out `shape` as one C- or Fortran-ordered piece of `itemsize`
/// elements (dimensions of length 1 may have any stride; an empty array is one piece).
fn one_piece(shape: &[i128], strides: &[i128], itemsize: i128) -> bool {
    if shape.len() != strides.len() {
        return false;
    }
    if shape.contains(&0) {
        return true;
    }
    let ordered = |dims: &mut dyn Iterator<Item = (&i128, &i128)>| {
        let mut expected = itemsize;
        for (&n, &s) in dims {
            if n != 1 && s != expected {
                return false;
            }
            expected *= n;
        }
        true
    };
    ordered(&mut shape.iter().zip(strides).rev()) || ordered(&mut shape.iter().zip(strides))
}

/// The TypeError for an object that is nothing pointer-like; `name` is the argument's.
pub fn not_pointer_like(obj: &Bound<'_, PyAny>, name: Option<&str>) -> PyErr {
    let class = obj
        .get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_default();
    let prefix = name
        .map(|n| format!("argument '{n}': "))
        .unwrap_or_default();
    PyTypeError::new_err(format!(
        "{prefix}expected a pointer-like object (None, int, hip._util.types.Pointer, a buffer, \
         a ctypes object, or an object with __cuda_array_interface__ or __array_interface__), \
         got {class}"
    ))
}

/// Whether `obj` is a ctypes object: its class's metatype is one of ctypes' own, not `type`.
pub(crate) fn is_ctypes(obj: &Bound<'_, PyAny>) -> bool {
    !obj.get_type().get_type().is(obj.py().get_type::<PyType>())
}

/// The value of an object that may stand for a handle without being one of ours: an int of
/// another kind (`CUdeviceptr`, `numpy.uint64`, anything with `__index__`), a ctypes object or
/// `ctypes.byref`. None for anything else, buffers and array interfaces included, without
/// probing those (a refused handle argument pays no attribute lookups).
pub(crate) fn handle_value(obj: &Bound<'_, PyAny>) -> PyResult<Option<usize>> {
    if obj.is_instance_of::<PyInt>() {
        return int_to_addr(obj).map(Some);
    }
    if is_ctypes(obj) {
        // A ctypes pointer's value; other ctypes objects as any pointer argument takes them.
        return Ok(PtrArg::try_convert(obj, false)?.map(|p| p.addr));
    }
    if crate::convert::buffer::has_buffer(obj) {
        // NumPy's integer scalars stand for their value; arrays (which have `__index__` too)
        // and other buffers are memory.
        return Ok(if is_integral(obj)? {
            Some(int_to_addr(obj)?)
        } else {
            None
        });
    }
    // SAFETY: a type-slot check on a live object.
    if unsafe { index_check(obj.as_ptr()) } != 0 {
        return int_to_addr(obj).map(Some);
    }
    if let Some(addr) = foreign_pointer(obj)? {
        return Ok(Some(addr));
    }
    byref_address(obj)
}

/// Whether `obj` is memory the caller holds: a buffer (not a ctypes object, whose buffer is a
/// pointer's or a number's bytes, and not an int-like scalar such as `numpy.uint64`) or an
/// object describing memory through an array interface. Such bytes are never a handle or a
/// string the library made, so parameters of those kinds refuse them.
pub fn holds_memory(obj: &Bound<'_, PyAny>) -> PyResult<bool> {
    if crate::convert::buffer::has_buffer(obj) {
        return Ok(!is_ctypes(obj) && !crate::convert::number::is_int_like(obj));
    }
    crate::convert::attr::has_array_interface(obj)
}

/// The address a `ctypes.byref(obj[, offset])` argument stands for. CPython exposes it only
/// through the object's repr, `<cparam 'P' (0x7f...)>`, which includes the offset.
fn byref_address(obj: &Bound<'_, PyAny>) -> PyResult<Option<usize>> {
    if !obj
        .get_type()
        .is(ctypes_classes(obj.py())?.carg.bind(obj.py()))
    {
        return Ok(None);
    }
    let repr = obj.repr()?.to_string();
    let hex = repr
        .strip_prefix("<cparam 'P' (0x")
        .and_then(|r| r.strip_suffix(")>"));
    match hex.map(|h| usize::from_str_radix(h, 16)) {
        Some(Ok(addr)) => Ok(Some(addr)),
        _ => Err(PyTypeError::new_err(format!(
            "cannot read the address of {repr}: pass ctypes.pointer(obj) or ctypes.addressof(obj)"
        ))),
    }
}

/// The pointer value a ctypes object stands for, when it is one (`c_void_p`, `c_char_p`,
/// `POINTER(T)` instances, function pointers); None for ctypes values passed by address.
pub(crate) fn ctypes_value(obj: &Bound<'_, PyAny>) -> PyResult<Option<usize>> {
    let py = obj.py();
    let ct = ctypes_classes(py)?;
    // Subtype checks in C: `isinstance` with a ctypes class looks up `__instancecheck__` on
    // its metaclass and makes a bound method of it (~60 ns each).
    use crate::convert::attr::is_subtype;
    if is_subtype(obj, ct.pointer.bind(py)) || is_subtype(obj, ct.funcptr.bind(py)) {
        let v = ct.cast.bind(py).call1((obj, ct.c_void_p.bind(py)))?;
        let v = v.getattr("value")?;
        return Ok(Some(if v.is_none() { 0 } else { int_to_addr(&v)? }));
    }
    if is_subtype(obj, ct.simple.bind(py)) {
        let code: String = obj.getattr("_type_")?.extract()?;
        if matches!(code.as_str(), "P" | "z" | "Z") {
            // c_void_p, c_char_p, c_wchar_p: the address they hold, not where they are.
            let v = ct.cast.bind(py).call1((obj, ct.c_void_p.bind(py)))?;
            let v = v.getattr("value")?;
            return Ok(Some(if v.is_none() { 0 } else { int_to_addr(&v)? }));
        }
    }
    Ok(None)
}

/// A `void *` argument through which C reads a value of up to 64 bits: an integer
/// (`numbers.Integral`, so NumPy's too) is copied into `cell` (its bits, of either sign) and
/// passed as the cell's address; an integer over memory the caller holds (`IntView`) as its
/// address; anything else as a pointer argument.
pub fn value_or_pointer(
    obj: &Bound<'_, PyAny>,
    cell: &mut u64,
    writable: bool,
    name: &str,
) -> PyResult<PtrArg> {
    if obj.is_instance_of::<crate::convert::int_view::IntView>() {
        let addr = obj.call_method0(pyo3::intern!(obj.py(), "getPtr"))?;
        return Ok(PtrArg::at(int_to_addr(&addr)?));
    }
    if obj.is_instance_of::<PyInt>() || (!is_ctypes(obj) && is_integral(obj)?) {
        let v: i128 = obj
            .call_method0(pyo3::intern!(obj.py(), "__index__"))?
            .extract()?;
        if !(-(1i128 << 63)..(1i128 << 64)).contains(&v) {
            return Err(PyOverflowError::new_err(format!(
                "argument '{name}' (an attribute value): {v} does not fit in 64 bits"
            )));
        }
        *cell = v as u64;
        return Ok(PtrArg::at(cell as *mut u64 as usize));
    }
    PtrArg::convert(obj, writable)
}

/// Whether `obj` is an integer (`numbers.Integral`, which NumPy's integer scalars are).
fn is_integral(obj: &Bound<'_, PyAny>) -> PyResult<bool> {
    let py = obj.py();
    let integral = INTEGRAL.get_or_try_init(py, || {
        PyResult::Ok(py.import("numbers")?.getattr("Integral")?.unbind())
    })?;
    obj.is_instance(integral.bind(py))
}

impl<'py> FromPyObject<'py> for PtrArg {
    fn extract_bound(obj: &Bound<'py, PyAny>) -> PyResult<Self> {
        PtrArg::convert(obj, false)
    }
}

/// A pointer argument the C function may write through (a non-const `void *`): read-only
/// buffers are taken, as hip-python takes them (`hiprtcGetBitcode(prog, bytes(n))`).
pub struct PtrArgMut(pub PtrArg);

impl<'py> FromPyObject<'py> for PtrArgMut {
    fn extract_bound(obj: &Bound<'py, PyAny>) -> PyResult<Self> {
        match PtrArg::try_convert_as(obj, true, false)? {
            Some(arg) => Ok(PtrArgMut(arg)),
            None => Err(not_pointer_like(obj, None)),
        }
    }
}

impl PtrArgMut {
    /// The address passed to C.
    #[inline]
    pub fn addr(&self) -> usize {
        self.0.addr
    }

    /// The length of the exported buffer, when the argument is one.
    pub fn buffer_len(&self) -> Option<usize> {
        self.0.buffer_len()
    }
}

/// A pointer argument the spec says C writes through (`written`: hipMemcpy's `dst`):
/// exported buffers must be writable, a `bytes` is a TypeError.
pub struct PtrArgWritten(pub PtrArg);

impl<'py> FromPyObject<'py> for PtrArgWritten {
    fn extract_bound(obj: &Bound<'py, PyAny>) -> PyResult<Self> {
        PtrArg::convert(obj, true).map(PtrArgWritten)
    }
}

impl PtrArgWritten {
    /// The address passed to C.
    #[inline]
    pub fn addr(&self) -> usize {
        self.0.addr
    }

    /// The length of the exported buffer, when the argument is one.
    pub fn buffer_len(&self) -> Option<usize> {
        self.0.buffer_len()
    }
}

impl PtrArg {
    /// The address passed to C.
    #[inline]
    pub fn addr(&self) -> usize {
        self.addr
    }

    /// The length of the exported buffer, when the argument is one.
    pub fn buffer_len(&self) -> Option<usize> {
        self._guard.as_ref().map(BufferGuard::byte_len).or(self.len)
    }
}

/// Refuses a handle object whose C object was destroyed through the bindings.
#[inline]
pub fn check_alive(obj: &Bound<'_, PyAny>, p: &Pointer) -> PyResult<()> {
    match p.destroyed_by() {
        None => Ok(()),
        Some(by) => Err(destroyed_error(obj, p.addr(), by)),
    }
}

/// The error for a use of a destroyed handle (built only on that path).
fn destroyed_error(obj: &Bound<'_, PyAny>, addr: usize, by: &str) -> PyErr {
    let class = obj
        .get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "handle".into());
    PyValueError::new_err(format!(
        "this {class} (0x{addr:x}) was destroyed by {by} (it, or the handle it lives in): C \
         would be given a dangling handle"
    ))
}

/// Whether `p` was made by `createRef()`: its owner is a `Pointer` whose value slot it points
/// at. Returns that owner.
pub fn ref_owner<'py>(obj: &Bound<'py, PyAny>, p: &Pointer) -> Option<Bound<'py, Pointer>> {
    let owner = p
        .owner
        .as_ref()?
        .bind(obj.py())
        .downcast::<Pointer>()
        .ok()?;
    (owner.get().slot() == p.addr()).then(|| owner.clone())
}

/// Before a call that may write a new handle through a `createRef()` pointer: its owner
/// stands for whatever C writes, no longer for the handle it held (a destroyed one is
/// re-created in a loop at the same object).
pub fn may_be_rewritten(obj: &Bound<'_, PyAny>, p: &Pointer) {
    if p.owner.is_none() {
        return;
    }
    if let Some(owner) = ref_owner(obj, p) {
        owner.get().clear_life();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numpy_names_and_codes_become_typestrs() {
        assert_eq!(normalize_typestr("float32").unwrap(), "<f4");
        assert_eq!(normalize_typestr("=f8").unwrap(), "<f8");
        assert_eq!(normalize_typestr("uint8").unwrap(), "|u1");
        assert_eq!(normalize_typestr("complex128").unwrap(), "<c16");
        assert_eq!(normalize_typestr(">i2").unwrap(), ">i2");
        assert!(normalize_typestr("float").is_err());
    }

    #[test]
    fn only_one_piece_strides_are_contiguous() {
        assert!(one_piece(&[4, 4], &[32, 8], 8)); // C order
        assert!(one_piece(&[4, 4], &[8, 32], 8)); // Fortran order
        assert!(one_piece(&[4, 1], &[8, 999], 8)); // a dimension of 1
        assert!(one_piece(&[0, 4], &[7, 7], 8)); // empty
        assert!(!one_piece(&[4, 2], &[32, 16], 8)); // a[:, ::2]
        assert!(!one_piece(&[4], &[-8], 8)); // reversed
        assert!(!one_piece(&[4, 4], &[32], 8));
    }

    #[test]
    fn the_itemsize_is_the_typestrs_byte_count() {
        assert_eq!(typestr_itemsize("<f4").unwrap(), 4);
        assert_eq!(typestr_itemsize("<c16").unwrap(), 16);
        assert!(typestr_itemsize("<f0").is_err() && typestr_itemsize("<f").is_err());
    }
}

/// A copy of `size` bytes of host memory at `address` (an int or a `Pointer`) that a C call
/// handed back as an address and a size: a linker's output (`hiprtcLinkComplete`), which lives
/// only as long as the linker. A null address with a size is a `ValueError`.
#[pyfunction]
pub fn host_bytes<'py>(
    py: Python<'py>,
    address: &Bound<'py, PyAny>,
    size: usize,
) -> PyResult<Bound<'py, pyo3::types::PyBytes>> {
    let addr = PtrArg::convert(address, false)?.addr();
    if addr == 0 && size > 0 {
        return Err(PyValueError::new_err(format!(
            "host_bytes: a null address cannot hold {size} bytes"
        )));
    }
    if size == 0 {
        return Ok(pyo3::types::PyBytes::new(py, &[]));
    }
    // SAFETY: the caller hands over an address and size a C library returned together.
    let data = unsafe { std::slice::from_raw_parts(addr as *const u8, size) };
    Ok(pyo3::types::PyBytes::new(py, data))
}
