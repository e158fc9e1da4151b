//! Copying a record into a record of another table by field name: the same C struct as two
//! headers lay it out (HIP's and CUDA's), where one lacks fields of the other or holds them
//! at other offsets.

use crate::tables::{FieldDef, FieldKind, RecordDef, TypeDef};
use crate::types::record::{layout_of, read_field, write_field, FieldTypes};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// One side of a copy: a record's table entry, the registry its fields refer to, its address.
#[derive(Clone, Copy)]
struct Side {
    def: &'static RecordDef,
    reg: &'static dyn FieldTypes,
    addr: usize,
}

/// Copies the fields of record `src` into record `dst` by name (both instances of classes
/// the runtime lays out). Numbers, enums, pointers and `char` arrays of one size in both are
/// copied as bytes, nested records field by field, arrays as far as both reach; a field of
/// two other kinds is read from `src` and written to `dst` as a Python value. A union is
/// copied as bytes (which member is in use, C does not say). With `strict` (a record a C
/// function is given), a field `dst` lacks must be zero in `src`, as C could not be told its
/// value: ValueError.
pub fn copy_fields(dst: &Bound<'_, PyAny>, src: &Bound<'_, PyAny>, strict: bool) -> PyResult<()> {
    let side = |obj: &Bound<'_, PyAny>| -> PyResult<Side> {
        let layout = layout_of(&obj.get_type())?;
        let layout = layout.get();
        Ok(Side {
            def: layout.def,
            reg: layout.registry,
            addr: crate::types::record::addr_of(obj)?,
        })
    };
    copy_record(src.py(), side(dst)?, side(src)?, strict, src)
}

fn copy_record(
    py: Python<'_>,
    dst: Side,
    src: Side,
    strict: bool,
    owner: &Bound<'_, PyAny>,
) -> PyResult<()> {
    if is_union(src.def) {
        // SAFETY: both records hold at least the smaller size.
        unsafe { copy_bytes(dst.addr, src.addr, dst.def.size.min(src.def.size)) };
        return Ok(());
    }
    for f in src.def.fields {
        let Some(d) = dst.def.fields.iter().find(|d| d.name == f.name) else {
            // One struct's `gridDimX` is the other's `gridDim.x` (CUDA's driver structs spell
            // out what HIP's hold as a dim3).
            if let Some((inner, d)) = split_target(dst, f.name) {
                copy_field(py, inner, d, src, f, strict, owner)
                    .map_err(|e| super::record::annotate(py, e, f.name))?;
                continue;
            }
            if let Some(parts) = joined_targets(dst, src, f) {
                for (d, inner, g) in parts {
                    copy_field(py, dst, d, inner, g, strict, owner)
                        .map_err(|e| super::record::annotate(py, e, d.name))?;
                }
                continue;
            }
            // A member of a union flattened into the record (`localized` beside `id`) shares
            // its bytes with a field `dst` has: those bytes are that field's value.
            let shared = src.def.fields.iter().any(|g| {
                g.offset == f.offset
                    && g.name != f.name
                    && dst.def.fields.iter().any(|d| d.name == g.name)
            });
            if strict && !shared && !is_zero(src.addr + f.offset, extent(src.def, f)) {
                let value = read_field(py, src.reg, f, src.addr, owner)?;
                return Err(PyValueError::new_err(format!(
                    "{} has no field '{}': its value {} cannot be passed",
                    dst.def.name,
                    f.name,
                    value.bind(py).repr()?
                )));
            }
            continue;
        };
        copy_field(py, dst, d, src, f, strict, owner)
            .map_err(|e| super::record::annotate(py, e, f.name))?;
    }
    Ok(())
}

/// For a field `<stem>X` (`Y`, `Z`) `dst` lacks: `dst`'s record field `<stem>` as a side of
/// its own, and its member `x` (`y`, `z`).
fn split_target(dst: Side, name: &str) -> Option<(Side, &'static FieldDef)> {
    let (stem, axis) = name.split_at(name.len().checked_sub(1)?);
    if !matches!(axis, "X" | "Y" | "Z") {
        return None;
    }
    let outer = dst.def.fields.iter().find(|d| d.name == stem)?;
    let inner = nested(dst, outer)?;
    let d = inner
        .def
        .fields
        .iter()
        .find(|g| g.name.eq_ignore_ascii_case(axis))?;
    Some((inner, d))
}

/// For a record field `f` of `src` (`gridDim`) that `dst` lacks: `dst`'s fields
/// `<f><Member>` (`gridDimX`), each with `f`'s member it takes, where `dst` has them all.
fn joined_targets(
    dst: Side,
    src: Side,
    f: &'static FieldDef,
) -> Option<Vec<(&'static FieldDef, Side, &'static FieldDef)>> {
    let inner = nested(src, f)?;
    inner
        .def
        .fields
        .iter()
        .map(|g| {
            let name = format!("{}{}", f.name, g.name.to_ascii_uppercase());
            let d = dst.def.fields.iter().find(|d| d.name == name)?;
            Some((d, inner, g))
        })
        .collect()
}

/// The record field `f` of `side` as a side of its own.
fn nested(side: Side, f: &FieldDef) -> Option<Side> {
    let FieldKind::Record(ty) = f.kind else {
        return None;
    };
    let TypeDef::Record(def) = side.reg.def(ty) else {
        return None;
    };
    Some(Side {
        def,
        reg: side.reg,
        addr: side.addr + f.offset,
    })
}

/// Copies field `f` of `src` into field `d` of `dst`.
fn copy_field(
    py: Python<'_>,
    dst: Side,
    d: &FieldDef,
    src: Side,
    f: &FieldDef,
    strict: bool,
    owner: &Bound<'_, PyAny>,
) -> PyResult<()> {
    let (to, from) = (dst.addr + d.offset, src.addr + f.offset);
    if d.bits.is_none() && f.bits.is_none() {
        if let Some(n) = same_bytes(&d.kind, &f.kind) {
            // SAFETY: both fields are `n` bytes inside their records.
            unsafe { copy_bytes(to, from, n) };
            return Ok(());
        }
        match (&d.kind, &f.kind) {
            (FieldKind::Record(dt), FieldKind::Record(ft)) => {
                if let (TypeDef::Record(dr), TypeDef::Record(fr)) =
                    (dst.reg.def(*dt), src.reg.def(*ft))
                {
                    if !dr.fields.is_empty() && !fr.fields.is_empty() {
                        let inner = |def, reg, addr| Side { def, reg, addr };
                        return copy_record(
                            py,
                            inner(dr, dst.reg, to),
                            inner(fr, src.reg, from),
                            strict,
                            owner,
                        );
                    }
                }
            }
            (
                FieldKind::Array {
                    elem: de,
                    len: dl,
                    stride: ds,
                },
                FieldKind::Array {
                    elem: fe,
                    len: fl,
                    stride: fs,
                },
            ) => {
                // Arrays of other lengths (`reserved[63]` against `reserved[56]`): what fits.
                if let Some(n) = same_bytes(de, fe) {
                    let room = (*dl).min(*fl);
                    if strict && !is_zero(from + room * fs, (fl - room) * fs) {
                        return Err(PyValueError::new_err(format!(
                            "{}.{} holds {dl} values: the rest of {fl} do not fit",
                            dst.def.name, d.name
                        )));
                    }
                    for i in 0..room {
                        // SAFETY: element `i` lies inside both arrays.
                        unsafe { copy_bytes(to + i * ds, from + i * fs, n) };
                    }
                    return Ok(());
                }
            }
            _ => {}
        }
    }
    // Two other kinds (a bitfield, a record against a pointer): as a Python value.
    let value = read_field(py, src.reg, f, src.addr, owner)?;
    write_field(dst.reg, d, dst.addr, value.bind(py)).map(drop)
}

/// The size of a value both kinds hold as the same bytes, if they do.
fn same_bytes(a: &FieldKind, b: &FieldKind) -> Option<usize> {
    use FieldKind::*;
    let word = size_of::<usize>();
    let scalar = |k: &FieldKind| match k {
        Int { size, .. } | Float { size } | Enum { size, .. } => Some(*size as usize),
        Bool => Some(1),
        Handle(_) | Pointer | Address { .. } | KernelParams => Some(word),
        Chars(n) | Text(n) | Bytes(n) => Some(*n),
        _ => None,
    };
    let float = |k: &FieldKind| matches!(k, Float { .. });
    match (scalar(a), scalar(b)) {
        (Some(x), Some(y)) if x == y && float(a) == float(b) => Some(x),
        _ => None,
    }
}

/// Whether a record's fields all start at 0 (a union).
fn is_union(r: &RecordDef) -> bool {
    r.fields.len() > 1 && r.fields.iter().all(|f| f.offset == 0)
}

/// The bytes field `f` of `r` spans: to the next field's offset, or to the end of the record.
fn extent(r: &RecordDef, f: &FieldDef) -> usize {
    let end = r
        .fields
        .iter()
        .map(|g| g.offset)
        .filter(|o| *o > f.offset)
        .min()
        .unwrap_or(r.size);
    end.saturating_sub(f.offset)
}

/// Whether `n` bytes at `addr` are all zero.
fn is_zero(addr: usize, n: usize) -> bool {
    // SAFETY: the callers' ranges lie inside a record.
    unsafe { std::slice::from_raw_parts(addr as *const u8, n) }
        .iter()
        .all(|b| *b == 0)
}

/// Copies `n` bytes.
///
/// # Safety
/// Both ranges must be valid.
unsafe fn copy_bytes(to: usize, from: usize, n: usize) {
    std::ptr::copy(from as *const u8, to as *mut u8, n)
}
