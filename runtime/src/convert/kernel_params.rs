//! Kernel arguments given as cuda-python gives `kernelParams`, made into the `void *[]` C
//! takes: None (no arguments), an int (the address of such an array), a pair of tuples
//! `((values...), (types...))` whose types are ctypes scalar classes or None (the value is a
//! pointer or an object with `getPtr()`), or anything pointer-like (a NumPy array of
//! addresses), which converts as any pointer argument.
//!
//! Values of the common forms (ints and floats with ctypes scalar types; ints, CUDA's integer
//! objects and our pointer objects with None) are packed here; any other pair is handed to a Python function given by
//! the caller (`fallback(value, type, keep)` returning the address of the value's C object,
//! keeping what it made alive in `keep`), so the rules for the rare forms live in one place.

use crate::convert::pointer::{DeviceArray, Pointer, PtrArg};
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
    /// What the Python fallback made (ctypes objects), kept alive.
    _keep: Option<Py<PyList>>,
    /// A pointer-like argument's conversion (a buffer export).
    _ptr: Option<PtrArg>,
}

impl KernelParams {
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

    /// Converts `obj`; `fallback` gives the Python function for the forms not packed here.
    pub fn convert<'py>(
        obj: &Bound<'py, PyAny>,
        fallback: impl Fn() -> PyResult<Bound<'py, PyAny>>,
    ) -> PyResult<KernelParams> {
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
                    return Self::pack(values, types, fallback);
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
        fallback: impl Fn() -> PyResult<Bound<'py, PyAny>>,
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
            let addr = if let Some(bits) = packed(&value, &ty, table)? {
                // SAFETY: `i < n` is in the value half of `buf`.
                unsafe { base.add(i).write(bits) };
                base.wrapping_add(i) as usize
            } else {
                let keep = match &keep {
                    Some(k) => k,
                    None => keep.insert(PyList::empty(py)),
                };
                fallback()?.call1((&value, &ty, keep))?.extract()?
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
        // `int`) go to the fallback.
        if value.is_instance_of::<PyInt>() {
            let (_, enum_base) = crate::types::registry::enum_classes(value.py())?;
            if !crate::types::registry::is_subtype(value, enum_base.bind(value.py())) {
                return Ok(Some(int_in_range(value, 8)?));
            }
            return Ok(None);
        }
        // Only our own classes, whose `getPtr()` is that slot: structs (and subclasses
        // written in Python) give other addresses, so the fallback asks them.
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
pub fn packed_values<'py>(
    obj: &Bound<'py, PyAny>,
    fallback: impl Fn() -> PyResult<Bound<'py, PyAny>>,
) -> PyResult<Vec<u64>> {
    let k = KernelParams::convert(obj, fallback)?;
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
