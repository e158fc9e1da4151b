//! CUDA's records as a runtime type table (`rt::NamedTypes`): each record with its fields as
//! cuda-python presents them (`char` arrays as cuda-python's bytes, pointers as integer
//! addresses that a list can set), and the enums, handles and records the fields name, by
//! the name they use: the cuda package resolves those names to its classes.

use crate::ir::{CudaFieldType, CudaRecord, CudaTypes};
use crate::model::items::{ArrayLevel, FieldBase, FieldKindModel, FieldModel, TypeDefModel};
use anyhow::{bail, Result};
use std::collections::BTreeMap;

/// The table of `types`' records: the records first (by name), then the names their fields
/// use that are not a record's own name (a typedef of one, an enum, a handle, a record CUDA's
/// headers here do not describe), in order of first use.
pub(crate) fn table(types: &CudaTypes) -> Result<Vec<TypeDefModel>> {
    let (index, mut out) = record_entries(types);
    let mut table = Table {
        index,
        extra: Vec::new(),
        sizes: record_sizes(types),
    };
    let mut fields_of = Vec::new();
    for r in &types.records {
        fields_of.push(table.fields(r)?);
    }
    for (def, fields) in out.iter_mut().zip(fields_of) {
        if let TypeDefModel::Record { fields: f, .. } = def {
            *f = fields;
        }
    }
    // Another name of a record has its fields too: a copy between layouts walks them.
    let primary = other_names(types);
    for def in &mut table.extra {
        if let TypeDefModel::Record { name, fields, .. } = def {
            if let Some(TypeDefModel::Record { fields: of, .. }) =
                primary.get(name.as_str()).map(|i| &out[*i])
            {
                *fields = of.clone();
            }
        }
    }
    out.extend(table.extra);
    Ok(out)
}

/// An entry without fields for each record, by name, and where each is.
fn record_entries(types: &CudaTypes) -> (BTreeMap<String, usize>, Vec<TypeDefModel>) {
    let mut index: BTreeMap<String, usize> = BTreeMap::new();
    let mut out: Vec<TypeDefModel> = Vec::new();
    for r in &types.records {
        index.insert(r.name.clone(), out.len());
        out.push(TypeDefModel::Record {
            name: r.name.clone(),
            aliases: Vec::new(),
            size: r.size,
            fields: Vec::new(),
            doc: format!("CUDA's {} ({} bytes, CUDA's layout).", r.name, r.size),
        });
    }
    (index, out)
}

/// The size of each record by each of its names: other names of a record (tag, typedefs)
/// share its size.
fn record_sizes(types: &CudaTypes) -> BTreeMap<&str, u64> {
    types
        .records
        .iter()
        .flat_map(|r| {
            std::iter::once(r.name.as_str())
                .chain(r.tag.as_deref())
                .chain(r.aliases.iter().map(String::as_str))
                .map(move |n| (n, r.size))
        })
        .collect()
}

/// The index of the record each other name (tag, typedef) of a record names.
fn other_names(types: &CudaTypes) -> BTreeMap<&str, usize> {
    types
        .records
        .iter()
        .enumerate()
        .flat_map(|(i, r)| {
            r.tag
                .as_deref()
                .into_iter()
                .chain(r.aliases.iter().map(String::as_str))
                .map(move |n| (n, i))
        })
        .collect()
}

/// The entries being added and where each name is.
struct Table<'a> {
    index: BTreeMap<String, usize>,
    /// Entries after the records.
    extra: Vec<TypeDefModel>,
    sizes: BTreeMap<&'a str, u64>,
}

impl Table<'_> {
    /// The fields of record `r` this table can describe (bytes of no known size are left out).
    fn fields(&mut self, r: &CudaRecord) -> Result<Vec<FieldModel>> {
        let mut fields = Vec::new();
        for f in &r.fields {
            let kind = if f.kernel_params {
                FieldKindModel {
                    arrays: Vec::new(),
                    base: FieldBase::KernelParams,
                }
            } else {
                let Some(kind) = self.kind(&f.ty)? else {
                    continue; // bytes of no known size: nothing to read
                };
                kind
            };
            fields.push(FieldModel {
                name: f.name.clone(),
                offset: f.offset,
                bits: None,
                kind,
                default: None,
            });
        }
        Ok(fields)
    }

    /// The index of `name`, added as `entry` where it is new.
    fn named(&mut self, name: &str, entry: impl FnOnce() -> TypeDefModel) -> usize {
        if let Some(i) = self.index.get(name) {
            return *i;
        }
        let i = self.index.len();
        self.index.insert(name.to_string(), i);
        self.extra.push(entry());
        i
    }

    fn record(&mut self, name: &str) -> (usize, u64) {
        // 0: a record CUDA's headers here do not lay out (`dim3`): its class tells.
        let size = self.sizes.get(name).copied().unwrap_or(0);
        let i = self.named(name, || TypeDefModel::Record {
            name: name.to_string(),
            aliases: Vec::new(),
            size,
            fields: Vec::new(),
            doc: String::new(),
        });
        (i, size)
    }

    /// How a field of type `ty` is read and written, or None for bytes of no size.
    fn kind(&mut self, ty: &CudaFieldType) -> Result<Option<FieldKindModel>> {
        let mut arrays = Vec::new();
        let mut ty = ty;
        while let CudaFieldType::Array { elem, len } = ty {
            if is_char(elem) {
                break;
            }
            let stride = match self.size(elem) {
                0 => bail!("an array of {elem:?}, whose size the headers do not give"),
                n => n,
            };
            arrays.push(ArrayLevel { len: *len, stride });
            ty = elem;
        }
        let base = match ty {
            // cuda-python reads `char[N]` as text, `unsigned char[N]` as all N bytes.
            CudaFieldType::Array { len, elem } if is_uchar(elem) => FieldBase::Bytes { len: *len },
            CudaFieldType::Array { len, .. } => FieldBase::Text { len: *len },
            CudaFieldType::Pointer { elem, .. } => FieldBase::Address {
                elem: match elem {
                    Some(e) => self.base(e)?.map(Box::new),
                    None => None,
                },
            },
            CudaFieldType::Opaque { size: 0 } => return Ok(None),
            CudaFieldType::Opaque { size } => {
                arrays.push(ArrayLevel {
                    len: *size,
                    stride: 1,
                });
                FieldBase::Int {
                    size: 1,
                    signed: false,
                }
            }
            other => match self.base(other)? {
                Some(b) => b,
                None => return Ok(None),
            },
        };
        Ok(Some(FieldKindModel { arrays, base }))
    }

    /// A value that is no array and no pointer.
    fn base(&mut self, ty: &CudaFieldType) -> Result<Option<FieldBase>> {
        Ok(Some(match ty {
            CudaFieldType::Int { size, signed } => FieldBase::Int {
                size: *size as u8,
                signed: *signed,
            },
            CudaFieldType::Float { size } => FieldBase::Float { size: *size as u8 },
            // C gives an enum with a negative member a signed type; CUDA's values all fit one.
            CudaFieldType::Enum { name, size } => FieldBase::Enum {
                index: self.named(name, || TypeDefModel::Enum {
                    name: name.clone(),
                    aliases: Vec::new(),
                    members: Vec::new(),
                }),
                size: *size as u8,
                signed: true,
            },
            CudaFieldType::Handle { name } => FieldBase::Handle {
                index: self.named(name, || TypeDefModel::Handle {
                    name: name.clone(),
                    aliases: Vec::new(),
                }),
            },
            CudaFieldType::Record { name } => FieldBase::Record {
                index: self.record(name).0,
            },
            CudaFieldType::Pointer { .. } => FieldBase::Address { elem: None },
            CudaFieldType::Array { .. } | CudaFieldType::Opaque { .. } => return Ok(None),
        }))
    }

    /// `sizeof` a field type (0 where unknown).
    fn size(&mut self, ty: &CudaFieldType) -> u64 {
        match ty {
            CudaFieldType::Int { size, .. }
            | CudaFieldType::Float { size }
            | CudaFieldType::Enum { size, .. }
            | CudaFieldType::Opaque { size } => *size,
            CudaFieldType::Handle { .. } | CudaFieldType::Pointer { .. } => 8,
            CudaFieldType::Record { name } => self.record(name).1,
            CudaFieldType::Array { elem, len } => self.size(elem) * len,
        }
    }
}

/// Whether a field type is a `char`, signed or not: an array of them is bytes, not a list.
fn is_char(ty: &CudaFieldType) -> bool {
    matches!(ty, CudaFieldType::Int { size: 1, .. })
}

/// Whether a field type is an `unsigned char` (all of whose bytes cuda-python reads).
fn is_uchar(ty: &CudaFieldType) -> bool {
    matches!(
        ty,
        CudaFieldType::Int {
            size: 1,
            signed: false
        }
    )
}
