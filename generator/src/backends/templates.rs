//! The minijinja environment every output is rendered with: templates read from
//! `templates/`, Jinja's block whitespace rules, and the filters that spell values in the
//! target language.

use minijinja::Environment;
use std::path::Path;

/// An environment loading templates from `dir`.
pub fn environment(dir: &Path) -> Environment<'static> {
    let mut env = Environment::new();
    env.set_loader(minijinja::path_loader(dir));
    env.set_trim_blocks(true);
    env.set_lstrip_blocks(true);
    env.set_keep_trailing_newline(true);
    env.add_filter("rust_str", rust_str);
    env
}

/// A Rust string literal of `s`, escaped as Rust escapes it (`tojson` escapes `<` and `'`
/// as `\u003c`, which Rust does not read).
fn rust_str(s: String) -> String {
    format!("{s:?}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rust_strings_escape_as_rust_reads_them() {
        assert_eq!(rust_str("a\"b\\c\n<'é".into()), r#""a\"b\\c\n<'é""#);
    }
}
