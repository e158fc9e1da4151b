//! Which integer says how many items a list argument holds, and checks of the spec's counts
//! and sizes against the function they name.

use crate::ir::{CType, Function, Param, Usage};
use anyhow::{bail, Result};
use regex::Regex;
use std::sync::LazyLock;

/// Names of count parameters (`n`, `numOptions`, `ParamCount`, `NumArgs`, `nargs`, `argc`).
static COUNT_NAME: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)^(n|num.*|n[a-z]*args|.*count|argc|number|length)$").expect("valid regex")
});

/// Whether C reads `p` as an array of items a Python list or buffer may hold: strings
/// (`const char **options`) or handles (`LLVMTypeRef *ParamTypes`, `const hipGraphNode_t *`).
pub fn is_list(p: &Param) -> bool {
    let CType::Pointer { pointee, .. } = &p.ty else {
        return false;
    };
    match pointee.as_ref() {
        CType::Pointer {
            pointee: inner,
            is_const,
        } => p.usage == Usage::StringArray && inner.is_char() && *is_const,
        CType::Handle { .. } => matches!(p.usage, Usage::Pointer),
        _ => false,
    }
}

/// Pairs each list parameter of `f` without a count from the spec with the count-named
/// integer parameter right before or after it (`numOptions, options`; `Args, NumArgs`).
pub fn pair_counts(f: &mut Function) {
    let is_count = |p: &Param| {
        matches!(p.ty, CType::Int { .. }) && p.usage == Usage::In && COUNT_NAME.is_match(&p.name)
    };
    for i in 0..f.params.len() {
        if f.params[i].count.is_some() || !is_list(&f.params[i]) {
            continue;
        }
        let before = i.checked_sub(1).filter(|&j| is_count(&f.params[j]));
        let after = Some(i + 1).filter(|&j| j < f.params.len() && is_count(&f.params[j]));
        if let Some(j) = before.or(after) {
            f.params[i].count = Some(f.params[j].name.clone());
        }
    }
}

/// Marks the arrays of handles paired with a count as arrays C reads, which take a Python
/// list (`LLVMConstStruct(ConstantVals, Count, Packed)`, whose header does not say `const`):
/// an array a C API fills comes without a count, sized by a call of its own (`LLVMGetParams`
/// after `LLVMCountParams`).
pub fn mark_read_arrays(f: &mut Function) {
    for p in &mut f.params {
        let handles = matches!(&p.ty, CType::Pointer { pointee, is_const: false } if matches!(**pointee, CType::Handle { .. }));
        let by_value = p.count.as_deref().is_some_and(|c| count_query(c).is_none());
        if handles && by_value && is_list(p) {
            p.list = true;
        }
    }
}

/// A count the library answers (`LLVMCountParams(Fn)`): the function and the parameters of the
/// counted function passed to it; None for a count parameter.
pub fn count_query(count: &str) -> Option<(&str, Vec<String>)> {
    let (function, args) = count.strip_suffix(')')?.split_once('(')?;
    let args = args.split(',').map(|a| a.trim().to_string());
    Some((function.trim(), args.filter(|a| !a.is_empty()).collect()))
}

/// Checks that the counts and sizes `f`'s parameters name exist and can be read.
pub fn check(f: &Function) -> Result<()> {
    for p in &f.params {
        if let Some((query, args)) = p.count.as_deref().and_then(count_query) {
            let handles = matches!(&p.ty, CType::Pointer { pointee, is_const: false } if matches!(**pointee, CType::Handle { .. }));
            let known = args.iter().all(|a| f.params.iter().any(|q| &q.name == a));
            if !handles || !known {
                bail!(
                    "{}.{}: {query}({}) counts no array of handles C fills with its parameters",
                    f.name,
                    p.name,
                    args.join(", ")
                );
            }
        } else if let Some(c) = &p.count {
            let ok = f
                .params
                .iter()
                .any(|q| &q.name == c && matches!(q.ty, CType::Int { .. }) && q.usage == Usage::In);
            if !ok || !is_list(p) {
                bail!(
                    "{}.{}: count {c} pairs no list with an integer",
                    f.name,
                    p.name
                );
            }
        }
        if let Some(s) = &p.sized_by {
            if !matches!(&p.ty, CType::Pointer { pointee, .. } if matches!(**pointee, CType::Void) || pointee.is_char())
                || !matches!(p.usage, Usage::Pointer)
            {
                bail!("{}.{}: only untyped buffers are sized", f.name, p.name);
            }
            if s.ends_with("()") {
                continue;
            }
            let Some(q) = f.params.iter().find(|q| &q.name == s) else {
                bail!("{}.{}: size {s} is not a parameter", f.name, p.name);
            };
            let int_ptr = matches!(&q.ty, CType::Pointer { pointee, .. } if matches!(**pointee, CType::Int { size: 8, .. }));
            let value = matches!(q.ty, CType::Int { .. }) && q.usage == Usage::In;
            if !(value || (int_ptr && q.usage == Usage::Pointer)) {
                bail!(
                    "{}.{}: size {s} is neither an integer nor a size_t *",
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
    use super::count_query;

    #[test]
    fn a_count_the_library_answers_names_its_function_and_arguments() {
        assert_eq!(
            count_query("LLVMGetNamedMetadataNumOperands(M, Name)"),
            Some((
                "LLVMGetNamedMetadataNumOperands",
                vec!["M".to_string(), "Name".to_string()]
            ))
        );
        assert_eq!(count_query("numHeaders"), None);
    }
}
