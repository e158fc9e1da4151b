//! The spec's binding decisions, applied to a header's IR: how each parameter travels
//! (`usage`), which calls keep the GIL or take the library's lock, and the values struct
//! constructors start from. `parse` reads only what the headers say; this step is where a
//! spec changes the bindings, so `hipgen ir --facts` shows the headers alone.

mod sizes;
pub(crate) use sizes::count_query;
mod usage;

use crate::ir::Library;
use crate::spec::{compile_all, Spec};
use anyhow::Result;
use regex::Regex;
use std::collections::BTreeMap;

/// A spec map of `function.param` regexes, compiled.
fn compile_map(map: &BTreeMap<String, String>) -> Result<Vec<(Regex, String)>> {
    let keys: Vec<String> = map.keys().cloned().collect();
    Ok(compile_all(&keys)?
        .into_iter()
        .zip(map.values().cloned())
        .collect())
}

/// The value of the first regex of `map` matching `target`.
fn lookup(map: &[(Regex, String)], target: &str) -> Option<String> {
    map.iter()
        .find(|(r, _)| r.is_match(target))
        .map(|(_, v)| v.clone())
}

/// Applies `spec`'s decisions to every function and record of `lib`.
pub fn apply(spec: &Spec, lib: &mut Library) -> Result<()> {
    let keep_gil = compile_all(&spec.keep_gil)?;
    let serialize = compile_all(&spec.serialize)?;
    let destroys = compile_all(&spec.destroys)?;
    let written = compile_all(&spec.written)?;
    let lists = compile_all(&spec.list_arrays)?;
    let depend = compile_all(&spec.results_depend)?;
    let counts = compile_map(&spec.counts)?;
    let sizes = compile_map(&spec.sizes)?;
    for f in &mut lib.functions {
        usage::apply(spec, f)?;
        for p in &mut f.params {
            let target = format!("{}.{}", f.name, p.name);
            p.written = written.iter().any(|r| r.is_match(&target));
            p.list = lists.iter().any(|r| r.is_match(&target));
            p.results_depend = depend.iter().any(|r| r.is_match(&target));
            p.count = lookup(&counts, &target);
            p.sized_by = lookup(&sizes, &target);
        }
        sizes::pair_counts(f);
        sizes::mark_read_arrays(f);
        sizes::check(f)?;
        f.keep_gil = keep_gil.iter().any(|r| r.is_match(&f.name));
        f.serialize = serialize.iter().any(|r| r.is_match(&f.name));
        f.destroys = destroys.iter().any(|r| r.is_match(&f.name));
    }
    lib.opaque_pointers = lib
        .pointer_aliases
        .iter()
        .filter(|a| !spec.memory_typedefs.contains(a))
        .cloned()
        .collect();
    for r in &mut lib.records {
        let defaults = std::iter::once(&r.name)
            .chain(&r.aliases)
            .find_map(|n| spec.field_defaults.get(n));
        for fl in &mut r.fields {
            fl.default = defaults.and_then(|d| d.get(&fl.name)).copied();
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::Usage;
    use std::path::Path;

    #[test]
    fn parsing_reads_the_header_and_binding_applies_the_spec() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
        let spec = Spec::load(&root.join("demo.yaml")).unwrap();
        let mut lib = crate::parse::parse_library(&spec, &root.join("include"), "0.0.0").unwrap();
        let f = |lib: &Library, n: &str| lib.functions.iter().find(|f| f.name == n).cloned();
        // Facts only: nothing the spec decides.
        let name = f(&lib, "demoGetName").unwrap();
        assert_eq!(name.params[0].usage, Usage::In);
        assert!(!f(&lib, "demoVersion").unwrap().keep_gil);
        assert!(!f(&lib, "demoSync").unwrap().serialize);
        let props = lib
            .records
            .iter()
            .find(|r| r.name == "demoProps_t")
            .unwrap();
        assert!(props.fields.iter().all(|fl| fl.default.is_none()));

        apply(&spec, &mut lib).unwrap();
        let name = f(&lib, "demoGetName").unwrap();
        assert_eq!(name.params[0].usage, Usage::OutString);
        assert_eq!(name.params[0].size_param.as_deref(), Some("len"));
        assert!(f(&lib, "demoVersion").unwrap().keep_gil);
        assert!(f(&lib, "demoSync").unwrap().serialize);
        let props = lib
            .records
            .iter()
            .find(|r| r.name == "demoProps_t")
            .unwrap();
        let status = props.fields.iter().find(|fl| fl.name == "status").unwrap();
        assert_eq!(status.default, Some(7));
        // Checks the spec and the header pair: counts, sizes, opaque handles, lifetimes.
        let param = |func: &str, p: &str| {
            f(&lib, func)
                .unwrap()
                .params
                .into_iter()
                .find(|x| x.name == p)
                .unwrap()
        };
        assert_eq!(param("demoCompile", "options").count.as_deref(), Some("n"));
        assert_eq!(
            param("demoLink", "progs").count.as_deref(),
            Some("numProgs")
        );
        assert_eq!(
            param("demoLink", "names").count.as_deref(),
            Some("numProgs")
        );
        assert_eq!(
            param("demoLink", "paths").count.as_deref(),
            Some("numProgs")
        );
        assert_eq!(
            param("demoProgramLog", "log").sized_by.as_deref(),
            Some("demoProgramLogSize()")
        );
        assert_eq!(
            param("demoReadItem", "item").sized_by.as_deref(),
            Some("size")
        );
        assert!(param("demoProgramCreateIn", "ctx").results_depend);
        assert_eq!(lib.opaque_pointers, vec!["demoHandle_t".to_string()]);
    }
}
