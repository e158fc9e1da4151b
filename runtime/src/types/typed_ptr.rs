//! Pointer arguments whose pointee the header names: `T *` of a handle, a struct or a number.
//!
//! The argument's own type decides what is passed, never a second `&` in generated code:
//! - a handle object for `T *` of that handle (`hiprtcDestroyProgram(prog)`) → the address of
//!   a copy of its value, written back into the object after the call, so C can update it;
//! - a `Pointer` (`prog.createRef()`), an int address, a ctypes pointer → that address as is;
//! - a list or tuple of handles for `const T *` (an array C reads: `pDependencies`) → the
//!   address of a temporary array of their values, as cuda-python takes such arrays;
//! - a struct object must be of the pointee's struct class; a buffer must hold at least one
//!   pointee, so C never writes past the end of a too-small `bytearray` or array.

use crate::convert::pointer::{as_pointer, check_alive, ref_owner, Pointer, PtrArg};
use crate::types::record::Struct;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple, PyType};

/// A `T *` argument where `T` is a handle type.
pub struct HandleRef<'py> {
    /// The handle's value, which C reads and may overwrite.
    slot: usize,
    /// The handle object whose value `slot` copies, updated on drop.
    handle: Option<Bound<'py, Pointer>>,
    /// Any other pointer-like argument, passed as it is.
    other: Option<PtrArg>,
    /// The values of a list of handles, passed as an array.
    array: Vec<usize>,
    /// Whether C only reads the array (a list may stand for it).
    reads: bool,
}

impl<'py> HandleRef<'py> {
    /// Converts `obj`; `class` is the handle's class; `writable`: C may write through it.
    pub fn convert(
        obj: &Bound<'py, PyAny>,
        class: &Bound<'py, PyType>,
        writable: bool,
        single: bool,
    ) -> PyResult<Self> {
        if obj.is_instance(class)? {
            // `as_pointer` rather than trusting `is_instance`, which a `__class__` can fool.
            let handle = match as_pointer(obj) {
                Some(p) => p.clone(),
                None => obj.downcast::<Pointer>()?.clone(), // the TypeError
            };
            let slot = {
                let h = handle.get();
                check_alive(obj, h)?;
                h.addr()
            };
            return Ok(HandleRef {
                slot,
                handle: Some(handle),
                other: None,
                array: Vec::new(),
                reads: !writable,
            });
        }
        if obj.is_instance_of::<PyList>() || obj.is_instance_of::<PyTuple>() {
            if writable {
                // What C writes into the array would be lost with the temporary.
                return Err(PyTypeError::new_err(format!(
                    "C writes this array of {}: pass a buffer, not a {}",
                    class.name()?,
                    obj.get_type().name()?
                )));
            }
            let array = obj
                .try_iter()?
                .map(|item| {
                    let item = item?;
                    if item.is_instance_of::<Struct>() {
                        return Err(PyTypeError::new_err(format!(
                            "an array of {} holds handles, not a {}",
                            class.name()?,
                            item.get_type().name()?
                        )));
                    }
                    Ok(PtrArg::convert(&item, false)?.addr)
                })
                .collect::<PyResult<Vec<usize>>>()?;
            return Ok(HandleRef {
                slot: 0,
                handle: None,
                other: None,
                array,
                reads: !writable,
            });
        }
        if let Some(p) = as_pointer(obj) {
            // A struct, an array or a handle of another class holds no handle of this one.
            if !crate::convert::pointer::is_exact_pointer(obj) {
                return Err(not_this_handle(obj, &class.name()?.to_string()));
            }
            // `prog.createRef()`: C reads the handle it points at, which must be alive.
            if let Some(owner) = ref_owner(obj, p.get()) {
                check_alive(owner.as_any(), owner.get())?;
            }
        } else if single && crate::convert::pointer::holds_memory(obj)? {
            // One handle C reads and may rewrite (`hiprtcDestroyProgram(&prog)`): a buffer's
            // bytes are no handle the library made.
            return Err(not_this_handle(obj, &class.name()?.to_string()));
        }
        Ok(HandleRef {
            slot: 0,
            handle: None,
            other: Some(PtrArg::convert(obj, writable)?),
            array: Vec::new(),
            reads: !writable,
        })
    }

    /// How many handles C may read at the address, where the argument says: one for a handle
    /// object, a list's length, a buffer's whole handles; None for an address.
    pub fn item_count(&self) -> Option<usize> {
        match &self.other {
            Some(p) if p.addr == 0 => Some(0),
            Some(p) => p.buffer_len().map(|n| n / size_of::<usize>()),
            None if self.handle.is_none() => Some(self.array.len()),
            None => Some(1),
        }
    }

    /// Refuses a `count` (parameter `count_name`) larger than what the argument holds, and, where
    /// C reads handles from a buffer, a NULL among the first `count`: a buffer's bytes are no
    /// handles the library made (`LLVMConstStruct(bytearray(256), 4, 0)` would crash in it).
    pub fn check_count(&self, count: i128, count_name: &str, name: &str) -> PyResult<()> {
        crate::convert::sizes::check_count(count, count_name, self.item_count(), name)?;
        let Some(p) = self.other.as_ref().filter(|p| self.reads && p.addr != 0) else {
            return Ok(());
        };
        if p.buffer_len().is_none() {
            return Ok(()); // an address: what it points at is the caller's word
        }
        let words = p.addr as *const usize;
        // SAFETY: `count` words lie within the buffer (checked just above), which the
        // argument keeps exported; an unaligned buffer is read unaligned.
        let null = (0..count as usize).find(|&i| unsafe { words.add(i).read_unaligned() } == 0);
        match null {
            Some(i) => Err(PyValueError::new_err(format!(
                "{name}[{i}] is a NULL handle: C reads {count_name} handles there; pass a list of them"
            ))),
            None => Ok(()),
        }
    }

    /// Whether the argument is a Python buffer (whose length `check_room` compares).
    pub fn holds_memory(&self) -> bool {
        self.other
            .as_ref()
            .is_some_and(|p| p.addr != 0 && p.buffer_len().is_some())
    }

    /// Refuses a buffer with room for fewer than the `count` handles C writes there (the
    /// library's own answer, `count_text`): `LLVMGetParams(fn, bytearray(8))` would write past
    /// its end.
    pub fn check_room(&self, count: i128, count_text: &str, name: &str) -> PyResult<()> {
        let room = self.item_count().unwrap_or(usize::MAX);
        if count > room as i128 {
            return Err(PyValueError::new_err(format!(
                "{name} holds {room} handle(s), but C writes {count} there ({count_text})"
            )));
        }
        Ok(())
    }

    /// The address passed to C. The `HandleRef` must stay where it is until the call returns.
    #[inline]
    pub fn addr(&mut self) -> usize {
        match &self.other {
            Some(p) => p.addr,
            None if self.handle.is_none() => {
                // A list: an empty one is a null array (with a count of 0 in C).
                if self.array.is_empty() {
                    0
                } else {
                    self.array.as_ptr() as usize
                }
            }
            None => &mut self.slot as *mut usize as usize,
        }
    }
}

impl Drop for HandleRef<'_> {
    /// Writes back what C left in the slot (a create or destroy may change the handle).
    fn drop(&mut self) {
        if let Some(h) = &self.handle {
            let p = h.get();
            if p.addr() != self.slot && self.slot != 0 {
                // C wrote another handle: the object now stands for that one.
                p.clear_life();
            }
            p.set_addr(self.slot);
        }
    }
}

/// A `T *` argument where `T` is a struct of `class` and `size` bytes, or a number of `size`
/// bytes (`class` None). `writable`: C writes through it.
pub fn typed_ptr_arg(
    obj: &Bound<'_, PyAny>,
    class: Option<&Bound<'_, PyType>>,
    size: usize,
    writable: bool,
) -> PyResult<PtrArg> {
    if let Some(class) = class {
        if !writable && (obj.is_instance_of::<PyList>() || obj.is_instance_of::<PyTuple>()) {
            return struct_array_arg(obj, class, size);
        }
        if obj.is_instance_of::<Struct>() && !obj.is_instance(class)? {
            return Err(PyTypeError::new_err(format!(
                "expected a {} (or a pointer-like object), got a {}",
                class.name()?,
                obj.get_type().name()?
            )));
        }
    }
    let arg = PtrArg::convert(obj, writable)?;
    if let Some(len) = arg.buffer_len() {
        // An empty buffer stands for an empty array of numbers (a count of 0 in C); a struct
        // is always read or written whole.
        let empty_ok = class.is_none() && len == 0;
        if len < size && !empty_ok {
            return Err(PyValueError::new_err(format!(
                "a buffer of {len} bytes is too small: C {} {size} bytes here",
                if writable { "writes" } else { "reads" }
            )));
        }
    }
    Ok(arg)
}

/// A list or tuple of structs of `class` (`size` bytes each) given where C reads a `const T *`
/// array (cuda-python's `cuMemSetAccess(ptr, size, [desc, ...], count)`): their bytes copied
/// side by side into a temporary array that lives until the call returns; NULL for none.
fn struct_array_arg(
    obj: &Bound<'_, PyAny>,
    class: &Bound<'_, PyType>,
    size: usize,
) -> PyResult<PtrArg> {
    let py = obj.py();
    let mut bytes = Vec::new();
    for (i, item) in obj.try_iter()?.enumerate() {
        let item = item?;
        if !item.is_instance(class)? {
            return Err(PyTypeError::new_err(format!(
                "item {i}: expected a {}, got {}",
                class.name()?,
                item.get_type().name()?
            )));
        }
        let at = PtrArg::convert(&item, false)?.addr;
        // SAFETY: a struct object of `class` views at least `size` readable bytes.
        bytes.extend_from_slice(unsafe { std::slice::from_raw_parts(at as *const u8, size) });
    }
    if bytes.is_empty() {
        return PtrArg::convert(&py.None().into_bound(py), false);
    }
    PtrArg::convert(pyo3::types::PyByteArray::new(py, &bytes).as_any(), false)
}

/// A handle passed by value (`hiprtcProgram prog`, `hipsparseHandle_t handle`): an object of
/// the handle's `class` (or a subclass: the `cuda` package's `CUstream`), a plain `Pointer`
/// (hip-python's generic form, `createRef()` results), an int address, a ctypes pointer, or
/// None. `class` is None for a `void *` typedef (`hipsparseHandle_t`), whose handles are plain
/// `Pointer`s as in hip-python. `class` must be a handle class (a `Pointer` subclass).
///
/// Refused (TypeError): struct objects, handles of another class, device arrays, buffers and
/// array interfaces. hip-python takes the address of any of them, and C then reads a handle
/// out of a struct's bytes or a buffer's garbage; a handle is never memory the caller holds.
#[inline]
pub fn handle_arg(
    obj: &Bound<'_, PyAny>,
    class: Option<&Bound<'_, PyType>>,
    name: &str,
) -> PyResult<usize> {
    let t = obj.get_type_ptr();
    if class.is_some_and(|c| c.as_type_ptr() == t) {
        // The common case first, a handle object of this very class: no subtype walk.
        // SAFETY: `class` is a handle class, a `Pointer` subclass, so `obj` is a `Pointer`.
        let p = unsafe { obj.downcast_unchecked::<Pointer>() }.get();
        check_alive(obj, p)?;
        return Ok(p.addr());
    }
    if obj.is_exact_instance_of::<pyo3::types::PyInt>() {
        return PtrArg::convert(obj, false).map(|p| p.addr);
    }
    if let Some(p) = as_pointer(obj) {
        let ok = crate::convert::pointer::is_exact_pointer(obj)
            // SAFETY: two live type objects.
            || class.is_some_and(|c| unsafe { pyo3::ffi::PyType_IsSubtype(t, c.as_type_ptr()) } != 0);
        if ok {
            let p = p.get();
            check_alive(obj, p)?;
            return Ok(p.addr());
        }
        return Err(not_this_handle(obj, name));
    }
    if obj.is_none() {
        return Ok(0);
    }
    match crate::convert::pointer::handle_value(obj)? {
        Some(addr) => Ok(addr),
        // Buffers, array interfaces, device arrays: memory, never a handle.
        None => Err(not_this_handle(obj, name)),
    }
}

/// The TypeError for an object that is not a handle of kind `name`.
#[cold]
fn not_this_handle(obj: &Bound<'_, PyAny>, name: &str) -> PyErr {
    let class = obj
        .get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_default();
    PyTypeError::new_err(format!(
        "expected a {name} handle (or None, an int address, a Pointer), got {class}: a \
         handle is never a struct, an array or another kind of handle"
    ))
}
