//! How each parameter travels between Python and C: defaults from the C type, overridden by
//! the spec's per-parameter rules.

use crate::ir::{CType, Function, Usage};
use crate::spec::Spec;
use anyhow::{bail, Result};
use std::collections::HashSet;

/// The usage a parameter gets from its type alone.
///
/// Non-const pointers to numbers, enums and handles are outputs (`int *count`,
/// `hipStream_t *stream`), as is `void **` (`hipMalloc`). `const char *` is a string,
/// `const char **` an array of strings; every other pointer is passed as pointer-like.
pub fn default_usage(ty: &CType) -> Usage {
    let CType::Pointer { pointee, is_const } = ty else {
        return Usage::In;
    };
    match (pointee.as_ref(), *is_const) {
        (p, true) if p.is_char() => Usage::String,
        (CType::Pointer { pointee: inner, .. }, _) if inner.is_char() => Usage::StringArray,
        (p, false) if p.is_scalar() && !p.is_char() => Usage::Out,
        (CType::Handle { .. }, false) => Usage::Out,
        (CType::Pointer { pointee: inner, .. }, false)
            if matches!(**inner, CType::Void | CType::Record { .. }) =>
        {
            Usage::Out
        }
        _ => Usage::Pointer,
    }
}

/// Sets every parameter's usage of `f`, checking that spec rules make sense.
pub fn apply(spec: &Spec, f: &mut Function, records: &HashSet<String>) -> Result<()> {
    let names: Vec<String> = f.params.iter().map(|p| p.name.clone()).collect();
    for p in &mut f.params {
        p.usage = default_usage(&p.ty);
        if let Some(rule) = spec.param_rule(&f.name, &p.name)? {
            p.usage = rule.usage;
            p.size_param = rule.size_param.clone();
        }
        if matches!(p.usage, Usage::Out | Usage::OutString | Usage::ByRef)
            && !matches!(p.ty, CType::Pointer { .. })
        {
            bail!("{}.{}: only pointers can be out parameters", f.name, p.name);
        }
        if p.usage == Usage::OutString && p.size_param.is_none() {
            bail!("{}.{}: out_string needs size_param", f.name, p.name);
        }
        if let Some(sp) = &p.size_param {
            if !names.contains(sp) {
                bail!("{}.{}: size_param {sp} is not a parameter", f.name, p.name);
            }
        }
        if let CType::Record { name } = &p.ty {
            if !records.contains(name) {
                bail!(
                    "{}.{}: record {name} passed by value has no definition",
                    f.name,
                    p.name
                );
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A pointer type.
    fn ptr(p: CType, is_const: bool) -> CType {
        CType::Pointer {
            pointee: Box::new(p),
            is_const,
        }
    }

    /// `int`.
    fn int() -> CType {
        CType::Int {
            size: 4,
            signed: true,
            is_char: false,
        }
    }

    /// `char`.
    fn chr() -> CType {
        CType::Int {
            size: 1,
            signed: true,
            is_char: true,
        }
    }

    #[test]
    fn defaults_follow_the_c_type() {
        assert_eq!(default_usage(&int()), Usage::In);
        assert_eq!(default_usage(&ptr(int(), false)), Usage::Out);
        assert_eq!(default_usage(&ptr(int(), true)), Usage::Pointer);
        assert_eq!(default_usage(&ptr(chr(), true)), Usage::String);
        assert_eq!(default_usage(&ptr(chr(), false)), Usage::Pointer);
        assert_eq!(
            default_usage(&ptr(ptr(chr(), true), true)),
            Usage::StringArray
        );
        assert_eq!(
            default_usage(&ptr(ptr(CType::Void, false), false)),
            Usage::Out
        );
        assert_eq!(default_usage(&ptr(CType::Void, true)), Usage::Pointer);
        let h = CType::Handle {
            name: "ihipStream_t".into(),
        };
        assert_eq!(default_usage(&ptr(h.clone(), false)), Usage::Out);
        assert_eq!(default_usage(&h), Usage::In);
        let r = CType::Record {
            name: "dim3".into(),
        };
        assert_eq!(default_usage(&ptr(r.clone(), false)), Usage::Pointer);
        assert_eq!(default_usage(&ptr(ptr(r, true), false)), Usage::Out);
    }
}
