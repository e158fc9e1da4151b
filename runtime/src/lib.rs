//! Hand-written runtime shared by every module that hipgen generates. Four rooms, each
//! depending only on those before it:
//! - `tables`: the static data generated code fills (libraries, types, alias tables);
//! - `load`: finding and opening libraries, resolving symbols, choosing the platform;
//! - `convert`: Python arguments to C values and C results to Python objects;
//! - `types`: the lazily created enum, struct and handle classes of each module.
//!
//! Generated code stays thin; the logic lives here.

pub mod convert;
pub mod load;
pub mod per_thread;
pub mod tables;
pub mod types;

// The paths generated code and the packages use.
pub use convert::arrays;
pub use convert::call;
pub use convert::cstr::{cstr_class, cstr_result, freed_string_arg, owned_cstr_result};
pub use convert::extra::KernelExtra;
pub use convert::int_view::IntView;
pub use convert::kernel_args::{register_buffer_class, KernelArgs};
pub use convert::kernel_params;
pub use convert::kernel_params::KernelParams;
pub use convert::number::{CIndex, CInt};
pub use convert::pointer::{
    value_or_pointer, DeviceArray, Pointer, PtrArg, PtrArgMut, PtrArgWritten,
};
pub use convert::shared_tuple::{shared_tuple, Item};
pub use convert::sizes::{check_count, check_size, size_at};
pub use convert::strings::{CStrArg, CStrArrayArg};
pub use load::{platform, platform_reason, HipLoadError, Library, Platform, Symbol};
pub use tables::{
    aliases, CudaLibrary, EnumDef, FieldDef, FieldKind, HandleDef, LibrarySpec, NvidiaSpec,
    ParallelFrom, RecordDef, TypeDef, VersionCheck,
};
pub use types::life;
pub use types::named::{NamedTypes, TypeTable};
pub use types::record::{clear_kept, Struct};
pub use types::reexport;
pub use types::registry::{TypeRegistry, TypeSlot};
pub use types::typed_ptr::{handle_arg, typed_ptr_arg, HandleRef};

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple, PyType};
use pyo3::BoundObject;

/// A result tuple from already converted items.
///
/// Filled by hand: `PyTuple::new` walks a general iterator and checks its length, about a
/// third of the tuple's cost on a two-item result.
#[inline]
pub fn tuple<const N: usize>(py: Python<'_>, items: [PyObject; N]) -> PyResult<PyObject> {
    // SAFETY: a new tuple of N slots, each filled once with a reference it takes over.
    unsafe {
        let t = pyo3::ffi::PyTuple_New(N as pyo3::ffi::Py_ssize_t);
        if t.is_null() {
            return Err(PyErr::fetch(py));
        }
        let items = std::mem::ManuallyDrop::new(items);
        for (i, item) in items.iter().enumerate() {
            pyo3::ffi::PyTuple_SetItem(t, i as pyo3::ffi::Py_ssize_t, item.as_ptr());
        }
        Ok(PyObject::from_owned_ptr(py, t))
    }
}

/// Converts any value with a Python conversion into an object.
#[inline]
pub fn obj<'py, T: IntoPyObject<'py>>(py: Python<'py>, v: T) -> PyResult<PyObject>
where
    PyErr: From<T::Error>,
{
    Ok(v.into_pyobject(py)?.into_any().unbind())
}

/// A new `Pointer` at `addr` (None for NULL).
pub fn pointer_result(py: Python<'_>, addr: usize) -> PyResult<PyObject> {
    if addr == 0 {
        return Ok(py.None());
    }
    Ok(Bound::new(py, Pointer::at(addr))?.into_any().unbind())
}

/// A `DeviceArray` of `size` bytes at `addr` (None for NULL).
pub fn device_array_result(py: Python<'_>, addr: usize, size: u64) -> PyResult<PyObject> {
    if addr == 0 {
        return Ok(py.None());
    }
    DeviceArray::bytes(py, addr, size)
}

/// Host memory a library returned (`LLVMGetBufferStart`), as an empty byte `DeviceArray` that
/// `configure(shape=(n,), _force=True)` sizes and `bytes()` reads; None for NULL.
pub fn host_buffer_result(py: Python<'_>, addr: usize) -> PyResult<PyObject> {
    if addr == 0 {
        return Ok(py.None());
    }
    DeviceArray::host_bytes(py, addr, 0)
}

/// Adds the runtime's own classes to a module, named as classes of `types_module` (the
/// package's module re-exporting them: `hip._util.types`, `rocm.llvm._util.types`): each
/// extension holds a runtime of its own, whose classes are its package's.
pub fn add_runtime_classes(m: &Bound<'_, PyModule>, types_module: &str) -> PyResult<()> {
    let py = m.py();
    m.add_class::<Pointer>()?;
    m.add_class::<DeviceArray>()?;
    m.add_class::<Struct>()?;
    m.add_class::<IntView>()?;
    m.add_class::<KernelArgs>()?;
    m.add_class::<convert::dlpack::DLPackTensor>()?;
    m.add_function(wrap_pyfunction!(convert::dlpack::to_dlpack, m)?)?;
    m.add_function(wrap_pyfunction!(convert::dlpack::from_dlpack, m)?)?;
    m.add_function(wrap_pyfunction!(convert::dlpack::dlpack_live_exports, m)?)?;
    m.add_function(wrap_pyfunction!(register_buffer_class, m)?)?;
    m.add_function(wrap_pyfunction!(convert::pointer::host_bytes, m)?)?;
    m.add("CStr", cstr_class(py)?)?;
    for class in [
        py.get_type::<Pointer>(),
        py.get_type::<DeviceArray>(),
        py.get_type::<Struct>(),
        py.get_type::<IntView>(),
        py.get_type::<KernelArgs>(),
        py.get_type::<convert::dlpack::DLPackTensor>(),
        py.get_type::<types::record::Layout>(),
        py.get_type::<types::record::Field>(),
        py.get_type::<TypeTable>(),
    ] {
        class.setattr("__module__", types_module)?;
    }
    // `CStr` is one class in the process (`convert::cstr`): named as the first package's that
    // exports it, whose module holds it under that name (pickle finds it there).
    let cstr = cstr_class(py)?;
    if cstr.getattr("__module__")?.extract::<String>()? == "hip._util._cstr" {
        cstr.setattr("__module__", types_module)?;
    }
    // The extension's own class; a package that shares another's (`share_load_error`) sets
    // this attribute to that one as well.
    m.add("HipLoadError", m.py().get_type::<HipLoadError>())?;
    m.add_function(pyo3::wrap_pyfunction!(load::share_load_error, m)?)?;
    m.add_function(pyo3::wrap_pyfunction!(convert::extra::pack_kernel_args, m)?)?;
    m.add_function(pyo3::wrap_pyfunction!(register_enum_stand_in, m)?)?;
    m.add_function(pyo3::wrap_pyfunction!(copy_fields, m)?)?;
    Ok(())
}

/// Copies the fields of record `src` into record `dst` by name, where the two are one C
/// struct as two headers lay it out (HIP's and CUDA's); with `strict`, a field `dst` lacks
/// must be zero in `src` (see `types::copy`).
#[pyfunction]
#[pyo3(signature = (dst, src, strict = false))]
fn copy_fields(dst: &Bound<'_, PyAny>, src: &Bound<'_, PyAny>, strict: bool) -> PyResult<()> {
    types::copy::copy_fields(dst, src, strict)
}

/// Makes enum class `foreign` stand for the bindings' enum class `ours`: the functions that
/// take `ours` take `foreign`'s members too, by value. What a package built on the bindings
/// calls for its own enums (the `cuda` package's `cudaMemcpyKind` for `hipMemcpyKind`).
#[pyfunction]
fn register_enum_stand_in(foreign: &Bound<'_, PyType>, ours: &Bound<'_, PyType>) {
    types::registry::register_enum_stand_in(foreign, ours)
}

/// Registers `module` in `sys.modules` under `qualified`, so `import hip.hip` finds it.
pub fn publish_module(m: &Bound<'_, PyModule>, qualified: &str) -> PyResult<()> {
    let py = m.py();
    m.setattr("__name__", qualified)?;
    py.import("sys")?
        .getattr("modules")?
        .downcast_into::<PyDict>()?
        .set_item(qualified, m)?;
    Ok(())
}

/// Narrows an enum value to the C integer type of its parameter.
#[inline]
pub fn narrow<T: TryFrom<i64>>(v: i64) -> PyResult<T> {
    T::try_from(v).map_err(|_| {
        pyo3::exceptions::PyOverflowError::new_err(format!("{v} is out of range for this enum"))
    })
}

/// A zeroed buffer for a `char *` the C function fills, from its length argument.
pub fn out_string_buffer(len: i64) -> PyResult<Vec<u8>> {
    let len = usize::try_from(len).map_err(|_| {
        pyo3::exceptions::PyValueError::new_err(format!("buffer length {len} is negative"))
    })?;
    // One spare byte keeps the result NUL-terminated even if C fills every byte.
    Ok(vec![0u8; len + 1])
}

/// The bytes of a filled buffer up to its first NUL.
pub fn bytes_until_nul(py: Python<'_>, buf: &[u8]) -> PyObject {
    let end = buf.iter().position(|b| *b == 0).unwrap_or(buf.len());
    pyo3::types::PyBytes::new(py, &buf[..end])
        .into_any()
        .unbind()
}

/// An attribute of a Python module, imported on first use and kept (a class the code that
/// generated functions serve defines in Python).
pub struct Imported {
    module: &'static str,
    attr: &'static str,
    cell: pyo3::sync::GILOnceCell<PyObject>,
}

impl Imported {
    /// `module.attr`, not imported yet.
    pub const fn new(module: &'static str, attr: &'static str) -> Self {
        Imported {
            module,
            attr,
            cell: pyo3::sync::GILOnceCell::new(),
        }
    }

    /// The attribute, importing the module on first use.
    pub fn get<'a, 'py>(&'a self, py: Python<'py>) -> PyResult<&'a Bound<'py, PyAny>> {
        let obj = self.cell.get_or_try_init(py, || -> PyResult<PyObject> {
            Ok(py.import(self.module)?.getattr(self.attr)?.unbind())
        })?;
        Ok(obj.bind(py))
    }
}

/// An instance of `cls`, a subclass of `int`, of value `value` (an int), made as
/// `int.__new__(cls, value)` makes it: the subclass's own `__new__` and `__init__` are not
/// run (a value C wrote needs no range check).
pub fn int_of_class(cls: &Bound<'_, PyAny>, value: &Bound<'_, PyAny>) -> PyResult<PyObject> {
    let py = cls.py();
    let ty = cls.downcast::<PyType>()?;
    if !ty.is_subclass_of::<pyo3::types::PyInt>()? {
        return Err(pyo3::exceptions::PyTypeError::new_err(format!(
            "{} is not a subclass of int",
            ty.name()?
        )));
    }
    // SAFETY: `PyLong_Type` is a static type object, whose `tp_new` slot is `int.__new__`'s
    // C function; it takes the subclass, an argument tuple and no keywords.
    unsafe {
        let new = pyo3::ffi::PyType_GetSlot(
            std::ptr::addr_of_mut!(pyo3::ffi::PyLong_Type),
            pyo3::ffi::Py_tp_new,
        );
        let new: pyo3::ffi::newfunc = std::mem::transmute(new);
        let args = PyTuple::new(py, [value])?;
        let made = new(ty.as_type_ptr(), args.as_ptr(), std::ptr::null_mut());
        Ok(Bound::from_owned_ptr_or_err(py, made)?.unbind())
    }
}

/// Whether an input is null as cuda-python reads it: None, or an integer equal to 0 (an
/// input HIP has no parameter for is accepted only so).
pub fn is_null_input(obj: &Bound<'_, PyAny>) -> PyResult<bool> {
    if obj.is_none() {
        return Ok(true);
    }
    if !obj.is_instance_of::<pyo3::types::PyInt>() {
        return Ok(false);
    }
    obj.eq(0)
}

/// A subclass of `int` defined in Python (CUDA's `CUdevice`), imported on first use, whose
/// instances generated functions return: `int_of_class` for each value, except small ones
/// (device ordinals, flags), which are made once and shared as CPython shares its small
/// ints, since making an instance of a Python class costs more than the call it returns from.
pub struct IntClass {
    class: Imported,
    small: pyo3::sync::GILOnceCell<Vec<PyObject>>,
}

/// Values below this are shared instances.
const SHARED_INTS: i128 = 64;

impl IntClass {
    /// `module.attr`, not imported yet.
    pub const fn new(module: &'static str, attr: &'static str) -> Self {
        IntClass {
            class: Imported::new(module, attr),
            small: pyo3::sync::GILOnceCell::new(),
        }
    }

    /// The instance of value `v`.
    pub fn make(&self, py: Python<'_>, v: i128) -> PyResult<PyObject> {
        if (0..SHARED_INTS).contains(&v) {
            let small = self
                .small
                .get_or_try_init(py, || -> PyResult<Vec<PyObject>> {
                    let cls = self.class.get(py)?;
                    (0..SHARED_INTS as i64)
                        .map(|i| int_of_class(cls, pyo3::types::PyInt::new(py, i).as_any()))
                        .collect()
                })?;
            return Ok(small[v as usize].clone_ref(py));
        }
        let value = match i64::try_from(v) {
            Ok(i) => obj(py, i)?,
            Err(_) => obj(py, v)?,
        };
        int_of_class(self.class.get(py)?, value.bind(py))
    }
}
