//! Generated functions as METH_FASTCALL | METH_KEYWORDS C functions with a static
//! `PyMethodDef`, instead of `#[pyfunction]`: a call with every argument given by position
//! (nearly all calls) takes its arguments straight from the vector CPython passes, without
//! PyO3's general argument matcher (about 20 ns per call); calls with keywords, or the wrong
//! number of arguments, go through that matcher and get its messages.
//!
//! The C entry point runs the body inside PyO3's own trampoline
//! (`pyo3::impl_::trampoline::fastcall_with_keywords`: panics become PanicException, the GIL
//! count and reference pool are kept), as `#[pyfunction]` does. PyO3's `impl_` items are
//! public but not covered by semver: Cargo.lock pins the PyO3 release they are written for.

use crate::convert::extra::KernelExtra;
use crate::convert::number::{index_check, int_arg, is_int_like, CIndex, CInt};
use crate::convert::pointer::{not_pointer_like, PtrArg, PtrArgMut, PtrArgWritten};
use crate::convert::strings::{CStrArg, CStrArrayArg};
use pyo3::exceptions::PyTypeError;
use pyo3::impl_::extract_argument::{FunctionDescription, NoVarargs, NoVarkeywords};
use pyo3::prelude::*;
use pyo3::Borrowed;
pub use pyo3::{ffi, PyResult, Python};
use std::ffi::CStr;

/// A generated function's C entry point.
pub type FastCall = ffi::PyCFunctionFastWithKeywords;

/// One argument of a call, borrowed from CPython's argument vector.
pub type Arg<'a, 'py> = Borrowed<'a, 'py, PyAny>;

/// A generated function: its `PyMethodDef` (static: CPython keeps a pointer to it) and the
/// description PyO3's argument matcher reads on the slow path.
pub struct Function {
    def: ffi::PyMethodDef,
    /// Name and parameter names, for keyword calls and error messages.
    pub description: FunctionDescription,
}

// SAFETY: never mutated after construction; its pointers are to static strings and functions.
unsafe impl Sync for Function {}

impl Function {
    /// `doc` starts with `name(params)\n--\n\n` so that `inspect.signature` reads it.
    pub const fn new(
        name: &'static CStr,
        func_name: &'static str,
        params: &'static [&'static str],
        meth: FastCall,
        doc: &'static CStr,
    ) -> Self {
        Function {
            def: ffi::PyMethodDef {
                ml_name: name.as_ptr(),
                ml_meth: ffi::PyMethodDefPointer {
                    PyCFunctionFastWithKeywords: meth,
                },
                ml_flags: ffi::METH_FASTCALL | ffi::METH_KEYWORDS,
                ml_doc: doc.as_ptr(),
            },
            description: FunctionDescription {
                cls_name: None,
                func_name,
                positional_parameter_names: params,
                positional_only_parameters: 0,
                required_positional_parameters: params.len(),
                keyword_only_parameters: &[],
            },
        }
    }

    /// Adds the function to `m`; `module` (`hip.hip`) is its `__module__`, where pickle finds it.
    pub fn add_to(&'static self, m: &Bound<'_, PyModule>, module: &str) -> PyResult<()> {
        let py = m.py();
        let module_name = pyo3::types::PyString::new(py, module);
        // SAFETY: `def` lives forever; CPython only reads it. The module and its name are live.
        let f = unsafe {
            let ptr = ffi::PyCFunction_NewEx(
                &self.def as *const ffi::PyMethodDef as *mut ffi::PyMethodDef,
                m.as_ptr(),
                module_name.as_ptr(),
            );
            Bound::from_owned_ptr_or_err(py, ptr)?
        };
        m.add(self.description.func_name, f)
    }

    /// The `N` arguments of a call, in parameter order.
    ///
    /// # Safety
    /// `args`, `nargs` and `kwnames` are what CPython passed to the function's entry point.
    #[inline]
    pub unsafe fn args<'py, const N: usize>(
        &self,
        py: Python<'py>,
        args: *const *mut ffi::PyObject,
        nargs: ffi::Py_ssize_t,
        kwnames: *mut ffi::PyObject,
    ) -> PyResult<[Arg<'py, 'py>; N]> {
        if nargs == N as ffi::Py_ssize_t && kwnames.is_null() {
            // SAFETY: CPython passes `nargs` live objects at `args`, borrowed for the call.
            return Ok(std::array::from_fn(|i| unsafe {
                Borrowed::from_ptr(py, *args.add(i))
            }));
        }
        let mut found: [Option<Arg<'py, 'py>>; N] = [None; N];
        // SAFETY: as above; the matcher reads the same vector and the keyword names tuple.
        unsafe {
            self.description
                .extract_arguments_fastcall::<NoVarargs, NoVarkeywords>(
                    py, args, nargs, kwnames, &mut found,
                )?;
        }
        // Every parameter is required: the matcher has raised for any missing one.
        Ok(found.map(|a| a.expect("required argument")))
    }
}

/// Converts argument `name`, an address C takes as a pointer where the caller's API (CUDA's
/// `CUdeviceptr`) declares an integer: a float is truncated first, as that API's integer
/// conversion does (`int(dptr) + size / n`); anything else converts as the pointer type does.
pub fn address_arg<'py, T: FromArg<'py>>(obj: &Bound<'py, PyAny>, name: &str) -> PyResult<T> {
    if obj.is_instance_of::<pyo3::types::PyFloat>() {
        if let Some(int) = crate::convert::number::truncated(obj)? {
            return T::from_arg(&int, name);
        }
    }
    T::from_arg(obj, name)
}

/// Converts argument `name`, as `#[pyfunction]` does: a TypeError names the argument.
#[inline]
pub fn extract<'a, 'py, T: FromArg<'py>>(arg: Arg<'a, 'py>, name: &str) -> PyResult<T> {
    T::from_arg(&arg, name)
}

/// A parameter type of generated functions, converted from one argument; a TypeError names
/// the argument. Pointers and C integers build that message once, where the conversion
/// fails, instead of raising an error and wrapping it in a second one: a refused argument
/// then costs about what a builtin's TypeError costs.
pub trait FromArg<'py>: Sized {
    /// Converts `obj`, the argument `name`.
    fn from_arg(obj: &Bound<'py, PyAny>, name: &str) -> PyResult<Self>;
}

/// Types converted by their `FromPyObject`, the error renamed after the fact.
macro_rules! from_arg_by_extract {
    ($($t:ty),*) => {$(
        impl<'py> FromArg<'py> for $t {
            #[inline]
            fn from_arg(obj: &Bound<'py, PyAny>, name: &str) -> PyResult<Self> {
                obj.extract().map_err(|e| argument_error(obj.py(), name, e))
            }
        }
    )*};
}
from_arg_by_extract!(bool, f32, f64, CStrArg, CStrArrayArg, KernelExtra);

impl<'py> FromArg<'py> for PtrArg {
    #[inline]
    fn from_arg(obj: &Bound<'py, PyAny>, name: &str) -> PyResult<Self> {
        pointer_arg(obj, name, false, false)
    }
}

impl<'py> FromArg<'py> for PtrArgMut {
    #[inline]
    fn from_arg(obj: &Bound<'py, PyAny>, name: &str) -> PyResult<Self> {
        pointer_arg(obj, name, true, false).map(PtrArgMut)
    }
}

impl<'py> FromArg<'py> for PtrArgWritten {
    #[inline]
    fn from_arg(obj: &Bound<'py, PyAny>, name: &str) -> PyResult<Self> {
        pointer_arg(obj, name, true, true).map(PtrArgWritten)
    }
}

/// An exact `int` that fits `T` (nearly every integer argument), read with one call into the
/// interpreter; None for anything else, which takes the general path and its messages.
#[inline]
fn exact_int<T: TryFrom<i64>>(obj: &Bound<'_, PyAny>) -> Option<T> {
    if !obj.is_exact_instance_of::<pyo3::types::PyInt>() {
        return None;
    }
    let mut overflow = 0;
    // SAFETY: an exact int; this conversion cannot fail otherwise (out of range sets
    // `overflow` and raises nothing).
    let v = unsafe { ffi::PyLong_AsLongLongAndOverflow(obj.as_ptr(), &mut overflow) };
    if overflow != 0 {
        return None;
    }
    T::try_from(v).ok()
}

/// A pointer argument; nothing pointer-like is a TypeError built here, naming `name`.
/// `may_write`: C may write through it; `need_writable`: read-only buffers are refused.
#[inline]
fn pointer_arg(
    obj: &Bound<'_, PyAny>,
    name: &str,
    may_write: bool,
    need_writable: bool,
) -> PyResult<PtrArg> {
    match PtrArg::try_convert_as(obj, may_write, need_writable) {
        Ok(Some(arg)) => Ok(arg),
        Ok(None) => Err(not_pointer_like(obj, Some(name))),
        Err(e) => Err(argument_error(obj.py(), name, e)),
    }
}

impl<'py, T: FromPyObject<'py> + TryFrom<i64>> FromArg<'py> for CInt<T> {
    // One copy per integer type, not one per call site (thousands: a wheel's size), at the
    // cost of a direct call.
    #[inline(never)]
    fn from_arg(obj: &Bound<'py, PyAny>, name: &str) -> PyResult<Self> {
        if let Some(v) = exact_int::<T>(obj) {
            return Ok(CInt(v));
        }
        if !is_int_like(obj) {
            // Asked first, so that no interpreter error is raised and then replaced.
            return Err(PyTypeError::new_err(format!(
                "argument '{name}': '{}' object cannot be interpreted as an integer",
                obj.get_type().name()?
            )));
        }
        int_arg(obj)
            .map(CInt)
            .map_err(|e| argument_error(obj.py(), name, e))
    }
}

impl<'py, T: FromPyObject<'py> + TryFrom<i64>> FromArg<'py> for CIndex<T> {
    #[inline(never)]
    fn from_arg(obj: &Bound<'py, PyAny>, name: &str) -> PyResult<Self> {
        if let Some(v) = exact_int::<T>(obj) {
            return Ok(CIndex(v));
        }
        // SAFETY: a type-slot check on a live object.
        if !obj.is_instance_of::<pyo3::types::PyInt>() && unsafe { index_check(obj.as_ptr()) } == 0
        {
            return Err(PyTypeError::new_err(format!(
                "argument '{name}': '{}' object cannot be interpreted as an integer",
                obj.get_type().name()?
            )));
        }
        obj.extract()
            .map(CIndex)
            .map_err(|e| argument_error(obj.py(), name, e))
    }
}

impl<'py, T: FromArg<'py>> FromArg<'py> for Option<T> {
    #[inline]
    fn from_arg(obj: &Bound<'py, PyAny>, name: &str) -> PyResult<Self> {
        if obj.is_none() {
            Ok(None)
        } else {
            T::from_arg(obj, name).map(Some)
        }
    }
}

/// `argument 'name': <message>` for a TypeError (its cause kept); other errors unchanged.
#[cold]
fn argument_error(py: Python<'_>, name: &str, error: PyErr) -> PyErr {
    if error.get_type(py).is(py.get_type::<PyTypeError>()) {
        let remapped = PyTypeError::new_err(format!("argument '{name}': {}", error.value(py)));
        remapped.set_cause(py, error.cause(py));
        remapped
    } else {
        error
    }
}

/// `None` as `None`, anything else as itself: an optional `object` parameter.
#[inline]
pub fn optional<'a, 'py>(arg: &'a Bound<'py, PyAny>) -> Option<&'a Bound<'py, PyAny>> {
    (!arg.is_none()).then_some(arg)
}

/// A generated function's body: the call's arguments in, a new reference out.
pub type Body = for<'py> unsafe fn(
    Python<'py>,
    *mut ffi::PyObject,
    *const *mut ffi::PyObject,
    ffi::Py_ssize_t,
    *mut ffi::PyObject,
) -> PyResult<*mut ffi::PyObject>;

/// Runs `body` inside PyO3's trampoline (what `fastcall_entry!` expands to).
///
/// # Safety
/// The arguments are those CPython passed to a METH_FASTCALL | METH_KEYWORDS function.
#[inline]
pub unsafe fn trampoline(
    slf: *mut ffi::PyObject,
    args: *const *mut ffi::PyObject,
    nargs: ffi::Py_ssize_t,
    kwnames: *mut ffi::PyObject,
    body: Body,
) -> *mut ffi::PyObject {
    unsafe { pyo3::impl_::trampoline::fastcall_with_keywords(slf, args, nargs, kwnames, body) }
}

/// The C entry point of a generated function whose body is `$body` (a [`Body`]).
#[macro_export]
macro_rules! fastcall_entry {
    ($body:path) => {{
        unsafe extern "C" fn entry(
            slf: *mut $crate::convert::call::ffi::PyObject,
            args: *const *mut $crate::convert::call::ffi::PyObject,
            nargs: $crate::convert::call::ffi::Py_ssize_t,
            kwnames: *mut $crate::convert::call::ffi::PyObject,
        ) -> *mut $crate::convert::call::ffi::PyObject {
            unsafe { $crate::convert::call::trampoline(slf, args, nargs, kwnames, $body) }
        }
        entry
    }};
}

/// A generated function: its static [`Function`] `$def` and body `$body`, which takes the
/// call's arguments as `[$x, ...]` (borrowed, in parameter order) and evaluates `$call`.
///
/// ```ignore
/// rt::function!(F_f, C_f, c"f", "f", c"f(a)\n--\n\ndoc", ["a"], |py, [x0]| f(py, &x0));
/// ```
#[macro_export]
macro_rules! function {
    ($def:ident, $body:ident, $cname:literal, $name:literal, $doc:literal, [$($param:literal),*],
     |$py:ident, [$($x:ident),*]| $call:expr) => {
        static $def: $crate::convert::call::Function = $crate::convert::call::Function::new(
            $cname,
            $name,
            &[$($param),*],
            $crate::fastcall_entry!($body),
            $doc,
        );

        unsafe fn $body(
            $py: $crate::convert::call::Python<'_>,
            _module: *mut $crate::convert::call::ffi::PyObject,
            args: *const *mut $crate::convert::call::ffi::PyObject,
            nargs: $crate::convert::call::ffi::Py_ssize_t,
            kwnames: *mut $crate::convert::call::ffi::PyObject,
        ) -> $crate::convert::call::PyResult<*mut $crate::convert::call::ffi::PyObject> {
            // SAFETY: what CPython passed to the entry point.
            let [$($x),*] = unsafe { $def.args($py, args, nargs, kwnames)? };
            Ok($call?.into_ptr())
        }
    };
}
