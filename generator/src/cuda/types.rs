//! The types CUDA's headers declare, as cuda-python names them: enums with their members,
//! opaque handles (`CUlibrary`), handle constants (`CU_STREAM_LEGACY`) and structs with
//! their layout. HIP lacks some of each; the cuda package gives those names CUDA's own
//! values and layouts, so a program that only names them (a parametrized test, a skip
//! condition, an attribute query, a struct it fills) runs, and a HIP function given one
//! answers with a status, never a missing attribute.

use crate::ir::types::{spelled_name, spelled_pointee};
use crate::ir::{
    CudaConstant, CudaEnumDecl, CudaField, CudaFieldType, CudaHandle, CudaRecord, CudaTypes,
    HandleConstant,
};
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// The enums, handles and handle constants of the modules' IRs (a library per cuda-python
/// module), by cuda-python's names.
pub fn from_ir(libs: &[crate::ir::Library]) -> CudaTypes {
    let handles = handles_from_ir(libs);
    CudaTypes {
        enums: enums_from_ir(libs),
        handle_constants: handle_constants_from_ir(libs, &handles),
        handles: handles.into_values().collect(),
        constants: constants_from_ir(libs),
        records: records_from_ir(libs),
        reshaped: Default::default(),
    }
}

/// The enums with members, by each of their typedef names, else by their tag (the first
/// module's where two declare one).
fn enums_from_ir(libs: &[crate::ir::Library]) -> Vec<CudaEnumDecl> {
    let mut enums: BTreeMap<String, CudaEnumDecl> = BTreeMap::new();
    for lib in libs {
        for e in lib.enums.iter().filter(|e| !e.members.is_empty()) {
            let names = if e.aliases.is_empty() {
                std::slice::from_ref(&e.name)
            } else {
                e.aliases.as_slice()
            };
            for n in names {
                enums.entry(n.clone()).or_insert_with(|| CudaEnumDecl {
                    name: n.clone(),
                    module: lib.name.clone(),
                    members: e.members.clone(),
                });
            }
        }
    }
    enums.into_values().collect()
}

/// Opaque handles by their typedef names, and callbacks (`CUoccupancyB2DSize`), which
/// cuda-python also makes pointer classes (the last module's where two declare one).
fn handles_from_ir(libs: &[crate::ir::Library]) -> BTreeMap<String, CudaHandle> {
    let mut handles: BTreeMap<String, CudaHandle> = BTreeMap::new();
    for lib in libs {
        for h in &lib.handles {
            let names = if h.callback {
                std::slice::from_ref(&h.name)
            } else {
                h.aliases.as_slice()
            };
            for n in names {
                handles.insert(
                    n.clone(),
                    CudaHandle {
                        name: n.clone(),
                        module: lib.name.clone(),
                    },
                );
            }
        }
    }
    handles
}

/// The constants of a handle type: `#define CU_STREAM_LEGACY ((CUstream)0x1)`.
fn handle_constants_from_ir(
    libs: &[crate::ir::Library],
    handles: &BTreeMap<String, CudaHandle>,
) -> Vec<HandleConstant> {
    let mut handle_constants = Vec::new();
    for lib in libs {
        for c in lib
            .typed_constants
            .iter()
            .filter(|c| handles.contains_key(&c.ty))
        {
            handle_constants.push(HandleConstant {
                name: c.name.clone(),
                module: lib.name.clone(),
                handle: c.ty.clone(),
                value: c.value,
            });
        }
    }
    handle_constants
}

/// Integer `#define`s, each in the module of the header declaring it (not the headers' own
/// guards and version macros: `__CUDA_API_VERSION`).
fn constants_from_ir(libs: &[crate::ir::Library]) -> Vec<CudaConstant> {
    let mut constants: BTreeMap<String, CudaConstant> = BTreeMap::new();
    for lib in libs {
        for c in &lib.constants {
            if let (crate::ir::ConstValue::Int(value), false) = (&c.value, c.name.starts_with('_'))
            {
                constants
                    .entry(c.name.clone())
                    .or_insert_with(|| CudaConstant {
                        name: c.name.clone(),
                        module: lib.name.clone(),
                        value: *value,
                    });
            }
        }
    }
    constants.into_values().collect()
}

/// The records of the modules' IRs by cuda-python's names: a struct by its first typedef
/// name (the tag kept), else by its tag; the members of an unnamed member are the outer
/// record's own, and a field's anonymous struct or union is a record `<outer>_<field>`.
fn records_from_ir(libs: &[crate::ir::Library]) -> Vec<CudaRecord> {
    let all: HashMap<&str, &crate::ir::Record> = libs
        .iter()
        .flat_map(|l| &l.records)
        .map(|r| (r.name.as_str(), r))
        .collect();
    // Structs declared inside another (`struct X_st {...} member;` in a union), which the IR
    // names after their parent: C names them by their tag, as fields do.
    let nested_name = |r: &crate::ir::Record, f: &crate::ir::Field| match &f.ty {
        crate::ir::CType::Record { name }
            if *name == format!("{}_{}", r.name, spelled_name(&f.spelling)) =>
        {
            Some(name.clone())
        }
        _ => None,
    };
    let nested: BTreeSet<String> = all
        .values()
        .flat_map(|r| r.fields.iter().filter_map(move |f| nested_name(r, f)))
        .collect();
    let mut out: BTreeMap<String, CudaRecord> = BTreeMap::new();
    for lib in libs {
        for r in lib
            .records
            .iter()
            .filter(|r| !r.anonymous && !nested.contains(&r.name))
        {
            let (name, tag, aliases) = match r.aliases.split_first() {
                Some((first, rest)) => (first.clone(), Some(r.name.clone()), rest.to_vec()),
                None => (r.name.clone(), None, Vec::new()),
            };
            ir_record(r, &name, tag, aliases, &lib.name, false, &all, &mut out);
        }
    }
    out.into_values().collect()
}

/// Adds IR record `r` as `name` (and the anonymous records its fields have) to `out`.
#[allow(clippy::too_many_arguments)]
fn ir_record(
    r: &crate::ir::Record,
    name: &str,
    tag: Option<String>,
    aliases: Vec<String>,
    module: &str,
    anonymous: bool,
    all: &HashMap<&str, &crate::ir::Record>,
    out: &mut BTreeMap<String, CudaRecord>,
) {
    if out.contains_key(name) {
        return;
    }
    let mut fields = Vec::new();
    for f in r.fields.iter().filter(|f| f.bit_width.is_none()) {
        let ty = ir_field_type(
            &f.ty,
            &f.spelling,
            &format!("{name}_{}", f.name),
            module,
            all,
            out,
        );
        fields.push(CudaField {
            name: f.name.clone(),
            offset: f.offset_bits / 8,
            ty,
            kernel_params: false,
        });
    }
    out.insert(
        name.to_string(),
        CudaRecord {
            name: name.to_string(),
            tag,
            aliases,
            module: module.to_string(),
            anonymous,
            size: r.size,
            fields,
        },
    );
}

/// What a field of IR type `t` (spelled `spelling`) holds; an anonymous record becomes
/// record `anon_name`.
fn ir_field_type(
    t: &crate::ir::CType,
    spelling: &str,
    anon_name: &str,
    module: &str,
    all: &HashMap<&str, &crate::ir::Record>,
    out: &mut BTreeMap<String, CudaRecord>,
) -> CudaFieldType {
    use crate::ir::CType;
    let written = spelled_name(spelling);
    match t {
        CType::Bool => CudaFieldType::Int {
            size: 1,
            signed: false,
        },
        CType::Int { size, signed, .. } => CudaFieldType::Int {
            size: *size as u64,
            signed: *signed,
        },
        CType::Float { size } => CudaFieldType::Float { size: *size as u64 },
        CType::Enum { size, .. } => CudaFieldType::Enum {
            name: written,
            size: *size as u64,
        },
        CType::Handle { .. } => CudaFieldType::Handle { name: written },
        CType::Pointer { pointee, .. } => {
            let inner = spelled_pointee(spelling);
            let bare = inner.trim_start_matches("const ").trim_start();
            let func = spelling.contains("(*");
            let opaque = bare.starts_with("struct ") || bare.starts_with("union ");
            let void = **pointee == CType::Void && !func && !opaque;
            let elem = if void || func || opaque && !matches!(**pointee, CType::Record { .. }) {
                None
            } else {
                match ir_field_type(pointee, inner, "", module, all, out) {
                    e @ (CudaFieldType::Handle { .. }
                    | CudaFieldType::Record { .. }
                    | CudaFieldType::Float { .. }
                    | CudaFieldType::Enum { .. }) => Some(Box::new(e)),
                    e @ CudaFieldType::Int { size, .. } if size > 1 => Some(Box::new(e)),
                    _ => None,
                }
            };
            CudaFieldType::Pointer {
                to_void: void,
                elem,
            }
        }
        CType::Record { name } => match all.get(name.as_str()) {
            Some(r) if r.anonymous => {
                ir_record(r, anon_name, None, Vec::new(), module, true, all, out);
                CudaFieldType::Record {
                    name: anon_name.to_string(),
                }
            }
            Some(r) if name.ends_with(&format!("_{written}")) => {
                ir_record(r, &written, None, Vec::new(), module, false, all, out);
                CudaFieldType::Record { name: written }
            }
            _ => CudaFieldType::Record { name: written },
        },
        CType::Array { elem, len } => {
            let elem_spelling = spelling.rsplit_once('[').map_or(spelling, |(e, _)| e);
            CudaFieldType::Array {
                elem: Box::new(ir_field_type(
                    elem,
                    elem_spelling.trim_end(),
                    anon_name,
                    module,
                    all,
                    out,
                )),
                len: *len,
            }
        }
        CType::Void | CType::Unsupported { .. } => CudaFieldType::Opaque { size: 0 },
    }
}
