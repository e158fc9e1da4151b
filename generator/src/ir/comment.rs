//! Doxygen comments turned into the parts a docstring needs.

use serde::{Deserialize, Serialize};

/// A declaration's documentation, split the way docstrings show it.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct Doc {
    /// Description (`@brief` and free text), paragraphs separated by blank lines.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub text: String,
    /// `@param` entries: name, direction (`in`, `out`, `in,out` or empty), description.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub params: Vec<(String, String, String)>,
    /// `@return(s)` text.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub returns: String,
}

impl Doc {
    /// Whether there is nothing to show.
    pub fn is_empty(&self) -> bool {
        self.text.is_empty() && self.params.is_empty() && self.returns.is_empty()
    }

    /// Parses a raw Doxygen comment (`/** ... */`, `///`, `//!<`).
    pub fn parse(raw: &str) -> Doc {
        let mut doc = Doc::default();
        /// Which section the current line continues.
        enum Section {
            Text,
            Param,
            Returns,
            Ignored,
        }
        let mut section = Section::Text;
        for line in clean_lines(raw) {
            let trimmed = line.trim();
            let (cmd, rest) = split_command(trimmed);
            match cmd.as_deref() {
                Some("brief") | Some("details") => {
                    section = Section::Text;
                    push_line(&mut doc.text, rest);
                }
                Some("param") | Some("tparam") => {
                    let (dir, rest) = match rest.strip_prefix('[') {
                        Some(r) => match r.split_once(']') {
                            Some((d, r)) => (d.replace(' ', ""), r.trim_start()),
                            None => (String::new(), rest),
                        },
                        None => (String::new(), rest),
                    };
                    let (name, text) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
                    doc.params
                        .push((name.to_string(), dir, text.trim().to_string()));
                    section = Section::Param;
                }
                Some("return") | Some("returns") | Some("retval") => {
                    section = Section::Returns;
                    push_line(&mut doc.returns, rest);
                }
                Some("see") | Some("sa") => {
                    section = Section::Text;
                    push_line(&mut doc.text, &format!("See: {rest}"));
                }
                Some("note") | Some("warning") | Some("deprecated") | Some("bug") => {
                    section = Section::Text;
                    let label = cmd.as_deref().unwrap_or_default();
                    let mut label = label.to_string();
                    label[..1].make_ascii_uppercase();
                    push_line(&mut doc.text, &format!("{label}: {rest}"));
                }
                Some(_) => section = Section::Ignored,
                // A blank line ends a @param or @returns paragraph.
                None if trimmed.is_empty() => {
                    section = Section::Text;
                    push_line(&mut doc.text, "");
                }
                None => match section {
                    Section::Text => push_line(&mut doc.text, trimmed),
                    Section::Param => {
                        if let Some(last) = doc.params.last_mut() {
                            push_line(&mut last.2, trimmed);
                        }
                    }
                    Section::Returns => push_line(&mut doc.returns, trimmed),
                    Section::Ignored => {}
                },
            }
        }
        doc.text = doc.text.trim().to_string();
        doc.returns = doc.returns.trim().to_string();
        doc
    }
}

/// The comment's lines without comment markers and leading `*`.
fn clean_lines(raw: &str) -> Vec<String> {
    raw.lines()
        .map(|l| {
            let l = l.trim();
            let l = l
                .trim_start_matches("/**<")
                .trim_start_matches("///<")
                .trim_start_matches("//!<")
                .trim_start_matches("/**")
                .trim_start_matches("/*!")
                .trim_start_matches("///")
                .trim_start_matches("//!")
                .trim_end_matches("*/");
            let l = l.trim_start();
            let l = l.strip_prefix('*').unwrap_or(l);
            // Inline markup that reads as noise in a docstring.
            l.replace("@p ", "")
                .replace("@ref ", "")
                .replace("\\p ", "")
        })
        .collect()
}

/// Splits `@cmd rest` / `\cmd rest` into the command and the rest.
fn split_command(line: &str) -> (Option<String>, &str) {
    let Some(body) = line.strip_prefix('@').or_else(|| line.strip_prefix('\\')) else {
        return (None, line);
    };
    let end = body
        .find(|c: char| !c.is_ascii_alphanumeric() && c != '_')
        .unwrap_or(body.len());
    if end == 0 {
        // `@{` / `@}` group markers and the like.
        return (Some(String::new()), "");
    }
    (Some(body[..end].to_string()), body[end..].trim_start())
}

/// Appends a line, keeping blank lines as paragraph breaks and never two in a row.
fn push_line(buf: &mut String, line: &str) {
    if line.is_empty() {
        if !buf.is_empty() && !buf.ends_with("\n\n") {
            buf.push_str("\n\n");
        }
        return;
    }
    if !buf.is_empty() && !buf.ends_with('\n') {
        buf.push('\n');
    }
    buf.push_str(line);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_brief_params_and_returns() {
        let d = Doc::parse(
            "/**\n * @brief Allocate memory\n *\n * More text.\n * @param[out] ptr Pointer\n *   to memory\n * @param [in] size Bytes\n * @returns #hipSuccess\n * @ingroup Memory\n */",
        );
        assert_eq!(d.text, "Allocate memory\n\nMore text.");
        assert_eq!(
            d.params,
            vec![
                ("ptr".into(), "out".into(), "Pointer\nto memory".into()),
                ("size".into(), "in".into(), "Bytes".into())
            ]
        );
        assert_eq!(d.returns, "#hipSuccess");
    }

    #[test]
    fn text_after_returns_is_description() {
        let d = Doc::parse("/** @returns #hipSuccess\n *\n * Writes @p count. */");
        assert_eq!(d.returns, "#hipSuccess");
        assert_eq!(d.text, "Writes count.");
    }

    #[test]
    fn trailing_member_comment() {
        assert_eq!(Doc::parse("///< Device name.").text, "Device name.");
    }
}
