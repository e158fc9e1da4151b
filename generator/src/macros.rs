//! Object-like macros: integer and string constants, and API renames
//! (`#define hipGetDeviceProperties hipGetDevicePropertiesR0600`).

use crate::ir::{ConstValue, Constant, TypedConstant};
use std::collections::HashMap;

/// Evaluates each macro body that is a constant expression; the others are ignored.
pub fn evaluate(macros: &[(String, Vec<String>)], known: &[Constant]) -> Vec<Constant> {
    let mut env: HashMap<String, i64> = known
        .iter()
        .filter_map(|c| match c.value {
            ConstValue::Int(v) => Some((c.name.clone(), v)),
            ConstValue::Str(_) => None,
        })
        .collect();
    let mut out = Vec::new();
    for (name, body) in macros {
        if let [lit] = body.as_slice() {
            if let Some(s) = string_literal(lit) {
                out.push(Constant {
                    name: name.clone(),
                    value: ConstValue::Str(s),
                });
                continue;
            }
        }
        let mut p = ExprParser {
            toks: body,
            pos: 0,
            env: &env,
        };
        if let Some(v) = p.expr(0) {
            if p.pos == body.len() {
                env.insert(name.clone(), v);
                out.push(Constant {
                    name: name.clone(),
                    value: ConstValue::Int(v),
                });
            }
        }
    }
    out
}

/// Macros casting an integer literal to a named type: `((CUstream)0x1)`.
pub fn typed_constants(macros: &[(String, Vec<String>)]) -> Vec<TypedConstant> {
    macros
        .iter()
        .filter_map(|(name, body)| {
            let [o1, o2, ty, c1, value @ .., c2] = body.as_slice() else {
                return None;
            };
            let parens = [o1, o2, c1, c2].map(String::as_str) == ["(", "(", ")", ")"];
            (parens && is_identifier(ty) && !TYPE_WORDS.contains(&ty.as_str())).then_some(())?;
            Some(TypedConstant {
                name: name.clone(),
                ty: ty.clone(),
                value: literal(value)?,
            })
        })
        .collect()
}

/// `0x1`, `1`, `1ULL`, `-1`: the value of an integer literal (negative ones as two's
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

/// Macros whose body is one identifier: target name → macro name.
pub fn renames(macros: &[(String, Vec<String>)]) -> HashMap<String, String> {
    macros
        .iter()
        .filter_map(|(name, body)| match body.as_slice() {
            // `#define cuMemcpy __CUDA_API_PTDS(cuMemcpy_v2)`: a wrapper macro choosing the
            // per-thread variant, which names the function otherwise.
            [target] if is_identifier(target) && target != name => {
                Some((target.clone(), name.clone()))
            }
            [wrapper, open, target, close]
                if is_identifier(wrapper)
                    && open == "("
                    && close == ")"
                    && is_identifier(target)
                    && target != name =>
            {
                Some((target.clone(), name.clone()))
            }
            _ => None,
        })
        .collect()
}

/// Whether a token is a C identifier.
fn is_identifier(t: &str) -> bool {
    t.chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && t.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// The contents of a plain `"..."` literal without escapes.
fn string_literal(t: &str) -> Option<String> {
    let inner = t.strip_prefix('"')?.strip_suffix('"')?;
    (!inner.contains('\\')).then(|| inner.to_string())
}

/// Parses an integer literal with C suffixes.
fn int_literal(t: &str) -> Option<i64> {
    let t = t.trim_end_matches(['u', 'U', 'l', 'L']);
    let v = if let Some(h) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        u64::from_str_radix(h, 16).ok()?
    } else if t.len() > 1 && t.starts_with('0') {
        u64::from_str_radix(&t[1..], 8).ok()?
    } else {
        t.parse::<u64>().ok()?
    };
    Some(v as i64)
}

/// Words that may appear inside a cast.
const TYPE_WORDS: &[&str] = &[
    "void", "int", "unsigned", "signed", "long", "short", "char", "size_t", "uint32_t", "uint64_t",
    "int32_t", "int64_t", "*", "const",
];

/// A precedence-climbing parser over macro tokens.
struct ExprParser<'a> {
    /// The tokens.
    toks: &'a [String],
    /// Next token.
    pos: usize,
    /// Values of earlier constants.
    env: &'a HashMap<String, i64>,
}

impl ExprParser<'_> {
    /// The next token, if any.
    fn peek(&self) -> Option<&str> {
        self.toks.get(self.pos).map(String::as_str)
    }

    /// Parses a binary expression whose operators bind at least as tight as `min_prec`.
    fn expr(&mut self, min_prec: u8) -> Option<i64> {
        let mut lhs = self.unary()?;
        while let Some(op) = self.peek() {
            let prec = match op {
                "|" => 1,
                "^" => 2,
                "&" => 3,
                "<<" | ">>" => 4,
                "+" | "-" => 5,
                "*" | "/" | "%" => 6,
                _ => break,
            };
            if prec < min_prec {
                break;
            }
            let op = op.to_string();
            self.pos += 1;
            let rhs = self.expr(prec + 1)?;
            lhs = match op.as_str() {
                "|" => lhs | rhs,
                "^" => lhs ^ rhs,
                "&" => lhs & rhs,
                "<<" => lhs.checked_shl(rhs as u32)?,
                ">>" => lhs.checked_shr(rhs as u32)?,
                "+" => lhs.wrapping_add(rhs),
                "-" => lhs.wrapping_sub(rhs),
                "*" => lhs.wrapping_mul(rhs),
                "/" => lhs.checked_div(rhs)?,
                _ => lhs.checked_rem(rhs)?,
            };
        }
        Some(lhs)
    }

    /// Parses a unary expression, a cast, a parenthesised expression or an atom.
    fn unary(&mut self) -> Option<i64> {
        let t = self.peek()?.to_string();
        self.pos += 1;
        match t.as_str() {
            "-" => Some(self.unary()?.wrapping_neg()),
            "~" => Some(!self.unary()?),
            "+" => self.unary(),
            "(" => {
                // A cast such as `(void*)` or `(unsigned int)` is skipped.
                let start = self.pos;
                let mut end = start;
                while self
                    .toks
                    .get(end)
                    .is_some_and(|w| TYPE_WORDS.contains(&w.as_str()))
                {
                    end += 1;
                }
                if end > start && self.toks.get(end).map(String::as_str) == Some(")") {
                    self.pos = end + 1;
                    return self.unary();
                }
                let v = self.expr(0)?;
                (self.peek() == Some(")")).then(|| self.pos += 1)?;
                Some(v)
            }
            _ => int_literal(&t).or_else(|| self.env.get(&t).copied()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Splits a macro body on spaces, as libclang's tokens would be.
    fn m(name: &str, body: &str) -> (String, Vec<String>) {
        (
            name.into(),
            body.split_whitespace().map(String::from).collect(),
        )
    }

    #[test]
    fn reads_typed_constants() {
        let macros = vec![
            m("L", "( ( CUstream ) 0x1 )"),
            m("N", "( ( CUstream ) - 1 )"),
            m("U", "( ( CUstream ) 2ULL )"),
            m("V", "( ( void ) 1 )"),
            m("X", "( ( CUstream ) x )"),
        ];
        let got: Vec<_> = typed_constants(&macros)
            .into_iter()
            .map(|c| (c.name, c.ty, c.value))
            .collect();
        let ty = || "CUstream".to_string();
        assert_eq!(
            got,
            [
                ("L".into(), ty(), 1),
                ("N".into(), ty(), u64::MAX),
                ("U".into(), ty(), 2)
            ]
        );
    }

    #[test]
    fn evaluates_integer_expressions_and_casts() {
        let macros = vec![
            m("A", "0x10u"),
            m("B", "( A | ( 1 << 2 ) )"),
            m("C", "( ( void * ) 0x01 )"),
            m("D", "- 1"),
            m("S", "\"abc\""),
            m("F", "foo ( 1 )"),
        ];
        let got: HashMap<_, _> = evaluate(&macros, &[])
            .into_iter()
            .map(|c| (c.name, c.value))
            .collect();
        assert_eq!(got["A"], ConstValue::Int(16));
        assert_eq!(got["B"], ConstValue::Int(20));
        assert_eq!(got["C"], ConstValue::Int(1));
        assert_eq!(got["D"], ConstValue::Int(-1));
        assert_eq!(got["S"], ConstValue::Str("abc".into()));
        assert!(!got.contains_key("F"));
    }

    #[test]
    fn finds_renames() {
        let r = renames(&[
            m("hipGetDeviceProperties", "hipGetDevicePropertiesR0600"),
            m("X", "1"),
        ]);
        assert_eq!(r["hipGetDevicePropertiesR0600"], "hipGetDeviceProperties");
        assert_eq!(r.len(), 1);
    }
}
