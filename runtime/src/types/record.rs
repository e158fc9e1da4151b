//! Struct and union instances: memory with fields read and written through descriptors.

use crate::convert::kernel_params::KernelParams;
use crate::convert::pointer::{as_pointer, Pointer, PtrArg};
use crate::tables::{FieldDef, FieldKind, RecordDef, TypeDef};
use pyo3::exceptions::{PyIndexError, PyKeyError, PyOverflowError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyDict, PyInt, PyList, PyString, PyTuple, PyType};

/// What reading and writing fields needs of the registry their types refer to: a trait, so
/// that records do not depend on the registry that creates their classes
/// (`TypeRegistry` implements it).
pub trait FieldTypes: Sync {
    /// The member of enum `idx` with value `v` (a plain int where none has it).
    fn enum_member(&'static self, py: Python<'_>, idx: usize, v: i64) -> PyResult<PyObject>;
    /// The value of an argument for enum `idx`.
    fn enum_arg(&'static self, idx: usize, obj: &Bound<'_, PyAny>) -> PyResult<i64>;
    /// An instance of class `idx` at `addr`, keeping `owner` alive.
    fn instance_at(
        &'static self,
        py: Python<'_>,
        idx: usize,
        addr: usize,
        owner: Option<PyObject>,
    ) -> PyResult<PyObject>;
    /// The table entry of type `idx`.
    fn def(&self, idx: usize) -> &'static TypeDef;
    /// A new record of class `idx` holding a copy of the bytes at `addr`, where this
    /// registry reads an array's records as copies (cuda-python's do); None: as views.
    fn array_record_copy(
        &'static self,
        _py: Python<'_>,
        _idx: usize,
        _addr: usize,
    ) -> PyResult<Option<PyObject>> {
        Ok(None)
    }
    /// The object whose address holds a value of record `idx` for a field or an array
    /// element, and how many bytes of it the record takes: the value itself here; a
    /// registry whose classes a package resolves converts another shape of the record.
    fn record_value<'py>(
        &'static self,
        idx: usize,
        value: &Bound<'py, PyAny>,
    ) -> PyResult<(Bound<'py, PyAny>, usize)> {
        match self.def(idx) {
            TypeDef::Record(r) => Ok((value.clone(), r.size)),
            _ => Err(PyTypeError::new_err("not a record")),
        }
    }
}

/// `sizeof` the record class `cls` lays out.
pub(crate) fn class_size(cls: &Bound<'_, PyType>) -> PyResult<usize> {
    Ok(layout_of(cls)?.get().def.size)
}

/// A new instance of record class `cls` holding a copy of the record at `addr`.
///
/// # Safety
/// `addr` must hold a record of the size `cls` lays out.
pub(crate) unsafe fn copy_to_new(cls: &Bound<'_, PyType>, addr: usize) -> PyResult<PyObject> {
    let obj = cls.call0()?;
    let to = addr_of(&obj)?;
    // SAFETY: the caller's promise; `obj` was just made with the class's size.
    std::ptr::copy_nonoverlapping(addr as *const u8, to as *mut u8, class_size(cls)?);
    Ok(obj.unbind())
}

/// The layout of one record class, stored on the class as `_hipgen_layout_`.
#[pyclass(frozen, module = "hipgen_runtime")]
pub struct Layout {
    /// The record's table entry.
    pub def: &'static RecordDef,
    /// The registry its field types refer to.
    pub registry: &'static dyn FieldTypes,
}

/// A field descriptor on a record class.
#[pyclass(frozen, module = "hipgen_runtime")]
pub struct Field {
    /// The field's table entry.
    pub def: &'static FieldDef,
    /// The registry its type refers to.
    pub registry: &'static dyn FieldTypes,
}

/// The address of a struct instance.
pub(crate) fn addr_of(obj: &Bound<'_, PyAny>) -> PyResult<usize> {
    let addr = match as_pointer(obj) {
        Some(p) => p.get().addr(),
        None => obj.downcast::<Pointer>()?.get().addr(), // the TypeError
    };
    if addr == 0 {
        return Err(PyValueError::new_err("the struct points at NULL"));
    }
    Ok(addr)
}

#[pymethods]
impl Field {
    /// Reads the field of `obj` (or returns the descriptor on class access).
    fn __get__(
        slf: &Bound<'_, Self>,
        obj: Option<&Bound<'_, PyAny>>,
        _owner: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyObject> {
        let Some(obj) = obj.filter(|o| !o.is_none()) else {
            return Ok(slf.clone().into_any().unbind());
        };
        let f = slf.get();
        let base = addr_of(obj)?;
        read_field(obj.py(), f.registry, f.def, base, obj)
    }

    /// Offset of the field in bytes from the start of the record.
    #[getter]
    fn offset(&self) -> usize {
        self.def.offset
    }

    /// `(bit offset, width)` for bitfields, else None.
    #[getter]
    fn bits(&self) -> Option<(u8, u8)> {
        self.def.bits
    }

    /// The field's name.
    #[getter]
    fn name(&self) -> &'static str {
        self.def.name
    }

    /// `(size, signed, count)` of an integer field (count 1) or an array of integers (count
    /// its length), as the header lays it out; None for a field of another kind.
    #[getter]
    fn int_layout(&self) -> Option<(u8, bool, usize)> {
        match self.def.kind {
            FieldKind::Int { size, signed } => Some((size, signed, 1)),
            FieldKind::Array {
                elem: FieldKind::Int { size, signed },
                len,
                ..
            } => Some((*size, *signed, len)),
            _ => None,
        }
    }

    /// Whether the record keeps what the field is set to (a pointer field read as an
    /// address: the object given, or the C array a list was packed into).
    #[getter]
    fn keeps(&self) -> bool {
        matches!(
            self.def.kind,
            FieldKind::Address { .. } | FieldKind::KernelParams
        )
    }

    /// Writes the field of `obj`.
    fn __set__(&self, obj: &Bound<'_, PyAny>, value: &Bound<'_, PyAny>) -> PyResult<()> {
        let py = obj.py();
        let base = addr_of(obj)?;
        // What a pointer field is given lives as long as the record it belongs to: the
        // outermost record of a chain of views, before anything is written.
        let refs = match self.def.kind {
            FieldKind::Address { .. } | FieldKind::KernelParams => refs_of(obj)?,
            _ => None,
        };
        let packed = value.is_instance_of::<PyList>() || value.is_instance_of::<PyTuple>();
        if packed
            && refs.is_none()
            && matches!(
                self.def.kind,
                FieldKind::Address { elem: Some(_) } | FieldKind::KernelParams
            )
        {
            return Err(annotate(
                py,
                PyTypeError::new_err(
                    "the record this belongs to cannot keep a list's C array alive: give an address",
                ),
                self.def.name,
            ));
        }
        let kept = write_field(self.registry, self.def, base, value)
            .map_err(|e| annotate(py, e, self.def.name))?;
        if let Some(refs) = refs {
            let at = base + self.def.offset;
            match kept {
                // With the address written, which `clear_kept` compares against.
                // SAFETY: the field lies inside the record's memory.
                Some(k) => {
                    refs.set_item(at, (k, unsafe { (at as *const usize).read_unaligned() }))?
                }
                None => {
                    let _ = refs.del_item(at);
                }
            }
        }
        Ok(())
    }
}

/// Clears the pointer fields a record's `_hipgen_refs` dict `refs` kept objects for, where
/// each still holds the address written when it was set: for a view of memory the record does
/// not own, whose kept objects go with it (cuda-python's `Struct(_ptr=...)` clears them so, as
/// the memory's owner would otherwise hold dangling pointers).
///
/// # Safety
/// Every key of `refs` must be the address of a pointer field that is still writable.
pub unsafe fn clear_kept(refs: &Bound<'_, PyDict>) -> PyResult<()> {
    for (at, entry) in refs.iter() {
        let (at, written): (usize, usize) = (at.extract()?, entry.get_item(1)?.extract()?);
        let field = at as *mut usize;
        if field.read_unaligned() == written {
            field.write_unaligned(0);
        }
    }
    Ok(())
}

/// The objects the record `obj` belongs to keeps alive for its pointer fields, by the field's
/// address: a dict in the `_hipgen_refs` slot of the outermost record of a chain of nested
/// views (classes over tables of `Address` fields declare it), made on first use; None where
/// that record has no such slot (what the caller gives is then the caller's to keep).
fn refs_of<'py>(obj: &Bound<'py, PyAny>) -> PyResult<Option<Bound<'py, PyDict>>> {
    let py = obj.py();
    let mut root = obj.clone();
    while let Some(owner) = root
        .downcast::<Pointer>()
        .ok()
        .and_then(|p| p.get().owner.as_ref().map(|o| o.bind(py).clone()))
        .filter(|o| o.is_instance_of::<Struct>())
    {
        root = owner;
    }
    let name = pyo3::intern!(py, "_hipgen_refs");
    if let Ok(d) = root.getattr(name) {
        return Ok(Some(d.downcast_into::<PyDict>()?));
    }
    let d = PyDict::new(py);
    Ok(root.setattr(name, &d).is_ok().then_some(d))
}

/// Prefixes an error with the field's name.
pub(crate) fn annotate(py: Python<'_>, e: PyErr, field: &str) -> PyErr {
    annotate_as(py, e, &format!("field '{field}'"))
}

/// Prefixes an error with what it is about, keeping its type.
fn annotate_as(py: Python<'_>, e: PyErr, what: &str) -> PyErr {
    let msg = format!("{what}: {}", e.value(py));
    if e.is_instance_of::<PyOverflowError>(py) {
        PyOverflowError::new_err(msg)
    } else if e.is_instance_of::<PyValueError>(py) {
        PyValueError::new_err(msg)
    } else if e.is_instance_of::<PyTypeError>(py) {
        PyTypeError::new_err(msg)
    } else {
        e
    }
}

/// Reads an integer of `size` bytes at `addr`.
///
/// # Safety
/// `addr..addr+size` must be readable.
unsafe fn read_int(addr: usize, size: u8, signed: bool) -> i128 {
    let p = addr as *const u8;
    match (size, signed) {
        (1, true) => p.cast::<i8>().read_unaligned() as i128,
        (1, false) => p.read_unaligned() as i128,
        (2, true) => p.cast::<i16>().read_unaligned() as i128,
        (2, false) => p.cast::<u16>().read_unaligned() as i128,
        (4, true) => p.cast::<i32>().read_unaligned() as i128,
        (4, false) => p.cast::<u32>().read_unaligned() as i128,
        (_, true) => p.cast::<i64>().read_unaligned() as i128,
        (_, false) => p.cast::<u64>().read_unaligned() as i128,
    }
}

/// Writes an integer of `size` bytes at `addr` (the value is already range-checked).
///
/// # Safety
/// `addr..addr+size` must be writable.
unsafe fn write_int(addr: usize, size: u8, v: i128) {
    let p = addr as *mut u8;
    match size {
        1 => p.write_unaligned(v as u8),
        2 => p.cast::<u16>().write_unaligned(v as u16),
        4 => p.cast::<u32>().write_unaligned(v as u32),
        _ => p.cast::<u64>().write_unaligned(v as u64),
    }
}

/// Extracts an int that fits in `bits` bits of the given signedness.
pub fn int_in_range(value: &Bound<'_, PyAny>, bits: u32, signed: bool) -> PyResult<i128> {
    // An i64 first (one C call under abi3), else the full range.
    let v: i128 = match value.extract::<i64>() {
        Ok(v) => v as i128,
        Err(_) => crate::convert::number::int_arg(value)?,
    };
    let (lo, hi) = if signed {
        (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
    } else {
        (0, (1i128 << bits) - 1)
    };
    if v < lo || v > hi {
        return Err(PyOverflowError::new_err(format!(
            "{v} does not fit in a {}{bits}-bit integer",
            if signed { "signed " } else { "unsigned " }
        )));
    }
    Ok(v)
}

/// Reads the bits of a bitfield.
///
/// # Safety
/// The bytes covering the field must be readable.
unsafe fn read_bits(addr: usize, shift: u8, width: u8, signed: bool) -> i128 {
    let nbytes = (shift as usize + width as usize).div_ceil(8);
    let mut raw = 0u64;
    for i in 0..nbytes {
        raw |= ((addr as *const u8).add(i).read() as u64) << (8 * i);
    }
    let v = (raw >> shift) & ((1u64 << width) - 1);
    if signed && width > 0 && v >> (width - 1) == 1 {
        v as i128 - (1i128 << width)
    } else {
        v as i128
    }
}

/// Writes the bits of a bitfield, leaving the neighbouring bits as they are.
///
/// # Safety
/// The bytes covering the field must be writable.
unsafe fn write_bits(addr: usize, shift: u8, width: u8, v: i128) {
    let nbytes = (shift as usize + width as usize).div_ceil(8);
    let mask = ((1u64 << width) - 1) << shift;
    let mut raw = 0u64;
    for i in 0..nbytes {
        raw |= ((addr as *const u8).add(i).read() as u64) << (8 * i);
    }
    raw = (raw & !mask) | (((v as u64) << shift) & mask);
    for i in 0..nbytes {
        (addr as *mut u8).add(i).write((raw >> (8 * i)) as u8);
    }
}

/// Reads a field of the record at `base`.
pub(crate) fn read_field(
    py: Python<'_>,
    reg: &'static dyn FieldTypes,
    f: &FieldDef,
    base: usize,
    owner: &Bound<'_, PyAny>,
) -> PyResult<PyObject> {
    let addr = base + f.offset;
    if let Some((shift, width)) = f.bits {
        let signed = matches!(f.kind, FieldKind::Int { signed: true, .. });
        // SAFETY: the field lies inside the record's memory.
        let v = unsafe { read_bits(addr, shift, width, signed) };
        return match &f.kind {
            FieldKind::Enum { ty, .. } => reg.enum_member(py, *ty, v as i64),
            FieldKind::Bool => Ok(pyo3::types::PyBool::new(py, v != 0)
                .to_owned()
                .into_any()
                .unbind()),
            _ => Ok(v.into_pyobject(py)?.into_any().unbind()),
        };
    }
    read_kind(py, reg, &f.kind, addr, owner)
}

/// Reads a value of `kind` at `addr`.
fn read_kind(
    py: Python<'_>,
    reg: &'static dyn FieldTypes,
    kind: &FieldKind,
    addr: usize,
    owner: &Bound<'_, PyAny>,
) -> PyResult<PyObject> {
    // SAFETY (all reads below): `addr` lies inside the record's memory, which `owner` keeps.
    Ok(match kind {
        // 64-bit conversions: an i128 goes through three PyLongs under abi3.
        FieldKind::Int { size, signed: true } => (unsafe { read_int(addr, *size, true) } as i64)
            .into_pyobject(py)?
            .into_any()
            .unbind(),
        FieldKind::Int {
            size,
            signed: false,
        } => (unsafe { read_int(addr, *size, false) } as u64)
            .into_pyobject(py)?
            .into_any()
            .unbind(),
        FieldKind::Bool => pyo3::types::PyBool::new(py, unsafe { *(addr as *const u8) } != 0)
            .to_owned()
            .into_any()
            .unbind(),
        FieldKind::Float { size: 4 } => unsafe { (addr as *const f32).read_unaligned() as f64 }
            .into_pyobject(py)?
            .into_any()
            .unbind(),
        FieldKind::Float { .. } => unsafe { (addr as *const f64).read_unaligned() }
            .into_pyobject(py)?
            .into_any()
            .unbind(),
        FieldKind::Enum { ty, size, signed } => {
            reg.enum_member(py, *ty, unsafe { read_int(addr, *size, *signed) } as i64)?
        }
        FieldKind::Record(ty) => reg.instance_at(py, *ty, addr, Some(owner.clone().unbind()))?,
        FieldKind::Handle(ty) => {
            let v = unsafe { (addr as *const usize).read_unaligned() };
            reg.instance_at(py, *ty, v, None)?
        }
        FieldKind::Pointer => {
            let v = unsafe { (addr as *const usize).read_unaligned() };
            Bound::new(py, Pointer::at(v))?.into_any().unbind()
        }
        FieldKind::Chars(len) => {
            let bytes = unsafe { std::slice::from_raw_parts(addr as *const u8, *len) };
            let end = bytes.iter().position(|b| *b == 0).unwrap_or(*len);
            PyBytes::new(py, &bytes[..end]).into_any().unbind()
        }
        FieldKind::Text(len) => {
            let bytes = unsafe { std::slice::from_raw_parts(addr as *const u8, *len) };
            PyBytes::new(py, text_of(bytes)).into_any().unbind()
        }
        FieldKind::Bytes(len) => {
            let bytes = unsafe { std::slice::from_raw_parts(addr as *const u8, *len) };
            PyBytes::new(py, bytes).into_any().unbind()
        }
        FieldKind::Address { .. } | FieldKind::KernelParams => {
            unsafe { (addr as *const usize).read_unaligned() }
                .into_pyobject(py)?
                .into_any()
                .unbind()
        }
        FieldKind::Array { elem, len, stride } => {
            read_array(py, reg, elem, *len, *stride, addr, owner)?
        }
    })
}

/// Reads an array of `len` elements of `elem`, `stride` bytes apart from `addr`, as a list: a
/// record element as the copy the registry makes of one where it does, else as a view.
fn read_array(
    py: Python<'_>,
    reg: &'static dyn FieldTypes,
    elem: &FieldKind,
    len: usize,
    stride: usize,
    addr: usize,
    owner: &Bound<'_, PyAny>,
) -> PyResult<PyObject> {
    let items = PyList::empty(py);
    for i in 0..len {
        let at = addr + i * stride;
        let copy = match elem {
            FieldKind::Record(ty) => reg.array_record_copy(py, *ty, at)?,
            _ => None,
        };
        match copy {
            Some(c) => items.append(c)?,
            None => items.append(read_kind(py, reg, elem, at, owner)?)?,
        }
    }
    Ok(items.into_any().unbind())
}

/// Writes a field of the record at `base`; returns what the record must keep alive for it (the
/// C array a list given to an `Address` field was packed into).
pub(crate) fn write_field(
    reg: &'static dyn FieldTypes,
    f: &FieldDef,
    base: usize,
    value: &Bound<'_, PyAny>,
) -> PyResult<Option<PyObject>> {
    let addr = base + f.offset;
    if let Some((shift, width)) = f.bits {
        let v = match &f.kind {
            FieldKind::Enum { ty, .. } => reg.enum_arg(*ty, value)? as i128,
            FieldKind::Bool => value.is_truthy()? as i128,
            FieldKind::Int { signed, .. } => int_in_range(value, width as u32, *signed)?,
            _ => return Err(PyTypeError::new_err("unsupported bitfield type")),
        };
        // SAFETY: the field lies inside the record's memory.
        unsafe { write_bits(addr, shift, width, v) };
        return Ok(None);
    }
    if let FieldKind::KernelParams = &f.kind {
        let (at, kept) = KernelParams::convert(value)?.kept(value)?;
        // SAFETY: the field lies inside the record's memory.
        unsafe { (addr as *mut usize).write_unaligned(at) };
        return Ok(kept);
    }
    if let FieldKind::Address { elem } = &f.kind {
        let list = value.is_instance_of::<PyList>() || value.is_instance_of::<PyTuple>();
        if let (Some(elem), true) = (elem, list) {
            let packed = pack(reg, elem, value)?;
            let at = packed.downcast::<PyByteArray>()?.data() as usize;
            // SAFETY: the field lies inside the record's memory.
            unsafe { (addr as *mut usize).write_unaligned(at) };
            return Ok(Some(packed.unbind()));
        }
        write_kind(reg, &f.kind, addr, value)?;
        // The object whose memory C will read (a NumPy array given as `dstHost`) lives as
        // long as the record; an address is the caller's to keep.
        let plain = value.is_none() || value.is_instance_of::<PyInt>();
        return Ok((!plain).then(|| value.clone().unbind()));
    }
    write_kind(reg, &f.kind, addr, value)?;
    Ok(None)
}

/// The bytes of one element of `kind` in a C array.
fn elem_size(reg: &'static dyn FieldTypes, kind: &FieldKind) -> PyResult<usize> {
    Ok(match kind {
        FieldKind::Int { size, .. } | FieldKind::Float { size } | FieldKind::Enum { size, .. } => {
            *size as usize
        }
        FieldKind::Bool => 1,
        FieldKind::Handle(_)
        | FieldKind::Pointer
        | FieldKind::Address { .. }
        | FieldKind::KernelParams => size_of::<usize>(),
        FieldKind::Chars(len) | FieldKind::Text(len) | FieldKind::Bytes(len) => *len,
        FieldKind::Array { len, stride, .. } => len * stride,
        FieldKind::Record(ty) => match reg.def(*ty) {
            TypeDef::Record(r) => r.size,
            _ => return Err(PyTypeError::new_err("not a record")),
        },
    })
}

/// A C array of `values` (cuda-python's list for a `T *` field), each written as a field of
/// `elem` is: a copy, so changing a value later changes nothing. A bytearray, freed with it.
fn pack<'py>(
    reg: &'static dyn FieldTypes,
    elem: &FieldKind,
    values: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let py = values.py();
    let items: Vec<Bound<'py, PyAny>> = values.try_iter()?.collect::<PyResult<_>>()?;
    let element = |i: usize, e: PyErr| annotate_as(py, e, &format!("element {i}"));
    // Records: each value as the registry passes it (converted where it is another shape),
    // the size the class it resolves to lays out.
    let mut records = Vec::new();
    let stride = match elem {
        FieldKind::Record(ty) => {
            let mut size = elem_size(reg, elem)?;
            for (i, v) in items.iter().enumerate() {
                let (obj, n) = reg.record_value(*ty, v).map_err(|e| element(i, e))?;
                size = n;
                records.push(obj);
            }
            size
        }
        _ => elem_size(reg, elem)?,
    };
    let buf = PyByteArray::new(py, &vec![0u8; (stride * items.len()).max(1)]);
    let base = buf.data() as usize;
    for (i, v) in items.iter().enumerate() {
        let at = base + i * stride;
        match records.get(i) {
            Some(obj) => copy_record(obj, at, stride).map_err(|e| element(i, e))?,
            None => write_kind(reg, elem, at, v).map_err(|e| element(i, e))?,
        }
    }
    Ok(buf.into_any())
}

/// Copies `size` bytes of the record `obj` (any pointer-like object) to `to`.
fn copy_record(obj: &Bound<'_, PyAny>, to: usize, size: usize) -> PyResult<()> {
    if let Ok(cls) = obj
        .get_type()
        .getattr(pyo3::intern!(obj.py(), "_hipgen_layout_"))
    {
        let have = cls.downcast::<Layout>()?.get().def.size;
        if have < size {
            return Err(PyTypeError::new_err(format!(
                "a {} ({have} bytes) is no record of {size} bytes",
                obj.get_type().name()?
            )));
        }
    }
    let arg = PtrArg::convert(obj, false)?;
    if arg.buffer_len().is_some_and(|len| len < size) {
        return Err(PyValueError::new_err(format!(
            "a buffer of {} bytes is no record of {size} bytes",
            arg.buffer_len().unwrap_or(0)
        )));
    }
    let src = arg.addr;
    if src == 0 {
        return Err(PyValueError::new_err("expected a record, got NULL"));
    }
    // SAFETY: `src` holds at least `size` bytes (a record of that size, or memory the caller
    // gave as one); `to` is the field's or the array's memory.
    unsafe { std::ptr::copy(src as *const u8, to as *mut u8, size) };
    Ok(())
}

/// The bytes of a `char` array as cuda-python shows them: the text before a NUL where only
/// NULs follow, else all of them.
fn text_of(bytes: &[u8]) -> &[u8] {
    match bytes.iter().position(|b| *b == 0) {
        Some(end) if end > 0 && bytes[end..].iter().all(|b| *b == 0) => &bytes[..end],
        _ => bytes,
    }
}

/// The bytes a `char` array is set to from bytes, a str, or integers in -128..255.
fn text_value(value: &Bound<'_, PyAny>, len: usize) -> PyResult<Vec<u8>> {
    if let Ok(s) = value.downcast::<PyString>() {
        return Ok(s.to_cow()?.as_bytes().to_vec());
    }
    byte_string(value, len, -128, "a char")
}

/// The bytes an `unsigned char[len]` field (`FieldKind::Bytes`) is set to: bytes, or integers
/// in 0..=255 (cuda-python stores each item of what it is given); a str is no bytes there.
fn byte_values(value: &Bound<'_, PyAny>, len: usize) -> PyResult<Vec<u8>> {
    if value.is_instance_of::<PyString>() {
        return Err(PyTypeError::new_err("expected bytes or integers, got str"));
    }
    byte_string(value, len, 0, "an unsigned char")
}

/// Bytes, a bytearray, a memoryview, or up to `len` + 1 integers in `low..=255`.
fn byte_string(value: &Bound<'_, PyAny>, len: usize, low: i128, what: &str) -> PyResult<Vec<u8>> {
    if let Ok(b) = value.downcast::<PyBytes>() {
        return Ok(b.as_bytes().to_vec());
    }
    if let Ok(b) = value.downcast::<PyByteArray>() {
        return Ok(b.to_vec());
    }
    if value.is_instance_of::<pyo3::types::PyMemoryView>() {
        return value.call_method0("tobytes")?.extract();
    }
    if value.is_instance_of::<Pointer>() {
        return Err(PyTypeError::new_err(format!(
            "expected bytes, a str or integers, got {}",
            value.get_type().name()?
        )));
    }
    let mut out = Vec::new();
    // At most one more than fits: enough to say it does not.
    for (i, v) in value.try_iter()?.take(len + 1).enumerate() {
        let v = int_in_range(&v?, 16, true)
            .ok()
            .filter(|v| (low..=255).contains(v))
            .ok_or_else(|| {
                PyOverflowError::new_err(format!("element {i} ({what}) is not in {low}..255"))
            })?;
        out.push(v as u8);
    }
    Ok(out)
}

/// Writes a value of `kind` at `addr`.
fn write_kind(
    reg: &'static dyn FieldTypes,
    kind: &FieldKind,
    addr: usize,
    value: &Bound<'_, PyAny>,
) -> PyResult<()> {
    // SAFETY (all writes below): `addr` lies inside the record's memory.
    match kind {
        FieldKind::Int { size, signed } => {
            let v = int_in_range(value, *size as u32 * 8, *signed)?;
            unsafe { write_int(addr, *size, v) }
        }
        FieldKind::Bool => unsafe { *(addr as *mut u8) = value.is_truthy()? as u8 },
        FieldKind::Float { size: 4 } => {
            let v: f64 = value.extract()?;
            unsafe { (addr as *mut f32).write_unaligned(v as f32) }
        }
        FieldKind::Float { .. } => {
            let v: f64 = value.extract()?;
            unsafe { (addr as *mut f64).write_unaligned(v) }
        }
        FieldKind::Enum { ty, size, signed } => write_enum(reg, *ty, *size, *signed, addr, value)?,
        FieldKind::Record(ty) => {
            let (obj, size) = reg.record_value(*ty, value)?;
            copy_record(&obj, addr, size)?
        }
        FieldKind::Handle(_)
        | FieldKind::Pointer
        | FieldKind::Address { .. }
        | FieldKind::KernelParams => {
            let v = PtrArg::convert(value, false)?.addr;
            unsafe { (addr as *mut usize).write_unaligned(v) }
        }
        FieldKind::Chars(len) | FieldKind::Text(len) | FieldKind::Bytes(len) => {
            write_chars(kind, *len, addr, value)?
        }
        FieldKind::Array { elem, len, stride } => {
            write_array(reg, elem, *len, *stride, addr, value)?
        }
    }
    Ok(())
}

/// Writes an enum value of `size` bytes at `addr` (an `OverflowError` where it does not fit).
fn write_enum(
    reg: &'static dyn FieldTypes,
    ty: usize,
    size: u8,
    signed: bool,
    addr: usize,
    value: &Bound<'_, PyAny>,
) -> PyResult<()> {
    let v = reg.enum_arg(ty, value)? as i128;
    let bits = size as u32 * 8;
    if (signed && (v < -(1i128 << (bits - 1)) || v >= 1i128 << (bits - 1)))
        || (!signed && (v < 0 || v >= 1i128 << bits))
    {
        return Err(PyOverflowError::new_err(format!(
            "{v} is out of the enum's range"
        )));
    }
    // SAFETY: `addr` lies inside the record's memory (`write_kind`).
    unsafe { write_int(addr, size, v) }
    Ok(())
}

/// Writes a `char[len]` field of `kind` (`Chars`, `Text` or `Bytes`) at `addr`, zero-filled
/// past the value.
fn write_chars(
    kind: &FieldKind,
    len: usize,
    addr: usize,
    value: &Bound<'_, PyAny>,
) -> PyResult<()> {
    let bytes: Vec<u8> = if matches!(kind, FieldKind::Text(_)) {
        text_value(value, len)?
    } else if matches!(kind, FieldKind::Bytes(_)) {
        byte_values(value, len)?
    } else if let Ok(s) = value.downcast::<PyString>() {
        s.to_cow()?.as_bytes().to_vec()
    } else {
        value.extract()?
    };
    if bytes.len() > len {
        return Err(PyValueError::new_err(format!(
            "{} bytes do not fit in char[{len}]",
            bytes.len()
        )));
    }
    // SAFETY: `addr` lies inside the record's memory (`write_kind`), `len` bytes long; the
    // value is no longer.
    unsafe {
        std::ptr::write_bytes(addr as *mut u8, 0, len);
        std::ptr::copy_nonoverlapping(bytes.as_ptr(), addr as *mut u8, bytes.len());
    }
    Ok(())
}

/// Writes an array field of `len` elements of `elem`, `stride` bytes apart, from a sequence.
fn write_array(
    reg: &'static dyn FieldTypes,
    elem: &FieldKind,
    len: usize,
    stride: usize,
    addr: usize,
    value: &Bound<'_, PyAny>,
) -> PyResult<()> {
    // A pointer iterates through `__getitem__` without end: it is no sequence here.
    let endless = value.is_instance_of::<Pointer>() && !value.is_instance_of::<Struct>();
    if endless || value.is_instance_of::<PyString>() {
        return Err(PyTypeError::new_err(format!(
            "expected a sequence of {len} values, got {}",
            value.get_type().name()?
        )));
    }
    // At most one more than fits: enough to say it does not.
    let items: Vec<Bound<'_, PyAny>> = value.try_iter()?.take(len + 1).collect::<PyResult<_>>()?;
    if items.len() > len {
        return Err(PyValueError::new_err(format!(
            "more than {len} values for an array of {len}"
        )));
    }
    for (i, item) in items.iter().enumerate() {
        write_kind(reg, elem, addr + i * stride, item)?;
    }
    Ok(())
}

/// Zero bytes a record made here holds past its end (see `Struct::new`).
const RECORD_TAIL: usize = 32;

/// Base class of every generated struct and union class (frozen: no borrow flag to take).
#[pyclass(extends = Pointer, subclass, frozen, module = "hipgen_runtime")]
pub struct Struct;

/// The layout stored on a record class.
pub(crate) fn layout_of<'py>(cls: &Bound<'py, PyType>) -> PyResult<Bound<'py, Layout>> {
    cls.getattr("_hipgen_layout_")?
        .downcast_into::<Layout>()
        .map_err(|_| PyTypeError::new_err("not a generated struct class"))
}

impl Struct {
    /// An instance of `cls` viewing memory at `addr`, kept alive by `owner`.
    pub fn view(
        cls: &Bound<'_, PyType>,
        addr: usize,
        owner: Option<PyObject>,
    ) -> PyResult<PyObject> {
        let kw = PyDict::new(cls.py());
        kw.set_item("_hipgen_view", (addr, owner))?;
        Ok(cls.call((), Some(&kw))?.unbind())
    }
}

#[pymethods]
impl Struct {
    /// Allocates a zeroed instance; positional and keyword arguments set fields in order
    /// and by name.
    #[new]
    #[classmethod]
    #[pyo3(signature = (*args, **kwargs))]
    fn new(
        cls: &Bound<'_, PyType>,
        args: &Bound<'_, PyTuple>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<PyClassInitializer<Self>> {
        let py = cls.py();
        if let Some(view) = kwargs.and_then(|k| k.get_item("_hipgen_view").ok().flatten()) {
            let (addr, owner): (usize, Option<PyObject>) = view.extract()?;
            return Ok(PyClassInitializer::from(Pointer::owned(addr, owner)).add_subclass(Struct));
        }
        let layout = layout_of(cls)?;
        let layout = layout.get();
        let def = layout.def;
        // The memory is a bytearray: allocated by Python, 16-byte aligned, freed with it. It
        // ends in zeros past the struct: a library built against a header whose struct has
        // grown at its end (CUDA's `cudaTextureDesc`, 8 bytes longer than HIP's) reads the
        // fields it added as their zero default, not as whatever memory follows.
        let storage = PyByteArray::new(py, &vec![0u8; def.size + RECORD_TAIL]);
        let base = storage.data() as usize;
        for f in def.fields {
            if let Some(d) = f.default {
                write_field(layout.registry, f, base, &PyInt::new(py, d))?;
            }
        }
        if args.len() > def.fields.len() {
            return Err(PyValueError::new_err(format!(
                "{} takes at most {} positional arguments ({} given)",
                def.name,
                def.fields.len(),
                args.len()
            )));
        }
        // What pointer fields were given (and the C arrays lists were packed into): the new
        // record's owner keeps them (`refs_of` keeps what fields are set to later).
        let mut kept = Vec::new();
        let mut set = |f: &FieldDef, v: &Bound<'_, PyAny>| -> PyResult<()> {
            let k =
                write_field(layout.registry, f, base, v).map_err(|e| annotate(py, e, f.name))?;
            kept.extend(k);
            Ok(())
        };
        for (f, v) in def.fields.iter().zip(args.iter()) {
            set(f, &v)?;
        }
        if let Some(kw) = kwargs {
            for (k, v) in kw.iter() {
                let name: String = k.extract()?;
                let pos = def.fields.iter().position(|f| f.name == name);
                match pos {
                    Some(i) if i < args.len() => {
                        return Err(PyKeyError::new_err(format!(
                            "argument '{name}' has already been given as positional argument"
                        )))
                    }
                    Some(i) => set(&def.fields[i], &v)?,
                    None => {
                        return Err(PyKeyError::new_err(format!(
                            "'{name}' is not a field of {}; fields: {}",
                            def.name,
                            def.fields
                                .iter()
                                .map(|f| f.name)
                                .collect::<Vec<_>>()
                                .join(", ")
                        )))
                    }
                }
            }
        }
        let owner = if kept.is_empty() {
            storage.into_any().unbind()
        } else {
            let kept = PyTuple::new(py, kept)?;
            PyTuple::new(py, [storage.into_any(), kept.into_any()])?
                .into_any()
                .unbind()
        };
        Ok(PyClassInitializer::from(Pointer::owned(base, Some(owner))).add_subclass(Struct))
    }

    /// A view of the struct at any pointer-like object's address (no copy).
    #[classmethod]
    #[pyo3(name = "fromObj")]
    fn from_obj(cls: &Bound<'_, PyType>, pyobj: &Bound<'_, PyAny>) -> PyResult<PyObject> {
        if pyobj.is_instance(cls)? {
            return Ok(pyobj.clone().unbind());
        }
        let addr = PtrArg::convert(pyobj, false)?.addr;
        Struct::view(cls, addr, Some(pyobj.clone().unbind()))
    }

    /// The struct's address (cuda-python's `getPtr()`).
    #[pyo3(name = "getPtr")]
    fn get_ptr(slf: &Bound<'_, Self>) -> usize {
        slf.as_super().get().addr()
    }

    /// Field names in declaration order.
    #[classmethod]
    #[pyo3(name = "PROPERTIES")]
    fn properties(cls: &Bound<'_, PyType>) -> PyResult<Vec<&'static str>> {
        Ok(layout_of(cls)?
            .get()
            .def
            .fields
            .iter()
            .map(|f| f.name)
            .collect())
    }

    /// `sizeof` of the C type.
    fn c_sizeof(slf: &Bound<'_, Self>) -> PyResult<usize> {
        Ok(layout_of(&slf.get_type())?.get().def.size)
    }

    /// Field values in declaration order, so that `*dim3(x=32)` unpacks.
    fn __iter__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        let values = PyList::empty(slf.py());
        for f in layout_of(&slf.get_type())?.get().def.fields {
            values.append(slf.getattr(f.name)?)?;
        }
        values.try_iter().map(|i| i.into_any())
    }

    /// A field value by name or position.
    fn __getitem__(slf: &Bound<'_, Self>, item: &Bound<'_, PyAny>) -> PyResult<PyObject> {
        let layout = layout_of(&slf.get_type())?;
        let fields = layout.get().def.fields;
        let name = if let Ok(i) = item.extract::<usize>() {
            fields
                .get(i)
                .ok_or_else(|| PyIndexError::new_err("field index out of range"))?
                .name
        } else {
            let n: String = item.extract()?;
            fields
                .iter()
                .find(|f| f.name == n)
                .ok_or_else(|| PyKeyError::new_err(n))?
                .name
        };
        Ok(slf.getattr(name)?.unbind())
    }

    /// Whether a field of that name exists.
    fn __contains__(slf: &Bound<'_, Self>, item: &str) -> PyResult<bool> {
        Ok(layout_of(&slf.get_type())?
            .get()
            .def
            .fields
            .iter()
            .any(|f| f.name == item))
    }

    /// `Name(field=value, ...)`.
    fn __repr__(slf: &Bound<'_, Self>) -> PyResult<String> {
        let layout = layout_of(&slf.get_type())?;
        let def = layout.get().def;
        let mut parts = Vec::new();
        for f in def.fields {
            parts.push(format!("{}={}", f.name, slf.getattr(f.name)?.repr()?));
        }
        Ok(format!("{}({})", def.name, parts.join(", ")))
    }
}

#[cfg(test)]
mod bitfield_tests {
    use super::{read_bits, write_bits};

    #[test]
    fn a_bitfield_reads_and_writes_only_its_bits() {
        // `unsigned a : 3, b : 7, c : 6` packed from bit 0, over bytes that start all ones.
        let mut bytes = [0xffu8; 4];
        let addr = bytes.as_mut_ptr() as usize;
        // SAFETY: every access stays within `bytes`.
        unsafe {
            write_bits(addr, 3, 7, 0b1010101);
            assert_eq!(read_bits(addr, 3, 7, false), 0b1010101);
            // The neighbours, below and above (across the byte boundary), keep their ones.
            assert_eq!(read_bits(addr, 0, 3, false), 0b111);
            assert_eq!(read_bits(addr, 10, 6, false), 0b111111);
        }
        assert_eq!(bytes[2..], [0xff, 0xff]);
    }

    #[test]
    fn a_signed_bitfield_extends_its_sign() {
        let mut bytes = [0u8; 2];
        let addr = bytes.as_mut_ptr() as usize;
        // SAFETY: every access stays within `bytes`.
        unsafe {
            write_bits(addr, 4, 5, -3);
            assert_eq!(read_bits(addr, 4, 5, true), -3);
            assert_eq!(read_bits(addr, 4, 5, false), 0b11101);
            assert_eq!(read_bits(addr, 0, 4, false), 0);
        }
    }
}
