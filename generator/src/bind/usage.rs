//! How each parameter travels between Python and C: defaults from the C type, overridden by
//! the spec's per-parameter rules.

use crate::ir::{CType, Function, Usage};
use crate::spec::Spec;
use anyhow::{bail, Result};

/// The usage a parameter gets from its type alone.
///
/// Non-const pointers to handles are outputs (`hipStream_t *stream`). Non-const pointers to
/// numbers and enums (`int *count`) and to pointers (`void **ptr` of `hipMalloc`) get
/// `scalar_pointers`: outputs for HIP, caller-provided buffers for the math libraries.
/// `const char *` is a string, `const char **` an array of strings; every other pointer is
/// passed as pointer-like.
pub fn default_usage(ty: &CType, scalar_pointers: Usage, handle_pointers: Usage) -> Usage {
    let CType::Pointer { pointee, is_const } = ty else {
        return Usage::In;
    };
    match (pointee.as_ref(), *is_const) {
        (p, true) if p.is_char() => Usage::String,
        (CType::Pointer { pointee: inner, .. }, _) if inner.is_char() => Usage::StringArray,
        (CType::Handle { .. }, false) => handle_pointers,
        (p, false) if p.is_scalar() && !p.is_char() => scalar_pointers,
        // `void **` and `T **`: outputs where scalars are, else arrays of device pointers
        // (batched BLAS) the caller provides.
        (CType::Pointer { pointee: inner, .. }, false)
            if matches!(**inner, CType::Void | CType::Record { .. }) =>
        {
            scalar_pointers
        }
        _ => Usage::Pointer,
    }
}

/// Sets every parameter's usage of `f`, checking that spec rules make sense.
pub fn apply(spec: &Spec, f: &mut Function) -> Result<()> {
    let names: Vec<String> = f.params.iter().map(|p| p.name.clone()).collect();
    for p in &mut f.params {
        p.usage = default_usage(&p.ty, spec.scalar_pointers, spec.handle_pointers);
        if let Some(rule) = spec.param_rule(&f.name, &p.name) {
            p.usage = rule.usage;
            p.size_param = rule.size_param.clone();
        }
        if matches!(p.usage, Usage::Out | Usage::OutString | Usage::ByRef)
            && !matches!(p.ty, CType::Pointer { .. })
        {
            bail!("{}.{}: only pointers can be out parameters", f.name, p.name);
        }
        if p.usage == Usage::ByRef
            && !matches!(&p.ty, CType::Pointer { pointee, .. } if matches!(**pointee, CType::Handle { .. }))
        {
            bail!("{}.{}: by_ref needs a pointer to a handle", f.name, p.name);
        }
        if p.usage == Usage::OutString && p.size_param.is_none() {
            bail!("{}.{}: out_string needs size_param", f.name, p.name);
        }
        if let Some(sp) = &p.size_param {
            if !names.contains(sp) {
                bail!("{}.{}: size_param {sp} is not a parameter", f.name, p.name);
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
        assert_eq!(default_usage(&int(), Usage::Out, Usage::Out), Usage::In);
        assert_eq!(
            default_usage(&ptr(int(), false), Usage::Out, Usage::Out),
            Usage::Out
        );
        assert_eq!(
            default_usage(&ptr(int(), true), Usage::Out, Usage::Out),
            Usage::Pointer
        );
        assert_eq!(
            default_usage(&ptr(chr(), true), Usage::Out, Usage::Out),
            Usage::String
        );
        assert_eq!(
            default_usage(&ptr(chr(), false), Usage::Out, Usage::Out),
            Usage::Pointer
        );
        assert_eq!(
            default_usage(&ptr(ptr(chr(), true), true), Usage::Out, Usage::Out),
            Usage::StringArray
        );
        assert_eq!(
            default_usage(&ptr(ptr(CType::Void, false), false), Usage::Out, Usage::Out),
            Usage::Out
        );
        assert_eq!(
            default_usage(&ptr(CType::Void, true), Usage::Out, Usage::Out),
            Usage::Pointer
        );
        let h = CType::Handle {
            name: "ihipStream_t".into(),
        };
        assert_eq!(
            default_usage(&ptr(h.clone(), false), Usage::Out, Usage::Out),
            Usage::Out
        );
        assert_eq!(default_usage(&h, Usage::Out, Usage::Out), Usage::In);
        // LLVM's arrays of handles (`LLVMTypeRef *ParamTypes`) are caller-provided.
        assert_eq!(
            default_usage(&ptr(h.clone(), false), Usage::Out, Usage::Pointer),
            Usage::Pointer
        );
        let r = CType::Record {
            name: "dim3".into(),
        };
        assert_eq!(
            default_usage(&ptr(r.clone(), false), Usage::Out, Usage::Out),
            Usage::Pointer
        );
        assert_eq!(
            default_usage(&ptr(ptr(r, true), false), Usage::Out, Usage::Out),
            Usage::Out
        );
        assert_eq!(
            default_usage(&ptr(int(), false), Usage::Pointer, Usage::Out),
            Usage::Pointer
        );
        let void_pp = ptr(ptr(CType::Void, true), false);
        assert_eq!(
            default_usage(&void_pp, Usage::Pointer, Usage::Out),
            Usage::Pointer
        );
    }
}
