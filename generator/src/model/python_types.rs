//! The Python types a generated module's `.pyi` stub gives its functions, struct fields and
//! classes, decided from the IR by the same rules the renderer converts arguments with.
//!
//! Arguments get the widest type the conversion accepts (`SupportsIndex` for C integers,
//! `_PointerLike` for pointers: addresses, buffers, arrays, ctypes objects, `Pointer`s);
//! results get the type the call builds. The aliases (`_PointerLike`, `_CString`, ...) are
//! defined once at the top of every stub by `templates/module.pyi.j2`.

use crate::ir::{CType, Library, Usage};
use crate::model::names::{python_name, PYTHON_KEYWORDS};
use serde::Serialize;

/// Whether `name` can be written as an attribute in a stub.
pub fn usable_name(name: &str) -> bool {
    !PYTHON_KEYWORDS.contains(&name)
        && name
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
}

/// The type of an argument passed with `usage`.
pub fn param_type(ty: &CType, usage: Usage) -> String {
    match usage {
        Usage::String => "_CString".into(),
        Usage::StringArray => "_CStringArray".into(),
        Usage::KernelExtra => "_KernelExtra".into(),
        Usage::ByRef | Usage::Pointer => match ty {
            CType::Pointer { pointee, .. } => match pointee.as_ref() {
                CType::Handle { name } | CType::Record { name } => {
                    format!("{name} | _PointerLike")
                }
                _ => "_PointerLike".into(),
            },
            _ => "_PointerLike".into(),
        },
        _ => value_type(ty),
    }
}

/// A parameter of a function's stub: `name: type`.
pub fn param(c_name: &str, ty: &CType, usage: Usage) -> String {
    format!("{}: {}", python_name(c_name), param_type(ty, usage))
}

/// The return type of a function's stub: its one result or None where results are plain,
/// else a tuple of them.
pub fn returns(plain: bool, results: &[String]) -> String {
    match (plain, results) {
        (true, []) => "None".into(),
        (true, [one]) => one.clone(),
        (_, []) => "tuple[()]".into(),
        (_, all) => format!("tuple[{}]", all.join(", ")),
    }
}

/// The type of a C value given from Python (an `In` argument, a field assigned).
fn value_type(ty: &CType) -> String {
    match ty {
        CType::Bool => "bool".into(),
        CType::Int { .. } => "SupportsIndex".into(),
        CType::Float { .. } => "float".into(),
        CType::Enum { name, .. } => format!("{name} | int"),
        CType::Record { name } => name.clone(),
        CType::Handle { name } => format!("{name} | _PointerLike"),
        _ => "_PointerLike".into(),
    }
}

/// The type of a result built from a C value; `sized` for a `void **` of known size.
pub fn result_type(ty: &CType, sized: bool) -> String {
    match ty {
        CType::Bool => "bool".into(),
        CType::Int { .. } => "int".into(),
        CType::Float { .. } => "float".into(),
        CType::Enum { name, .. } | CType::Handle { name } | CType::Record { name } => name.clone(),
        CType::Pointer { pointee, .. } if pointee.is_char() => "bytes".into(),
        CType::Pointer { pointee, .. } => match pointee.as_ref() {
            CType::Record { name } => name.clone(),
            _ if sized => "DeviceArray".into(),
            _ => "Pointer".into(),
        },
        _ => "Any".into(),
    }
}

/// A struct field as the stub declares it: read as `get`, assigned as `set`.
#[derive(Serialize)]
pub struct StubField {
    /// Field name.
    pub name: String,
    /// Type read.
    pub get: String,
    /// Type accepted on assignment (and by the constructor).
    pub set: String,
    /// Whether the stub needs a property to say both (an `int` field takes any
    /// `SupportsIndex` too, but is declared `int` for brevity).
    pub property: bool,
}

/// The field's read and assigned types; `local` says whether a named type is this module's
/// (imported enums and handles are read as integers and pointers).
pub fn field(name: &str, ty: &CType, local: &dyn Fn(&str) -> bool) -> StubField {
    let (get, set) = field_types(ty, local);
    StubField {
        name: name.to_string(),
        property: get != set && get != "int" && get != "float",
        get,
        set,
    }
}

fn field_types(ty: &CType, local: &dyn Fn(&str) -> bool) -> (String, String) {
    match ty {
        CType::Enum { name, .. } if !local(name) => ("int".into(), "SupportsIndex".into()),
        CType::Handle { name } if !local(name) => ("Pointer".into(), "_PointerLike".into()),
        CType::Handle { name } => (format!("{name} | None"), value_type(ty)),
        CType::Array { elem, .. } if elem.is_char() => ("bytes".into(), "bytes | str".into()),
        CType::Array { elem, .. } => {
            let (g, s) = field_types(elem, local);
            (format!("list[{g}]"), format!("Sequence[{s}]"))
        }
        CType::Pointer { .. } => ("Pointer".into(), "_PointerLike".into()),
        _ => (result_type(ty, false), value_type(ty)),
    }
}

/// An enum class of the stub.
#[derive(Serialize)]
pub struct StubEnum {
    /// Class name.
    pub name: String,
    /// Other names bound to the class.
    pub aliases: Vec<String>,
    /// Members that can be written (name, value).
    pub members: Vec<(String, i64)>,
    /// Docstring literal (with quotes), or empty.
    pub doc: String,
}

/// A struct or union class of the stub.
#[derive(Serialize)]
pub struct StubRecord {
    /// Class name.
    pub name: String,
    /// Other names bound to the class.
    pub aliases: Vec<String>,
    /// Fields that can be written as attributes.
    pub fields: Vec<StubField>,
    /// Docstring literal (with quotes), or empty.
    pub doc: String,
}

/// A handle class of the stub.
#[derive(Serialize)]
pub struct StubHandle {
    /// Class name.
    pub name: String,
    /// Other names bound to the class.
    pub aliases: Vec<String>,
}

/// The classes of `lib`, as the stub declares them.
pub fn classes(
    lib: &Library,
    local: &dyn Fn(&str) -> bool,
) -> (Vec<StubEnum>, Vec<StubRecord>, Vec<StubHandle>) {
    let enums = lib
        .enums
        .iter()
        .map(|e| StubEnum {
            name: e.name.clone(),
            aliases: e.aliases.clone(),
            members: e
                .members
                .iter()
                .filter(|(n, _)| usable_name(n) && !ENUM_RESERVED.contains(&n.as_str()))
                .cloned()
                .collect(),
            doc: doc_literal(&e.doc.text, "    "),
        })
        .collect();
    let records = lib
        .records
        .iter()
        .map(|r| StubRecord {
            name: r.name.clone(),
            aliases: r.aliases.clone(),
            fields: r
                .fields
                .iter()
                .filter(|f| usable_name(&f.name) && !RECORD_RESERVED.contains(&f.name.as_str()))
                .map(|f| field(&f.name, &f.ty, local))
                .collect(),
            doc: doc_literal(&r.doc.text, "    "),
        })
        .collect();
    let handles = lib
        .handles
        .iter()
        .map(|h| StubHandle {
            name: h.name.clone(),
            aliases: h.aliases.clone(),
        })
        .collect();
    (enums, records, handles)
}

/// Names an `IntEnum` member cannot have in a stub (they are the class's own attributes).
pub const ENUM_RESERVED: &[&str] = &["name", "value", "mro"];

/// Field names that would hide the struct base class's methods in a stub.
const RECORD_RESERVED: &[&str] = &[
    "self",
    "_values",
    "_ptr",
    "getPtr",
    "fromObj",
    "createRef",
    "c_sizeof",
    "PROPERTIES",
];

/// A docstring literal of `lines` (triple-quoted, continuation lines indented by `indent`),
/// or an empty string for no text.
pub fn doc_literal(text: &str, indent: &str) -> String {
    let text = text.trim_end();
    if text.trim().is_empty() {
        return String::new();
    }
    let escaped = text.replace('\\', "\\\\").replace("\"\"\"", "\\\"\\\"\\\"");
    let mut out = String::from("\"\"\"");
    for (i, line) in escaped.lines().enumerate() {
        if i > 0 {
            out.push('\n');
            if !line.is_empty() {
                out.push_str(indent);
            }
        }
        out.push_str(line);
    }
    if escaped.lines().count() > 1 {
        out.push('\n');
        out.push_str(indent);
    } else if out.ends_with('"') {
        out.push(' ');
    }
    out.push_str("\"\"\"");
    out
}

/// The docstring literal of a function from its rendered docstring lines.
pub fn function_doc(lines: &[String]) -> String {
    doc_literal(&lines.join("\n"), "    ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pointer_parameters_take_their_class_or_anything_pointer_like() {
        let stream = CType::Pointer {
            pointee: Box::new(CType::Handle {
                name: "hipStream_t".into(),
            }),
            is_const: false,
        };
        assert_eq!(
            param_type(&stream, Usage::ByRef),
            "hipStream_t | _PointerLike"
        );
        let int = CType::Int {
            size: 8,
            signed: false,
            is_char: false,
        };
        assert_eq!(param_type(&int, Usage::In), "SupportsIndex");
    }

    #[test]
    fn results_are_what_the_call_builds() {
        let void_ptr = CType::Pointer {
            pointee: Box::new(CType::Void),
            is_const: false,
        };
        assert_eq!(result_type(&void_ptr, false), "Pointer");
        assert_eq!(result_type(&void_ptr, true), "DeviceArray");
        let chars = CType::Pointer {
            pointee: Box::new(CType::Int {
                size: 1,
                signed: true,
                is_char: true,
            }),
            is_const: true,
        };
        assert_eq!(result_type(&chars, false), "bytes");
    }

    #[test]
    fn docstrings_escape_quotes_and_backslashes() {
        assert_eq!(doc_literal("", "    "), "");
        assert_eq!(doc_literal("say \"hi\"", "    "), "\"\"\"say \"hi\" \"\"\"");
        assert_eq!(
            doc_literal("a\\b\n\"\"\"c", "  "),
            "\"\"\"a\\\\b\n  \\\"\\\"\\\"c\n  \"\"\""
        );
    }

    #[test]
    fn imported_enums_are_fields_of_integers() {
        let e = CType::Enum {
            name: "hipDataType".into(),
            size: 4,
            signed: false,
        };
        let f = field("t", &e, &|_| false);
        assert_eq!((f.get.as_str(), f.set.as_str()), ("int", "SupportsIndex"));
        let f = field("t", &e, &|_| true);
        assert_eq!(f.get, "hipDataType");
    }
}
