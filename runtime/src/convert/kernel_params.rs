//! Kernel arguments given as cuda-python gives `kernelParams`, made into the `void *[]` C
//! takes: None (no arguments), an int (the address of such an array), a pair of tuples
//! `((values...), (types...))` whose types are ctypes classes or None (the value is a
//! pointer or an object with `getPtr()`), or anything pointer-like (a NumPy array of
//! addresses), which converts as any pointer argument.
//!
//! Every form is packed here, the one place that knows them: numbers go into an 8-byte slot
//! of the array C reads; a ctypes object of the argument's own type is passed by its own
//! storage; other values of a ctypes type (`c_bool`, a `Structure`) are made into one, kept
//! alive until the call returns.

use crate::convert::pointer::{ctypes_classes, CtypesClasses, DeviceArray, Pointer, PtrArg};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::sync::GILOnceCell;
use pyo3::types::{PyFloat, PyInt, PyList, PyTuple, PyType};

/// How a ctypes scalar class stores its value.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Scalar {
    /// An integer of this many bytes (ctypes truncates to it, as here).
    Int(usize),
    /// `c_float`.
    F32,
    /// `c_double`.
    F64,
    /// `c_void_p`: an address (None is NULL).
    Ptr,
}

/// The ctypes scalar classes packed here, by identity.
static SCALARS: GILOnceCell<Vec<(Py<PyType>, Scalar)>> = GILOnceCell::new();

fn scalars(py: Python<'_>) -> PyResult<&Vec<(Py<PyType>, Scalar)>> {
    SCALARS.get_or_try_init(py, || {
        let ctypes = py.import("ctypes")?;
        let sizeof = ctypes.getattr("sizeof")?;
        let mut out = Vec::new();
        for name in [
            "c_int",
            "c_uint",
            "c_long",
            "c_ulong",
            "c_longlong",
            "c_ulonglong",
            "c_size_t",
            "c_ssize_t",
            "c_short",
            "c_ushort",
            "c_byte",
            "c_ubyte",
            "c_float",
            "c_double",
            "c_void_p",
        ] {
            let cls = ctypes.getattr(name)?.downcast_into::<PyType>()?;
            let code: String = cls.getattr("_type_")?.extract()?;
            let kind = match code.as_str() {
                "f" => Scalar::F32,
                "d" => Scalar::F64,
                "P" => Scalar::Ptr,
                _ => Scalar::Int(sizeof.call1((&cls,))?.extract()?),
            };
            out.push((cls.unbind(), kind));
        }
        Ok(out)
    })
}

/// `kernelParams` made into C's `void *[]`, alive until the call returns.
pub struct KernelParams {
    addr: usize,
    /// The values packed here (one 8-byte slot each), then the argument addresses C reads.
    _buf: Vec<u64>,
    /// The ctypes objects made for arguments, kept alive.
    _keep: Option<Py<PyList>>,
    /// A pointer-like argument's conversion (a buffer export).
    _ptr: Option<PtrArg>,
}

/// What a record's `kernelParams` field keeps alive: the packed argument array and the ctypes
/// objects made for it.
#[pyclass(frozen, module = "hip._util.types")]
pub struct PackedKernelParams {
    _buf: Vec<u64>,
    _keep: Option<Py<PyList>>,
}

impl KernelParams {
    /// The address to store in a record's `kernelParams` field, and what the record must keep
    /// alive for it: the packed array (a `(values, types)` pair), or `given` itself where its
    /// own memory is the array (a NumPy array of addresses); nothing for an address.
    pub fn kept(self, given: &Bound<'_, PyAny>) -> PyResult<(usize, Option<PyObject>)> {
        let py = given.py();
        if self._ptr.is_some() {
            return Ok((self.addr, Some(given.clone().unbind())));
        }
        if self._buf.is_empty() {
            return Ok((self.addr, None));
        }
        let packed = PackedKernelParams {
            _buf: self._buf,
            _keep: self._keep,
        };
        // The array's heap storage moves with the Vec unchanged: `addr` still points into it.
        Ok((self.addr, Some(Py::new(py, packed)?.into_any())))
    }

    /// The address passed to C.
    #[inline]
    pub fn addr(&self) -> usize {
        self.addr
    }

    fn at(addr: usize) -> Self {
        KernelParams {
            addr,
            _buf: Vec::new(),
            _keep: None,
            _ptr: None,
        }
    }

    /// Converts `obj`. An integer over memory the caller holds (`IntView`: CUDA's integer
    /// typedefs made with `_ptr=`) passes to a `c_void_p` argument by its `getPtr()`, as
    /// CUDA's integer objects are passed.
    pub fn convert(obj: &Bound<'_, PyAny>) -> PyResult<KernelParams> {
        if obj.is_none() {
            return Ok(Self::at(0));
        }
        if obj.is_instance_of::<PyInt>() {
            return Ok(Self::at(address(obj)? as usize));
        }
        if let Ok(pair) = obj.downcast::<PyTuple>() {
            if pair.len() == 2 {
                let (values, types) = (pair.get_item(0)?, pair.get_item(1)?);
                if let (Ok(values), Ok(types)) =
                    (values.downcast::<PyTuple>(), types.downcast::<PyTuple>())
                {
                    return Self::pack(values, types);
                }
            }
        }
        let ptr = PtrArg::convert(obj, false)?;
        let mut out = Self::at(ptr.addr());
        out._ptr = Some(ptr);
        Ok(out)
    }

    fn pack<'py>(
        values: &Bound<'py, PyTuple>,
        types: &Bound<'py, PyTuple>,
    ) -> PyResult<KernelParams> {
        let py = values.py();
        let n = values.len();
        if types.len() != n {
            return Err(PyTypeError::new_err(
                "kernelParams: the values and types tuples differ in length",
            ));
        }
        let table = scalars(py)?;
        // One allocation for both arrays C reads: the packed values (`buf[..n]`) and the
        // argument addresses (`buf[n..]`, C's `void *[]`). It never grows, so the address of a
        // value slot is final when it is written.
        let half = n.max(1);
        let mut buf: Vec<u64> = vec![0; 2 * half];
        // Written through this pointer only, so that it stays valid.
        let base = buf.as_mut_ptr();
        let mut keep: Option<Bound<'py, PyList>> = None;
        for (i, (value, ty)) in values.iter().zip(types.iter()).enumerate() {
            let slot = match packed(&value, &ty, table)? {
                Some(bits) => Slot::Value(bits),
                None => other(&value, &ty, table)?,
            };
            let addr = match slot {
                Slot::Value(bits) => {
                    // SAFETY: `i < n` is in the value half of `buf`.
                    unsafe { base.add(i).write(bits) };
                    base.wrapping_add(i) as usize
                }
                Slot::At(addr) => addr,
                Slot::Kept(obj, addr) => {
                    keep.get_or_insert_with(|| PyList::empty(py)).append(obj)?;
                    addr
                }
            };
            // SAFETY: `half + i < 2 * half` is in the address half of `buf`.
            unsafe { base.add(half + i).write(addr as u64) };
        }
        Ok(KernelParams {
            addr: base.wrapping_add(half) as usize,
            _buf: buf,
            _keep: keep.map(Bound::unbind),
            _ptr: None,
        })
    }
}

/// The 8-byte slot holding `value` as C type `ty`, for the forms packed here; None for the
/// others. An integer must fit the type's size, signed or unsigned (ctypes would keep its low
/// bits: a kernel given 2**40 as an `int` reads 0), and an address must fit 64 bits unsigned,
/// as every C integer argument of the bindings must.
fn packed(
    value: &Bound<'_, PyAny>,
    ty: &Bound<'_, PyAny>,
    table: &[(Py<PyType>, Scalar)],
) -> PyResult<Option<u64>> {
    if ty.is_none() {
        // A pointer: an int is the address; our pointer objects give the slot holding theirs
        // (`getPtr()`), whose content is what the kernel receives.
        if value.is_exact_instance_of::<PyInt>() {
            return Ok(Some(address(value)?));
        }
        // An int subclass that is no enum member: a CUDA typedef object (`CUdeviceptr`),
        // whose `getPtr()` is a cell holding its value (signed types' negative values as
        // their two's complement), which is what the kernel receives. Enum members (a C
        // `int`) are `other`'s.
        if value.is_instance_of::<PyInt>() {
            let (_, enum_base) = crate::convert::attr::enum_classes(value.py())?;
            if !crate::convert::attr::is_subtype(value, enum_base.bind(value.py())) {
                return Ok(Some(int_in_range(value, 8)?));
            }
            return Ok(None);
        }
        // Only our own classes, whose `getPtr()` is that slot: structs (and subclasses
        // written in Python) give other addresses, which `other` asks them for.
        let ty = value.get_type();
        if ty.is(value.py().get_type::<Pointer>()) || ty.is(value.py().get_type::<DeviceArray>()) {
            let p = value.downcast::<Pointer>()?;
            return Ok(Some(p.get().addr() as u64));
        }
        return Ok(None);
    }
    let Some(kind) = table
        .iter()
        .find(|(cls, _)| cls.bind(ty.py()).is(ty))
        .map(|(_, k)| *k)
    else {
        return Ok(None);
    };
    let int = value.is_exact_instance_of::<PyInt>();
    let float = value.is_exact_instance_of::<PyFloat>();
    Ok(match kind {
        Scalar::Int(size) if int => {
            let bits = int_in_range(value, size)?;
            Some(if size >= 8 {
                bits
            } else {
                bits & ((1u64 << (size * 8)) - 1)
            })
        }
        Scalar::F32 if int || float => Some(u64::from((value.extract::<f64>()? as f32).to_bits())),
        Scalar::F64 if int || float => Some(value.extract::<f64>()?.to_bits()),
        Scalar::Ptr if int => Some(address(value)?),
        Scalar::Ptr if value.is_none() => Some(0),
        _ => None,
    })
}

/// Where an argument's C value is, for the forms `packed` leaves.
enum Slot<'py> {
    /// These bits, in the argument's 8-byte slot.
    Value(u64),
    /// At this address, which the caller's object keeps alive (`getPtr()`, a ctypes object
    /// of the argument's type).
    At(usize),
    /// At this address, inside this ctypes object made for the call.
    Kept(Bound<'py, PyAny>, usize),
}

/// Whether `value` is a ctypes scalar, structure or union (what `ctypes.addressof` takes as
/// a value; its class's metaclass alone does not tell, as enums have one of their own).
fn is_ctypes_value(value: &Bound<'_, PyAny>, ct: &CtypesClasses) -> bool {
    let ty = value.get_type();
    derives(&ty, &ct.simple) || derives(&ty, &ct.structure) || derives(&ty, &ct.union)
}

/// Whether class `ty` derives from `base`.
fn derives(ty: &Bound<'_, PyType>, base: &Py<PyType>) -> bool {
    // SAFETY: two live type objects.
    unsafe { pyo3::ffi::PyType_IsSubtype(ty.as_type_ptr(), base.bind(ty.py()).as_type_ptr()) != 0 }
}

/// The forms `packed` leaves, as cuda-python takes them:
/// - type None: an object with `getPtr()` is at that address; a ctypes object at its own;
///   an enum member is a C `int`; anything else that converts to an int (our pointer and
///   handle objects) is that address;
/// - `c_void_p`: a ctypes pointer's value, a CUDA integer object's `getPtr()`, an address;
/// - another ctypes scalar type: an instance of it by its own storage, else the value (a
///   ctypes scalar's `.value`, NumPy's numbers) converted, integers range-checked as above;
/// - a ctypes `Structure` or `Union`: an instance by its own storage, else `type(value)`.
fn other<'py>(
    value: &Bound<'py, PyAny>,
    ty: &Bound<'py, PyAny>,
    table: &[(Py<PyType>, Scalar)],
) -> PyResult<Slot<'py>> {
    let py = value.py();
    let ct = ctypes_classes(py)?;
    let addressof = |obj: &Bound<'py, PyAny>| -> PyResult<usize> {
        ct.addressof.bind(py).call1((obj,))?.extract()
    };
    if ty.is_none() {
        if let Ok(get) = value.getattr(pyo3::intern!(py, "getPtr")) {
            if get.is_callable() {
                return Ok(Slot::At(pointer_int(&get.call0()?)?));
            }
        }
        if is_ctypes_value(value, ct) {
            return Ok(Slot::At(addressof(value)?));
        }
        let (_, enum_base) = crate::convert::attr::enum_classes(py)?;
        if crate::convert::attr::is_subtype(value, enum_base.bind(py)) {
            let v = value.getattr(pyo3::intern!(py, "value"))?;
            return Ok(Slot::Value(int_of(&v, 4, "c_int")?));
        }
        return match pointer_int(value) {
            Ok(addr) => Ok(Slot::Value(addr as u64)),
            Err(e) if e.is_instance_of::<PyTypeError>(py) => Err(PyTypeError::new_err(format!(
                "kernelParams: a value of type {} with type None must have getPtr(), be a \
                 ctypes object or an integer",
                value.get_type().name()?
            ))),
            Err(e) => Err(e),
        };
    }
    let Ok(cls) = ty.downcast::<PyType>() else {
        return Err(unsupported(ty));
    };
    let scalar = table
        .iter()
        .find(|(c, _)| c.bind(py).is(cls))
        .map(|(_, k)| *k);
    if scalar == Some(Scalar::Ptr) {
        let addr = if let Some(addr) = crate::convert::pointer::ctypes_value(value)? {
            addr
        } else if value.is_instance_of::<crate::convert::int_view::IntView>()
            || (!value.is_exact_instance_of::<PyInt>() && value.is_instance_of::<PyInt>())
        {
            // A CUDA integer object, or one over the caller's memory: the kernel gets the
            // address of its storage.
            match value.getattr(pyo3::intern!(py, "getPtr")) {
                Ok(get) if get.is_callable() => pointer_int(&get.call0()?)?,
                _ => pointer_int(value)?,
            }
        } else {
            pointer_int(value)?
        };
        return Ok(Slot::Value(addr as u64));
    }
    let simple = derives(cls, &ct.simple);
    if !(simple || derives(cls, &ct.structure) || derives(cls, &ct.union)) {
        return Err(unsupported(ty));
    }
    if crate::convert::attr::is_subtype(value, cls) {
        return Ok(Slot::At(addressof(value)?)); // its own storage, as C would see it
    }
    let mut value = value.clone();
    if simple && crate::convert::attr::is_subtype(&value, ct.simple.bind(py)) {
        value = value.getattr(pyo3::intern!(py, "value"))?;
    }
    if let Some(Scalar::Int(size)) = scalar {
        // No float, as ctypes' integer types take none; the range as for plain ints.
        let name = cls.name()?.to_string();
        return Ok(Slot::Value(int_of(&value, size, &name)?));
    }
    let made = cls.call1((&value,))?;
    let addr = addressof(&made)?;
    Ok(Slot::Kept(made, addr))
}

/// An integer argument of a C integer type of `size` bytes: an int or an object with
/// `__index__` (NumPy's), no float.
fn int_of(value: &Bound<'_, PyAny>, size: usize, ctype: &str) -> PyResult<u64> {
    // SAFETY: a type-slot check on a live object.
    if !value.is_instance_of::<PyInt>()
        && unsafe { crate::convert::number::index_check(value.as_ptr()) } == 0
    {
        return Err(PyTypeError::new_err(format!(
            "kernelParams ({ctype}): '{}' object cannot be interpreted as an integer",
            value.get_type().name()?
        )));
    }
    // SAFETY: `value` is a live object with `__index__`.
    let int = unsafe {
        Bound::from_owned_ptr_or_err(value.py(), pyo3::ffi::PyNumber_Index(value.as_ptr()))?
    };
    int_in_range(&int, size).map_err(|e| {
        let py = value.py();
        match e.is_instance_of::<pyo3::exceptions::PyOverflowError>(py) {
            true => {
                pyo3::exceptions::PyOverflowError::new_err(format!("({ctype}) {}", e.value(py)))
            }
            false => e,
        }
    })
}

/// An address from an int, an object with `__index__`, or one with `__int__` that is no
/// number (our pointer and handle objects): 0 to 2**64 - 1.
fn pointer_int(value: &Bound<'_, PyAny>) -> PyResult<usize> {
    let py = value.py();
    // SAFETY: a type-slot check on a live object.
    let int = if value.is_instance_of::<PyInt>()
        || unsafe { crate::convert::number::index_check(value.as_ptr()) } != 0
    {
        // SAFETY: `value` is a live object with `__index__`.
        unsafe { Bound::from_owned_ptr_or_err(py, pyo3::ffi::PyNumber_Index(value.as_ptr()))? }
    } else if value.get_type().hasattr(pyo3::intern!(py, "__int__"))? && !is_number(value)? {
        value.call_method0(pyo3::intern!(py, "__int__"))?
    } else {
        return Err(PyTypeError::new_err(format!(
            "kernelParams: expected an address, got '{}'",
            value.get_type().name()?
        )));
    };
    Ok(address(&int)? as usize)
}

/// `numbers.Number`: a number without `__index__` (a float, NumPy's floats, `Decimal`) is no
/// address, though it has `__int__`.
static NUMBER: GILOnceCell<PyObject> = GILOnceCell::new();

fn is_number(value: &Bound<'_, PyAny>) -> PyResult<bool> {
    let py = value.py();
    if value.is_instance_of::<PyFloat>() {
        return Ok(true);
    }
    let number = NUMBER.get_or_try_init(py, || -> PyResult<PyObject> {
        Ok(py.import("numbers")?.getattr("Number")?.unbind())
    })?;
    value.is_instance(number.bind(py))
}

/// The error for a type entry that is neither None nor a ctypes class.
fn unsupported(ty: &Bound<'_, PyAny>) -> PyErr {
    PyTypeError::new_err(format!(
        "kernelParams: unsupported type {}",
        ty.repr().map(|r| r.to_string()).unwrap_or_default()
    ))
}

/// A Python int that fits `size` bytes as a signed or an unsigned integer, as its two's
/// complement bits; an OverflowError otherwise.
fn int_in_range(value: &Bound<'_, PyAny>, size: usize) -> PyResult<u64> {
    let mut overflow = 0;
    // SAFETY: `value` is a live int; the call only reads it.
    let v = unsafe { pyo3::ffi::PyLong_AsLongLongAndOverflow(value.as_ptr(), &mut overflow) };
    if overflow == 0 {
        if let Some(err) = PyErr::take(value.py()) {
            return Err(err);
        }
        let bits = (size * 8) as u32;
        let fits = bits >= 64 || (v >= -(1i64 << (bits - 1)) && v < (1i64 << bits));
        if fits {
            return Ok(v as u64);
        }
    } else if overflow > 0 && size >= 8 {
        // 2**63 to 2**64 - 1: an unsigned 64-bit value.
        return address(value);
    }
    Err(pyo3::exceptions::PyOverflowError::new_err(format!(
        "kernelParams: {} does not fit a {size}-byte integer",
        value.repr()?
    )))
}

/// A Python int as a 64-bit address: negative or wider values are an OverflowError.
fn address(value: &Bound<'_, PyAny>) -> PyResult<u64> {
    value.extract::<u64>().map_err(|_| {
        pyo3::exceptions::PyOverflowError::new_err(format!(
            "kernelParams: {} is no address (0 to 2**64 - 1)",
            value.repr().map(|r| r.to_string()).unwrap_or_default()
        ))
    })
}

/// The C values `kernelParams` stands for, 8 bytes per argument (for tests: what the kernel
/// would read).
pub fn packed_values(obj: &Bound<'_, PyAny>) -> PyResult<Vec<u64>> {
    let k = KernelParams::convert(obj)?;
    let n = match obj.downcast::<PyTuple>() {
        Ok(t) if t.len() == 2 => t.get_item(0)?.len()?,
        _ => return Ok(Vec::new()),
    };
    // SAFETY: `k` holds an array of `n` addresses of at least 8 readable bytes each
    // (ctypes objects of a smaller type are read here as 8 bytes: tests use 8-byte types
    // or compare the low bytes).
    Ok((0..n)
        .map(|i| unsafe {
            let p = *(k.addr as *const usize).add(i) as *const u64;
            p.read_unaligned()
        })
        .collect())
}
