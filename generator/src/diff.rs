//! Differences between the IRs of two releases, for maintainers moving to a new ROCm.

use crate::ir::{AliasSet, Library};
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
        let ma: BTreeMap<_, _> = a.members.iter().cloned().collect();
        let mb: BTreeMap<_, _> = b.members.iter().cloned().collect();
        let mut changes = Vec::new();
        for (k, v) in &mb {
            match ma.get(k) {
                None => changes.push(format!("+{k}={v}")),
                Some(o) if o != v => changes.push(format!("~{k}: {o} -> {v}")),
                _ => {}
            }
        }
        changes.extend(
            ma.keys()
                .filter(|k| !mb.contains_key(*k))
                .map(|k| format!("-{k}")),
        );
        (!changes.is_empty()).then(|| changes.join(" "))
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
    let (fa, fb) = (flat(old), flat(new));
    let a: BTreeMap<_, _> = fa.iter().collect();
    let b: BTreeMap<_, _> = fb.iter().collect();
    section(&mut out, "CUDA names", &a, &b, |x, y| {
        (x != y).then(|| format!("{x} -> {y}"))
    });
    out
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
