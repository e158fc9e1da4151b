//! Differences between the IRs of two releases, for maintainers moving to a new ROCm.

use crate::ir::{AdapterArg, AliasSet, ApiConventions, Library};
use std::collections::BTreeMap;
use std::fmt::Write;

/// A readable report of added, removed and changed functions, enums and record fields.
pub fn diff(old: &Library, new: &Library) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{}: ROCm {} -> {}", new.name, old.release, new.release);
    let fa: BTreeMap<_, _> = old.functions.iter().map(|f| (&f.name, f)).collect();
    let fb: BTreeMap<_, _> = new.functions.iter().map(|f| (&f.name, f)).collect();
    section(&mut out, "functions", &fa, &fb, |a, b| {
        let sig = |f: &crate::ir::Function| {
            let params: Vec<String> = f
                .params
                .iter()
                .map(|p| format!("{} {}", p.spelling, p.name))
                .collect();
            format!("{}({}) [{}]", f.name, params.join(", "), f.symbol)
        };
        (sig(a) != sig(b)).then(|| format!("{} -> {}", sig(a), sig(b)))
    });
    let ea: BTreeMap<_, _> = old.enums.iter().map(|e| (&e.name, e)).collect();
    let eb: BTreeMap<_, _> = new.enums.iter().map(|e| (&e.name, e)).collect();
    section(&mut out, "enums", &ea, &eb, |a, b| {
        member_changes(
            &a.members.iter().cloned().collect(),
            &b.members.iter().cloned().collect(),
        )
    });
    let ra: BTreeMap<_, _> = old.records.iter().map(|r| (&r.name, r)).collect();
    let rb: BTreeMap<_, _> = new.records.iter().map(|r| (&r.name, r)).collect();
    section(&mut out, "records", &ra, &rb, |a, b| {
        let fields = |r: &crate::ir::Record| -> BTreeMap<String, String> {
            r.fields
                .iter()
                .map(|f| (f.name.clone(), format!("{:?}@{}", f.ty, f.offset_bits / 8)))
                .collect()
        };
        let (fa, fb) = (fields(a), fields(b));
        let mut changes = Vec::new();
        if a.size != b.size {
            changes.push(format!("size {} -> {}", a.size, b.size));
        }
        for (k, v) in &fb {
            match fa.get(k) {
                None => changes.push(format!("+{k}")),
                Some(o) if o != v => changes.push(format!("~{k}")),
                _ => {}
            }
        }
        changes.extend(
            fa.keys()
                .filter(|k| !fb.contains_key(*k))
                .map(|k| format!("-{k}")),
        );
        (!changes.is_empty()).then(|| changes.join(" "))
    });
    out
}

/// A report of CUDA names added, removed or pointed at another HIP object between two
/// alias IRs (enum members included, as `Enum.member`).
pub fn diff_aliases(old: &AliasSet, new: &AliasSet) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{}: ROCm {} -> {}", new.name, old.release, new.release);
    let flat = |set: &AliasSet| -> BTreeMap<String, String> {
        let mut m = BTreeMap::new();
        for module in &set.modules {
            for a in &module.names {
                m.insert(
                    a.cuda.clone(),
                    format!("{}.{} ({})", module.module, a.hip, a.kind.as_str()),
                );
            }
            for e in &module.members {
                for (c, h) in &e.members {
                    m.insert(
                        format!("{}.{c}", e.hip_enum),
                        format!("{}.{}.{h}", module.module, e.hip_enum),
                    );
                }
            }
        }
        m
    };
    text_section(&mut out, "CUDA names", &flat(old), &flat(new));
    out
}

/// A report of how cuda-python's conventions differ between two API versions (cuda-bindings
/// 12 and 13) or two releases: each CUDA function's convention, and CUDA's own types.
pub fn diff_conventions(old: &ApiConventions, new: &ApiConventions) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "cuda-python conventions: cuda-bindings {} -> {}",
        old.version, new.version
    );
    text_section(
        &mut out,
        "functions",
        &function_conventions(old),
        &function_conventions(new),
    );
    let (ea, eb) = (cuda_enums(old), cuda_enums(new));
    let a: BTreeMap<_, _> = ea.iter().collect();
    let b: BTreeMap<_, _> = eb.iter().collect();
    section(&mut out, "CUDA enums", &a, &b, |ma, mb| {
        member_changes(ma, mb)
    });
    text_section(
        &mut out,
        "CUDA handles",
        &cuda_handles(old),
        &cuda_handles(new),
    );
    text_section(
        &mut out,
        "CUDA structs in CUDA's layout (HIP's lack field names)",
        &reshaped(old),
        &reshaped(new),
    );
    out
}

/// Each CUDA function's convention in `api`, described.
fn function_conventions(api: &ApiConventions) -> BTreeMap<String, String> {
    let mut m = BTreeMap::new();
    for n in &api.same {
        m.insert(n.clone(), "called as HIP's".to_string());
    }
    for a in &api.adapted {
        m.insert(a.cuda.clone(), adapted(a));
    }
    for s in &api.stubs {
        m.insert(
            s.cuda.clone(),
            format!(
                "not supported ({}): ({}) -> {} outputs",
                s.why,
                s.params.join(", "),
                s.outputs
            ),
        );
    }
    for (n, why) in &api.mismatched {
        m.insert(
            n.clone(),
            format!("called as HIP's though it differs: {why}"),
        );
    }
    m
}

/// An adapted function's convention: its HIP function, parameters, outputs, and the inputs
/// one API has alone.
fn adapted(a: &crate::ir::Adapter) -> String {
    let params: Vec<&str> = a.params.iter().map(|p| p.name.as_str()).collect();
    let zeros = a
        .args
        .iter()
        .filter(|x| matches!(x, AdapterArg::Zero))
        .count();
    let mut d = format!(
        "adapted over {}: ({}) -> {} outputs",
        a.hip,
        params.join(", "),
        a.results.len()
    );
    if !a.dropped.is_empty() {
        let dropped: Vec<&str> = a.dropped.iter().map(|&i| params[i]).collect();
        let _ = write!(d, "; CUDA-only inputs {}", dropped.join(", "));
    }
    if zeros > 0 {
        let _ = write!(d, "; {zeros} HIP-only parameters as 0");
    }
    d
}

/// CUDA's enums in `api`, with their members.
fn cuda_enums(api: &ApiConventions) -> BTreeMap<String, BTreeMap<String, i64>> {
    api.types
        .enums
        .iter()
        .map(|e| (e.name.clone(), e.members.iter().cloned().collect()))
        .collect()
}

/// CUDA's handles in `api`, with their modules.
fn cuda_handles(api: &ApiConventions) -> BTreeMap<String, String> {
    api.types
        .handles
        .iter()
        .map(|h| (h.name.clone(), h.module.clone()))
        .collect()
}

/// CUDA's structs `api` keeps in CUDA's layout, with why.
fn reshaped(api: &ApiConventions) -> BTreeMap<String, String> {
    let why = api.types.reshaped.iter();
    why.map(|(name, why)| (name.clone(), why.join(", ")))
        .collect()
}

/// A section of the report over names described by text: a changed item shows both texts.
fn text_section(
    out: &mut String,
    title: &str,
    old: &BTreeMap<String, String>,
    new: &BTreeMap<String, String>,
) {
    let a: BTreeMap<_, _> = old.iter().collect();
    let b: BTreeMap<_, _> = new.iter().collect();
    section(out, title, &a, &b, |x, y| {
        (x != y).then(|| format!("{x} -> {y}"))
    });
}

/// An enum's added (`+M=v`), renumbered (`~M: a -> b`) and removed (`-M`) members.
fn member_changes(ma: &BTreeMap<String, i64>, mb: &BTreeMap<String, i64>) -> Option<String> {
    let mut changes: Vec<String> = mb
        .iter()
        .filter_map(|(k, v)| match ma.get(k) {
            None => Some(format!("+{k}={v}")),
            Some(o) if o != v => Some(format!("~{k}: {o} -> {v}")),
            _ => None,
        })
        .collect();
    changes.extend(
        ma.keys()
            .filter(|k| !mb.contains_key(*k))
            .map(|k| format!("-{k}")),
    );
    (!changes.is_empty()).then(|| changes.join(" "))
}

/// One section of the report: added, removed, then changed items.
fn section<T>(
    out: &mut String,
    title: &str,
    old: &BTreeMap<&String, &T>,
    new: &BTreeMap<&String, &T>,
    changed: impl Fn(&T, &T) -> Option<String>,
) {
    let added: Vec<_> = new.keys().filter(|k| !old.contains_key(*k)).collect();
    let removed: Vec<_> = old.keys().filter(|k| !new.contains_key(*k)).collect();
    let changes: Vec<(String, String)> = new
        .iter()
        .filter_map(|(k, b)| {
            old.get(k)
                .and_then(|a| changed(a, b))
                .map(|c| (k.to_string(), c))
        })
        .collect();
    let _ = writeln!(
        out,
        "\n{title}: {} added, {} removed, {} changed",
        added.len(),
        removed.len(),
        changes.len()
    );
    for k in added {
        let _ = writeln!(out, "  + {k}");
    }
    for k in removed {
        let _ = writeln!(out, "  - {k}");
    }
    for (k, c) in changes {
        let _ = writeln!(out, "  ~ {k}: {c}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{Adapter, CudaParam, CudaTypes, Stub};

    fn api(version: &str) -> ApiConventions {
        ApiConventions {
            location_types: Default::default(),
            version: version.into(),
            cuda_version: None,
            cuda_member_tag: None,
            same: vec!["cuInit".into(), "cuCtxCreate".into()],
            adapted: vec![],
            stubs: vec![],
            wrappers: vec![],
            mismatched: vec![],
            not_supported: Default::default(),
            attribute_types: Default::default(),
            include_guards: Default::default(),
            types: CudaTypes::default(),
        }
    }

    #[test]
    fn reports_a_changed_convention_and_a_new_stub() {
        let old = api("12");
        let mut new = api("13");
        new.same.retain(|n| n != "cuCtxCreate");
        new.adapted.push(Adapter {
            cuda: "cuCtxCreate".into(),
            module: "driver".into(),
            status_type: "CUresult".into(),
            hip_module: "hip".into(),
            hip: "hipCtxCreate".into(),
            params: ["ctxCreateParams", "flags", "dev"]
                .iter()
                .map(|n| CudaParam {
                    name: n.to_string(),
                    kernel_params: false,
                    integer: false,
                    attribute_value: false,
                    location: false,
                    record: None,
                })
                .collect(),
            args: vec![],
            results: vec![],
            dropped: vec![0],
            direct: None,
            c_call: None,
        });
        new.stubs.push(Stub {
            cuda: "cuGreenCtxCreate".into(),
            module: "driver".into(),
            status_type: "CUresult".into(),
            status: "CUDA_ERROR_NOT_SUPPORTED".into(),
            params: vec!["desc".into()],
            outputs: 1,
            why: "no HIP function".into(),
        });
        let report = diff_conventions(&old, &new);
        assert!(
            report.contains("functions: 1 added, 0 removed, 1 changed"),
            "{report}"
        );
        assert!(report.contains("+ cuGreenCtxCreate"));
        assert!(report.contains(
            "~ cuCtxCreate: called as HIP's -> adapted over hipCtxCreate: (ctxCreateParams, flags, dev) \
             -> 0 outputs; CUDA-only inputs ctxCreateParams"
        ));
    }
}
