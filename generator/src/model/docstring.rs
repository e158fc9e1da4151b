//! Docstrings of generated functions and classes: the header's Doxygen text with `Args:` and
//! `Returns:` sections, shared by the extension modules and their `.pyi` stubs.

use crate::ir::{CType, Doc};

/// A short description of a returned C type.
pub fn describe(ty: &CType) -> String {
    match ty {
        CType::Bool => "bool".into(),
        CType::Int { .. } => "int".into(),
        CType::Float { .. } => "float".into(),
        CType::Enum { name, .. } | CType::Record { name } | CType::Handle { name } => name.clone(),
        CType::Pointer { pointee, .. } if pointee.is_char() => "bytes".into(),
        CType::Pointer { .. } => "Pointer".into(),
        _ => "object".into(),
    }
}

/// Docstring lines: description, `Args:` and `Returns:` sections.
pub fn lines(doc: &Doc, params: &[String], returns: &[String]) -> Vec<String> {
    let mut out: Vec<String> = doc.text.lines().map(str::to_string).collect();
    if !params.is_empty() {
        if !out.is_empty() {
            out.push(String::new());
        }
        out.push("Args:".into());
        for p in params {
            let entry = doc.params.iter().find(|(n, _, _)| n == p);
            match entry {
                Some((_, dir, text)) if !text.is_empty() => {
                    let dir = if dir.is_empty() {
                        String::new()
                    } else {
                        format!(" [{dir}]")
                    };
                    let mut lines = text.lines();
                    out.push(format!(
                        "    {p}{dir}: {}",
                        lines.next().unwrap_or_default()
                    ));
                    out.extend(lines.map(|l| format!("        {l}")));
                }
                _ => out.push(format!("    {p}")),
            }
        }
    }
    if !returns.is_empty() {
        if !out.is_empty() {
            out.push(String::new());
        }
        out.push(format!("Returns: a tuple of {} item(s):", returns.len()));
        out.extend(returns.iter().map(|r| format!("    {r}")));
        if !doc.returns.is_empty() {
            out.extend(doc.returns.lines().map(|l| format!("    {l}")));
        }
    }
    out
}

/// The line of a function's `Returns:` section for a status result.
pub fn status_line(status: &str) -> String {
    format!("{status}: status")
}

/// The line of a function's `Returns:` section for the success status put first in the
/// result of a function returning a value.
pub fn success_line(status: &str) -> String {
    format!("{status}: always success")
}

/// The line of a function's `Returns:` section for an output parameter.
pub fn output_line(name: &str, what: &str) -> String {
    format!("{name}: {what}")
}
