//! The types CUDA's headers declare, as cuda-python names them: enums with their members,
//! opaque handles (`CUlibrary`), handle constants (`CU_STREAM_LEGACY`) and structs with
//! their layout. HIP lacks some of each; the cuda package gives those names CUDA's own
//! values and layouts, so a program that only names them (a parametrized test, a skip
//! condition, an attribute query, a struct it fills) runs, and a HIP function given one
//! answers with a status, never a missing attribute.

use crate::clang::{Cursor, CursorKind, TranslationUnit, Type, TypeKind};
use crate::ir::{
    CudaEnumDecl, CudaField, CudaFieldType, CudaHandle, CudaRecord, CudaTypes, HandleConstant,
};
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// The members of an enum declaration.
pub fn members(decl: &Cursor) -> Vec<(String, i64)> {
    decl.children()
        .into_iter()
        .filter(|m| m.kind() == CursorKind::EnumConstant)
        .map(|m| (m.spelling(), m.enum_value()))
        .collect()
}

/// `0x1`, `1`, `1ULL`, `-1`: the value of an integer literal token (negative ones as two's
/// complement of 64 bits, as a pointer holds them).
fn literal(tokens: &[String]) -> Option<u64> {
    let (neg, text) = match tokens {
        [t] => (false, t.as_str()),
        [m, t] if m == "-" => (true, t.as_str()),
        _ => return None,
    };
    let text = text.trim_end_matches(['u', 'U', 'l', 'L']);
    let v = match text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        Some(hex) => u64::from_str_radix(hex, 16).ok()?,
        None => text.parse().ok()?,
    };
    Some(if neg { v.wrapping_neg() } else { v })
}

/// Reads the enums, handles and handle constants of the headers `modules` names (header →
/// cuda-python module).
pub fn read(tu: &TranslationUnit, modules: &BTreeMap<String, String>) -> CudaTypes {
    let module_of = |c: &Cursor| {
        let file = c.file()?;
        modules
            .iter()
            .find(|(h, _)| file.ends_with(&format!("/{h}")))
            .map(|(_, m)| m.clone())
    };
    let mut enums: BTreeMap<String, CudaEnumDecl> = BTreeMap::new();
    // Tags of enums that a typedef names: cuda-python uses the typedef name for those.
    let mut typedefed = BTreeSet::new();
    let mut tagged = Vec::new();
    let mut handles: BTreeMap<String, CudaHandle> = BTreeMap::new();
    let mut macros = Vec::new();
    for c in tu.cursor().children() {
        let Some(module) = module_of(&c) else {
            continue;
        };
        match c.kind() {
            CursorKind::Typedef => {
                let under = c.typedef_underlying().canonical();
                match under.kind() {
                    TypeKind::Enum => {
                        let decl = under.declaration();
                        typedefed.insert(decl.spelling());
                        let m = members(&decl);
                        if !m.is_empty() {
                            enums.insert(
                                c.spelling(),
                                CudaEnumDecl {
                                    name: c.spelling(),
                                    module,
                                    members: m,
                                },
                            );
                        }
                    }
                    TypeKind::Pointer
                        if (under.pointee().canonical().kind() == TypeKind::Record
                            && !under.pointee().canonical().declaration().is_definition())
                            || under.pointee().canonical().kind() == TypeKind::FunctionProto =>
                    {
                        // Opaque handles, and callbacks (`CUoccupancyB2DSize`), which
                        // cuda-python also makes pointer classes.
                        handles.insert(
                            c.spelling(),
                            CudaHandle {
                                name: c.spelling(),
                                module,
                            },
                        );
                    }
                    _ => {}
                }
            }
            CursorKind::Enum if !c.is_anonymous() && !c.spelling().is_empty() => {
                tagged.push((c.spelling(), module, members(&c)));
            }
            CursorKind::MacroDefinition if !c.is_function_like_macro() => {
                macros.push((c.tokens(), module));
            }
            _ => {}
        }
    }
    for (tag, module, m) in tagged {
        if !typedefed.contains(&tag) && !m.is_empty() && !enums.contains_key(&tag) {
            enums.insert(
                tag.clone(),
                CudaEnumDecl {
                    name: tag,
                    module,
                    members: m,
                },
            );
        }
    }
    let records = read_records(tu, &module_of);
    // `#define CU_STREAM_LEGACY ((CUstream)0x1)`
    let mut handle_constants = Vec::new();
    for (tokens, module) in macros {
        let body = &tokens[1..];
        if body.len() < 6 || body[0] != "(" || body[1] != "(" || body[3] != ")" {
            continue;
        }
        if body[body.len() - 1] != ")" || !handles.contains_key(&body[2]) {
            continue;
        }
        if let Some(value) = literal(&body[4..body.len() - 1]) {
            handle_constants.push(HandleConstant {
                name: tokens[0].clone(),
                module,
                handle: body[2].clone(),
                value,
            });
        }
    }
    CudaTypes {
        enums: enums.into_values().collect(),
        handles: handles.into_values().collect(),
        handle_constants,
        records,
        reshaped: Default::default(),
    }
}

/// A declared type's name as cuda-python spells it (`enum cudaMemoryType` → `cudaMemoryType`).
fn type_name(t: &Type) -> String {
    let s = t.spelling();
    let s = s.trim_start_matches("const ");
    ["enum ", "struct ", "union "]
        .iter()
        .fold(s, |s, p| s.trim_start_matches(p))
        .trim()
        .to_string()
}

/// Whether a record declaration has no name of its own.
fn unnamed(decl: &Cursor) -> bool {
    let s = decl.spelling();
    decl.is_anonymous() || s.is_empty() || s.contains("(anonymous") || s.contains("(unnamed")
}

/// Reads the records (structs and unions) of the headers.
fn read_records(
    tu: &TranslationUnit,
    module_of: &dyn Fn(&Cursor) -> Option<String>,
) -> Vec<CudaRecord> {
    let mut defs: HashMap<String, Cursor> = HashMap::new();
    let mut typedefs = Vec::new();
    for c in tu.cursor().children() {
        let Some(module) = module_of(&c) else {
            continue;
        };
        match c.kind() {
            CursorKind::Struct | CursorKind::Union if c.is_definition() => {
                nested_definitions(&c, &mut defs);
                if !unnamed(&c) {
                    defs.insert(c.spelling(), c);
                }
            }
            CursorKind::Typedef => {
                let under = c.typedef_underlying().canonical();
                if under.kind() == TypeKind::Record {
                    typedefs.push((c.spelling(), module, under.declaration()));
                }
            }
            _ => {}
        }
    }
    let mut out: BTreeMap<String, CudaRecord> = BTreeMap::new();
    let mut named_tags = BTreeSet::new();
    // Tag → the first typedef name of it: later typedefs of the same struct are aliases.
    let mut primary: HashMap<String, String> = HashMap::new();
    for (name, module, decl) in typedefs {
        let def = if decl.is_definition() {
            Some(decl)
        } else {
            defs.get(&decl.spelling()).copied()
        };
        let Some(def) = def else { continue };
        if !unnamed(&def) {
            if let Some(first) = primary.get(&def.spelling()) {
                if let Some(r) = out.get_mut(first) {
                    if *first != name && !r.aliases.contains(&name) {
                        r.aliases.push(name);
                    }
                }
                continue;
            }
            primary.insert(def.spelling(), name.clone());
        }
        let tag = (!unnamed(&def) && def.spelling() != name).then(|| def.spelling());
        if let Some(t) = &tag {
            named_tags.insert(t.clone());
        }
        if !unnamed(&def) {
            named_tags.insert(def.spelling());
        }
        record(&def, &name, tag, &module, false, &mut out);
    }
    for (tag, def) in &defs {
        if !named_tags.contains(tag) {
            if let Some(module) = module_of(def) {
                record(def, tag, None, &module, false, &mut out);
            }
        }
    }
    out.into_values().collect()
}

/// Named structs and unions declared inside record `c` (`struct X_st { ... } member;` in a
/// union), by tag: fields name them by tag.
fn nested_definitions<'tu>(c: &Cursor<'tu>, defs: &mut HashMap<String, Cursor<'tu>>) {
    for d in c.children() {
        if matches!(d.kind(), CursorKind::Struct | CursorKind::Union) && d.is_definition() {
            nested_definitions(&d, defs);
            if !unnamed(&d) {
                defs.entry(d.spelling()).or_insert(d);
            }
        }
    }
}

/// Adds record `def` as `name` (and the anonymous records inside it) to `out`.
fn record(
    def: &Cursor,
    name: &str,
    tag: Option<String>,
    module: &str,
    anonymous: bool,
    out: &mut BTreeMap<String, CudaRecord>,
) {
    if out.contains_key(name) {
        return;
    }
    let ty = def.ty();
    let mut fields = Vec::new();
    record_fields(def, name, 0, module, out, &mut fields);
    out.insert(
        name.to_string(),
        CudaRecord {
            name: name.to_string(),
            tag,
            aliases: Vec::new(),
            module: module.to_string(),
            anonymous,
            size: ty.size().unwrap_or(0),
            fields,
        },
    );
}

/// The fields of record `def` at `base` bytes into record `name`; the members of an unnamed
/// struct or union member (`union { ... memset; ... };`) are the outer record's own, as in C.
fn record_fields(
    def: &Cursor,
    name: &str,
    base: u64,
    module: &str,
    out: &mut BTreeMap<String, CudaRecord>,
    fields: &mut Vec<CudaField>,
) {
    let children = def.children();
    // An unnamed struct or union member is a record declaration no field has as its type.
    let field_types: BTreeSet<String> = children
        .iter()
        .filter(|f| f.kind() == CursorKind::Field)
        .map(|f| f.ty().canonical().spelling())
        .collect();
    for f in &children {
        if matches!(f.kind(), CursorKind::Struct | CursorKind::Union)
            && f.is_definition()
            && unnamed(f)
            && !field_types.contains(&f.ty().canonical().spelling())
        {
            // Its offset in `def`: that of its first field, less that field's own offset.
            let first = f
                .children()
                .into_iter()
                .find(|c| c.kind() == CursorKind::Field);
            if let Some(first) = first {
                if let Some(at) = def.ty().offset_of(&first.spelling()) {
                    let inner = first.field_offset_bits().max(0) as u64 / 8;
                    record_fields(f, name, base + at / 8 - inner, module, out, fields);
                }
            }
            continue;
        }
        if f.kind() != CursorKind::Field || f.bit_width().is_some() {
            continue; // bitfields share storage: not presented
        }
        let offset = f.field_offset_bits();
        if offset < 0 {
            continue;
        }
        let offset = base + offset as u64 / 8;
        let field = f.spelling();
        let decl = f.ty().canonical().declaration();
        if field.is_empty() && f.ty().canonical().kind() == TypeKind::Record {
            record_fields(&decl, name, offset, module, out, fields);
            continue;
        }
        let t = field_type(&f.ty(), &format!("{name}_{field}"), module, out);
        fields.push(CudaField {
            name: field,
            offset,
            ty: t,
        });
    }
}

/// What a field of type `t` holds; an anonymous record becomes record `anon_name`.
fn field_type(
    t: &Type,
    anon_name: &str,
    module: &str,
    out: &mut BTreeMap<String, CudaRecord>,
) -> CudaFieldType {
    let c = t.canonical();
    let size = c.size().unwrap_or(0);
    match c.kind() {
        TypeKind::Bool => CudaFieldType::Int {
            size,
            signed: false,
        },
        TypeKind::CharS => CudaFieldType::Int { size, signed: true },
        TypeKind::SignedInt => CudaFieldType::Int { size, signed: true },
        TypeKind::UnsignedInt => CudaFieldType::Int {
            size,
            signed: false,
        },
        TypeKind::Float => CudaFieldType::Float { size },
        TypeKind::Enum => CudaFieldType::Enum {
            name: type_name(t),
            size,
        },
        TypeKind::Pointer => {
            let pointee = c.pointee().canonical();
            let opaque =
                pointee.kind() == TypeKind::Record && !pointee.declaration().is_definition();
            let func = pointee.kind() == TypeKind::FunctionProto;
            if matches!(t.kind(), TypeKind::Typedef | TypeKind::Elaborated) && (opaque || func) {
                CudaFieldType::Handle { name: type_name(t) }
            } else {
                CudaFieldType::Pointer {
                    to_void: pointee.kind() == TypeKind::Void,
                    elem: element(t, &pointee, module, out),
                }
            }
        }
        TypeKind::Record => {
            let decl = c.declaration();
            if unnamed(&decl) {
                record(&decl, anon_name, None, module, true, out);
                CudaFieldType::Record {
                    name: anon_name.to_string(),
                }
            } else {
                CudaFieldType::Record { name: type_name(t) }
            }
        }
        TypeKind::ConstantArray => {
            let elem = match t.kind() {
                TypeKind::ConstantArray => t.element(),
                _ => c.element(),
            };
            CudaFieldType::Array {
                elem: Box::new(field_type(&elem, anon_name, module, out)),
                len: c.array_len(),
            }
        }
        _ => CudaFieldType::Opaque { size },
    }
}

/// The element type of pointer field `t` (canonical pointee `pointee`) where a list can
/// stand for the array it points at: handles, named structs, numbers wider than a `char`
/// (a `char *` is text).
fn element(
    t: &Type,
    pointee: &Type,
    module: &str,
    out: &mut BTreeMap<String, CudaRecord>,
) -> Option<Box<CudaFieldType>> {
    if pointee.kind() == TypeKind::Record
        && (unnamed(&pointee.declaration()) || !pointee.declaration().is_definition())
    {
        return None;
    }
    // The pointee as written keeps its typedef name (`cudaExternalSemaphore_t`).
    let written = if t.kind() == TypeKind::Pointer {
        t.pointee()
    } else {
        *pointee
    };
    match field_type(&written, "", module, out) {
        e @ (CudaFieldType::Handle { .. }
        | CudaFieldType::Record { .. }
        | CudaFieldType::Float { .. }
        | CudaFieldType::Enum { .. }) => Some(Box::new(e)),
        e @ CudaFieldType::Int { size, .. } if size > 1 => Some(Box::new(e)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::literal;

    #[test]
    fn reads_integer_literals() {
        let t = |s: &[&str]| literal(&s.iter().map(|x| x.to_string()).collect::<Vec<_>>());
        assert_eq!(t(&["0x1"]), Some(1));
        assert_eq!(t(&["2"]), Some(2));
        assert_eq!(t(&["1ULL"]), Some(1));
        assert_eq!(t(&["-", "1"]), Some(u64::MAX));
        assert_eq!(t(&["x"]), None);
    }
}
