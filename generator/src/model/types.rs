//! The model of a module's type table: its enums, records (with every field's kind) and
//! handles, in registry order.

use super::items::{ArrayLevel, FieldBase, FieldKindModel, FieldModel, TypeDefModel};
use super::TypeIndex;
use crate::ir::{CType, Library, Record};
use crate::model::docstring;
use anyhow::{bail, Context, Result};
use std::collections::HashMap;

/// The type table of `lib`: enums, then records, then handles.
pub(super) fn table(
    lib: &Library,
    types: &TypeIndex,
    records: &HashMap<&str, &Record>,
) -> Result<Vec<TypeDefModel>> {
    let mut out = Vec::new();
    for e in &lib.enums {
        out.push(TypeDefModel::Enum {
            name: e.name.clone(),
            aliases: e.aliases.clone(),
            members: e.members.clone(),
        });
    }
    for r in &lib.records {
        let fields = r
            .fields
            .iter()
            .map(|f| {
                Ok(FieldModel {
                    name: f.name.clone(),
                    offset: f.offset_bits / 8,
                    bits: f.bit_width.map(|w| (f.offset_bits % 8, w)),
                    kind: field_kind(&f.ty, types, records)?,
                    default: f.default,
                })
            })
            .collect::<Result<Vec<_>>>()?;
        out.push(TypeDefModel::Record {
            name: r.name.clone(),
            aliases: r.aliases.clone(),
            size: r.size,
            fields,
            doc: docstring::lines(&r.doc, &[], &[]).join("\n"),
        });
    }
    for h in &lib.handles {
        out.push(TypeDefModel::Handle {
            name: h.name.clone(),
            aliases: h.aliases.clone(),
        });
    }
    Ok(out)
}

/// How a field of type `ty` is read and written.
fn field_kind(
    ty: &CType,
    types: &TypeIndex,
    records: &HashMap<&str, &Record>,
) -> Result<FieldKindModel> {
    let mut arrays = Vec::new();
    let mut ty = ty;
    while let CType::Array { elem, len } = ty {
        if elem.is_char() {
            break;
        }
        arrays.push(ArrayLevel {
            len: *len,
            stride: size_of(elem, records)?,
        });
        ty = elem;
    }
    let base = match ty {
        CType::Bool => FieldBase::Bool,
        CType::Int { size, signed, .. } => FieldBase::Int {
            size: *size,
            signed: *signed,
        },
        CType::Float { size } => FieldBase::Float { size: *size },
        // Fields refer to this module's registry; imported enums and handles are read as
        // plain integers and pointers.
        CType::Enum { name, size, signed } => match types.local(name)? {
            Some(index) => FieldBase::Enum {
                index,
                size: *size,
                signed: *signed,
            },
            None => FieldBase::Int {
                size: *size,
                signed: *signed,
            },
        },
        CType::Record { name } => FieldBase::Record {
            index: types
                .local(name)?
                .with_context(|| format!("field of imported record type {name}"))?,
        },
        CType::Handle { name } => match types.local(name)? {
            Some(index) => FieldBase::Handle { index },
            None => FieldBase::Pointer,
        },
        CType::Array { len, .. } => FieldBase::Chars { len: *len },
        CType::Pointer { .. } => FieldBase::Pointer,
        CType::Void | CType::Unsupported { .. } => bail!("field of unsupported type {ty:?}"),
    };
    Ok(FieldKindModel { arrays, base })
}

/// `sizeof` a type.
pub(super) fn size_of(ty: &CType, records: &HashMap<&str, &Record>) -> Result<u64> {
    Ok(match ty {
        CType::Bool => 1,
        CType::Int { size, .. } | CType::Float { size } | CType::Enum { size, .. } => *size as u64,
        CType::Pointer { .. } | CType::Handle { .. } => 8,
        CType::Record { name } => records.get(name.as_str()).context("unknown record")?.size,
        CType::Array { elem, len } => size_of(elem, records)? * len,
        _ => bail!("no size for {ty:?}"),
    })
}
