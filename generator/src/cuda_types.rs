//! The types CUDA's headers declare, as cuda-python names them: enums with their members,
//! opaque handles (`CUlibrary`) and handle constants (`CU_STREAM_LEGACY`). HIP lacks some
//! of each; the cuda package gives those names CUDA's own values, so a program that only
//! names them (a parametrized test, a skip condition, an attribute query) runs, and a HIP
//! function given one answers with a status, never a missing attribute.

use crate::clang::{Cursor, CursorKind, TranslationUnit, TypeKind};
use crate::ir::{CudaEnumDecl, CudaHandle, CudaTypes, HandleConstant};
use std::collections::{BTreeMap, BTreeSet};

/// The members of an enum declaration.
fn members(decl: &Cursor) -> Vec<(String, i64)> {
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
                        if under.pointee().canonical().kind() == TypeKind::Record
                            && !under.pointee().canonical().declaration().is_definition() =>
                    {
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
