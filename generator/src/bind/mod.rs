//! The spec's binding decisions, applied to a header's IR: how each parameter travels
//! (`usage`), which calls keep the GIL or take the library's lock, and the values struct
//! constructors start from. `parse` reads only what the headers say; this step is where a
//! spec changes the bindings, so `hipgen ir --facts` shows the headers alone.

mod usage;

use crate::ir::Library;
use crate::spec::{compile_all, Spec};
use anyhow::Result;

/// Applies `spec`'s decisions to every function and record of `lib`.
pub fn apply(spec: &Spec, lib: &mut Library) -> Result<()> {
    let keep_gil = compile_all(&spec.keep_gil)?;
    let serialize = compile_all(&spec.serialize)?;
    let destroys = compile_all(&spec.destroys)?;
    let written = compile_all(&spec.written)?;
    let lists = compile_all(&spec.list_arrays)?;
    for f in &mut lib.functions {
        usage::apply(spec, f)?;
        for p in &mut f.params {
            let target = format!("{}.{}", f.name, p.name);
            p.written = written.iter().any(|r| r.is_match(&target));
            p.list = lists.iter().any(|r| r.is_match(&target));
        }
        f.keep_gil = keep_gil.iter().any(|r| r.is_match(&f.name));
        f.serialize = serialize.iter().any(|r| r.is_match(&f.name));
        f.destroys = destroys.iter().any(|r| r.is_match(&f.name));
    }
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
    }
}
