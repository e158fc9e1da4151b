//! How C names become Rust identifiers and Python parameter names in generated code.

/// Rust keywords that C parameter names may collide with.
const RUST_KEYWORDS: &[&str] = &[
    "as", "break", "const", "continue", "crate", "else", "enum", "extern", "false", "fn", "for",
    "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub", "ref", "return",
    "static", "struct", "super", "trait", "true", "type", "unsafe", "use", "where", "while",
    "async", "await", "dyn", "abstract", "become", "box", "do", "final", "macro", "override",
    "priv", "typeof", "unsized", "virtual", "yield", "try", "gen",
];

/// Python keywords, which cannot be parameter names.
pub const PYTHON_KEYWORDS: &[&str] = &[
    "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue",
    "def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import",
    "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while",
    "with", "yield",
];

/// The Rust identifier of a C parameter or field, which is also a valid Python parameter
/// name once a raw `r#` is dropped (`from` becomes `from_`, `type` becomes `r#type`).
pub fn rust_name(name: &str) -> String {
    // Keywords Rust has no raw form of, and Python keywords.
    if PYTHON_KEYWORDS.contains(&name)
        || ["self", "Self", "crate", "super", "Ok", "Err", "Some"].contains(&name)
    {
        return format!("{name}_");
    }
    if RUST_KEYWORDS.contains(&name) {
        format!("r#{name}")
    } else {
        name.to_string()
    }
}

/// The Python name of a C parameter: its own, unless it is a Python keyword (`from` is
/// `from_`). Names only Rust reserves stay (`self`, `Err`, `type`), as in hip-python.
pub fn python_name(name: &str) -> String {
    if PYTHON_KEYWORDS.contains(&name) {
        format!("{name}_")
    } else {
        name.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keywords_of_either_language_are_mangled() {
        assert_eq!(rust_name("count"), "count");
        assert_eq!(rust_name("from"), "from_");
        assert_eq!(rust_name("type"), "r#type");
        assert_eq!(python_name("type"), "type");
        assert_eq!(rust_name("self"), "self_");
        assert_eq!(python_name("self"), "self");
        assert_eq!(python_name("Err"), "Err");
        assert_eq!(python_name("from"), "from_");
    }
}
