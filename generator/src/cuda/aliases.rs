//! CUDA aliases of HIP modules, from the CUDA→HIP table of HIPIFY (`hipify-perl`, AMD's own
//! CUDA-to-HIP translator), resolved against the IRs of the HIP modules.
//!
//! `hipify-perl` lists its substitutions as `subst("cudaMalloc", "hipMalloc", "memory");`
//! inside Perl subs; the spec says which subs hold the HIP ones (others map to rocBLAS,
//! MIOpen and so on). An entry is kept only when its HIP name is a function, enum, enum
//! member, struct, handle or constant of one of the aliased modules.

use crate::ir::{Alias, AliasKind, AliasModule, AliasSet, EnumMembers, Library};
use anyhow::{bail, Context, Result};
use regex::Regex;
use serde::Deserialize;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

/// The spec of an alias package (`generator/specs/cuda.yaml`).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AliasSpec {
    /// `aliases` (`load` reads it first to tell the kinds of spec apart).
    #[allow(dead_code)]
    pub kind: crate::spec::SpecKind,
    /// Spec name, e.g. `cuda`.
    pub name: String,
    /// The Python package (wheel) whose extension carries the CUDA names.
    pub package: String,
    /// Where the table comes from.
    pub mapping: MappingSpec,
    /// HIP modules whose objects get CUDA names, in order; generated before this spec.
    pub modules: Vec<String>,
    /// cuda-python's calling conventions, read from CUDA's headers.
    #[serde(default)]
    pub conventions: Option<crate::cuda::conventions::ConventionsSpec>,
    /// The package's Python modules, in order, and what each holds.
    #[serde(default)]
    pub python_modules: Vec<crate::ir::PythonModule>,
    /// Hand-written modules whose functions stand in for CUDA names wherever a module has
    /// them: module → names.
    #[serde(default)]
    pub overrides: BTreeMap<String, Vec<String>>,
    /// The `.pyi` stubs of the package's modules: the cuda-bindings version whose
    /// conventions they describe.
    #[serde(default)]
    pub stubs: Option<StubsSpec>,
    /// NVRTC's options and what hiprtc is given for each.
    #[serde(default)]
    pub nvrtc_options: Option<NvrtcOptionsSpec>,
}

/// NVRTC's options as hiprtc takes them (`cuda._nvrtc.nvrtcCompileProgram` on AMD).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NvrtcOptionsSpec {
    /// The spellings of the GPU architecture option, which becomes `--offload-arch`.
    pub arch: Vec<String>,
    /// Options hiprtc knows otherwise.
    #[serde(default)]
    pub translate: Vec<NvrtcTranslation>,
    /// Options for NVIDIA's code generator or diagnostics alone: dropped with a warning.
    #[serde(default)]
    pub drop: Vec<String>,
}

/// One NVRTC option (all its spellings) and the hiprtc options it becomes.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NvrtcTranslation {
    /// Its spellings (`--fmad`, `-fmad`).
    pub names: Vec<String>,
    /// What it becomes; `{value}` is its value.
    #[serde(default)]
    pub to: Vec<String>,
    /// What it becomes when its value is true (or absent) and when false, for a switch.
    #[serde(default)]
    pub on: Option<Vec<String>>,
    /// See `on`.
    #[serde(default)]
    pub off: Option<Vec<String>>,
}

impl NvrtcOptionsSpec {
    /// One table row per spelling; a switch needs both `on` and `off`.
    fn rows(&self) -> Result<Vec<crate::ir::NvrtcOption>> {
        use crate::ir::NvrtcOption;
        let row = |name: &String, kind: &str, to: &[String], off: &[String]| NvrtcOption {
            name: name.clone(),
            kind: kind.to_string(),
            to: to.to_vec(),
            off: off.to_vec(),
        };
        let mut rows: Vec<NvrtcOption> =
            self.arch.iter().map(|n| row(n, "arch", &[], &[])).collect();
        for t in &self.translate {
            for n in &t.names {
                rows.push(match (&t.on, &t.off) {
                    (Some(on), Some(off)) if t.to.is_empty() => row(n, "switch", on, off),
                    (None, None) if !t.to.is_empty() => row(n, "to", &t.to, &[]),
                    _ => anyhow::bail!(
                        "nvrtc_options: {n} needs `to`, or `on` and `off` (a switch), not both \
                         or neither (`drop` lists what is dropped)"
                    ),
                });
            }
        }
        rows.extend(self.drop.iter().map(|n| row(n, "drop", &[], &[])));
        Ok(rows)
    }
}

/// The CUDA→HIP table to read.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MappingSpec {
    /// Path of `hipify-perl`, relative to the include directory.
    pub path: PathBuf,
    /// Perl subs whose `subst` calls are read, in order; the first entry of a CUDA name wins.
    pub sections: Vec<String>,
    /// Pairs of our own (CUDA name -> HIP name), ahead of HIPIFY's: where HIPIFY's HIP name
    /// does something else than the CUDA name does.
    #[serde(default)]
    pub pairs: BTreeMap<String, String>,
}

/// What the CUDA modules' stubs describe.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StubsSpec {
    /// The cuda-bindings major version (the package's default).
    pub api: String,
}

impl AliasSpec {
    /// Reads an alias spec; `None` when the file is a library spec.
    pub fn load(path: &Path) -> Result<Option<Self>> {
        let value = crate::spec::release::read_yaml(path)?;
        Self::from_value(value, &path.display().to_string())
    }

    /// The alias spec of a spec file's YAML; `None` when it is a library spec.
    pub fn from_value(value: serde_yaml::Value, origin: &str) -> Result<Option<Self>> {
        if crate::spec::SpecKind::of_value(&value, origin)? != crate::spec::SpecKind::Aliases {
            return Ok(None);
        }
        Ok(Some(
            serde_yaml::from_value(value).with_context(|| format!("in {origin}"))?,
        ))
    }
}

/// One `subst` entry: CUDA name, HIP name, the table's category.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    pub cuda: String,
    pub hip: String,
    pub category: String,
}

/// Reads the `subst` calls of the given subs of a `hipify-perl` script, in order.
pub fn read_hipify(text: &str, sections: &[String]) -> Result<Vec<Entry>> {
    let subst = Regex::new(r#"^\s*subst\("([^"]+)",\s*"([^"]+)",\s*"([^"]+)"\);"#).unwrap();
    let mut by_section: HashMap<&str, Vec<Entry>> = HashMap::new();
    let mut current: Option<&str> = None;
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("sub ") {
            current = rest.strip_suffix(" {").map(str::trim);
            continue;
        }
        if line == "}" {
            current = None;
            continue;
        }
        let (Some(sec), Some(c)) = (current, subst.captures(line)) else {
            continue;
        };
        by_section.entry(sec).or_default().push(Entry {
            cuda: c[1].to_string(),
            hip: c[2].to_string(),
            category: c[3].to_string(),
        });
    }
    let mut out = Vec::new();
    for s in sections {
        match by_section.remove(s.as_str()) {
            Some(entries) => out.extend(entries),
            None => bail!("hipify-perl has no sub '{s}' with substitutions"),
        }
    }
    Ok(out)
}

/// What a HIP name is in one module.
#[derive(Clone)]
enum Target {
    Object(AliasKind, Option<String>),
    Member(String),
}

/// Python names of a module's objects, as the generated module exposes them.
fn targets(lib: &Library) -> HashMap<&str, Target> {
    let mut t: HashMap<&str, Target> = HashMap::new();
    // Enum members first, so module-level objects of the same name win.
    for e in &lib.enums {
        for (m, _) in &e.members {
            t.insert(m, Target::Member(e.name.clone()));
        }
    }
    for c in &lib.constants {
        t.insert(&c.name, Target::Object(AliasKind::Constant, None));
    }
    for p in &lib.pointer_aliases {
        t.insert(p, Target::Object(AliasKind::Pointer, None));
    }
    for h in &lib.handles {
        for n in std::iter::once(&h.name).chain(&h.aliases) {
            t.insert(n, Target::Object(AliasKind::Handle, None));
        }
    }
    for r in &lib.records {
        for n in std::iter::once(&r.name).chain(&r.aliases) {
            t.insert(n, Target::Object(AliasKind::Record, None));
        }
    }
    for e in &lib.enums {
        for n in std::iter::once(&e.name).chain(&e.aliases) {
            t.insert(n, Target::Object(AliasKind::Enum, Some(e.name.clone())));
        }
    }
    for f in &lib.functions {
        t.insert(&f.name, Target::Object(AliasKind::Function, None));
    }
    t
}

/// Resolves table entries against the modules' IRs (in `spec.modules` order).
pub fn resolve(
    spec: &AliasSpec,
    release: &str,
    entries: &[Entry],
    libs: &[Library],
) -> Result<AliasSet> {
    let Found {
        names,
        members,
        unresolved,
    } = Found::of(entries, libs);
    Ok(AliasSet {
        name: spec.name.clone(),
        release: release.to_string(),
        source: format!(
            "{} ({})",
            spec.mapping
                .path
                .file_name()
                .map(|f| f.to_string_lossy().into_owned())
                .unwrap_or_default(),
            spec.mapping.sections.join(", ")
        ),
        modules: alias_modules(libs, names, members),
        unresolved: unresolved.into_iter().collect(),
        apis: Vec::new(),
        python_modules: spec.python_modules.clone(),
        overrides: spec
            .overrides
            .iter()
            .flat_map(|(module, names)| names.iter().map(|n| (n.clone(), module.clone())))
            .collect(),
        nvrtc_options: match &spec.nvrtc_options {
            Some(o) => o.rows()?,
            None => Vec::new(),
        },
    })
}

/// The table's entries found in the modules' IRs, per module, and how many were not, per
/// category.
struct Found {
    /// Each module's aliased objects, by CUDA name.
    names: Vec<BTreeMap<String, Alias>>,
    /// Each module's aliased enum members: HIP enum → CUDA name → HIP name.
    members: Vec<BTreeMap<String, BTreeMap<String, String>>>,
    /// Entries whose HIP name no module has, by category.
    unresolved: BTreeMap<String, usize>,
}

impl Found {
    /// Looks up each entry's HIP name in the modules (`libs`), in order.
    fn of(entries: &[Entry], libs: &[Library]) -> Self {
        let tables: Vec<_> = libs.iter().map(targets).collect();
        let mut found = Found {
            names: vec![BTreeMap::new(); libs.len()],
            members: vec![BTreeMap::new(); libs.len()],
            unresolved: BTreeMap::new(),
        };
        let mut seen = std::collections::HashSet::new();
        for e in entries {
            // A CUDA name listed twice keeps its first HIP name, as hipify applies them in order.
            if !seen.insert(e.cuda.as_str()) {
                continue;
            }
            let target = tables
                .iter()
                .enumerate()
                .find_map(|(i, t)| t.get(e.hip.as_str()).map(|target| (i, target.clone())));
            found.add(e, target);
        }
        found
    }

    /// Adds entry `e`, found as `target` of module `i` (or not found).
    fn add(&mut self, e: &Entry, target: Option<(usize, Target)>) {
        match target {
            Some((i, Target::Object(kind, hip_enum))) => {
                self.names[i].insert(
                    e.cuda.clone(),
                    Alias {
                        cuda: e.cuda.clone(),
                        hip: e.hip.clone(),
                        kind,
                        hip_enum,
                    },
                );
            }
            Some((i, Target::Member(hip_enum))) => {
                self.members[i]
                    .entry(hip_enum)
                    .or_default()
                    .insert(e.cuda.clone(), e.hip.clone());
            }
            None => *self.unresolved.entry(e.category.clone()).or_default() += 1,
        }
    }
}

/// Each module's aliases (`libs` in order): its objects and enum members found.
fn alias_modules(
    libs: &[Library],
    names: Vec<BTreeMap<String, Alias>>,
    members: Vec<BTreeMap<String, BTreeMap<String, String>>>,
) -> Vec<AliasModule> {
    libs.iter()
        .zip(names.into_iter().zip(members))
        .map(|(lib, (n, m))| AliasModule {
            module: lib.name.clone(),
            names: n.into_values().collect(),
            members: m
                .into_iter()
                .map(|(hip_enum, ms)| EnumMembers {
                    hip_enum,
                    members: ms.into_iter().collect(),
                })
                .collect(),
        })
        .collect()
}

/// Renders the alias tables as Rust statics (`templates/aliases.rs.j2`).
pub fn render(set: &AliasSet, templates: &Path, command: &str) -> Result<String> {
    let env = crate::backends::templates::environment(templates);
    let tmpl = env.get_template("aliases.rs.j2")?;
    Ok(tmpl.render(minijinja::context! { a => set, command => command })?)
}

/// Reads the table a spec names and resolves it against the IRs of its modules (`libs`, in
/// the spec's order).
pub fn generate(
    spec: &AliasSpec,
    include: &Path,
    cuda_headers: &Path,
    release: &str,
    libs: &[Library],
) -> Result<AliasSet> {
    let table = include.join(&spec.mapping.path);
    let text = std::fs::read_to_string(&table).with_context(|| {
        format!(
            "reading the CUDA→HIP table {} (tools/setup.sh unpacks Debian's hipify-perl there)",
            table.display()
        )
    })?;
    let own = spec.mapping.pairs.iter().map(|(cuda, hip)| Entry {
        cuda: cuda.clone(),
        hip: hip.clone(),
        category: "library".into(),
    });
    let entries: Vec<Entry> = own
        .chain(read_hipify(&text, &spec.mapping.sections)?)
        .collect();
    let mut set = resolve(spec, release, &entries, libs)?;
    if let Some(conventions) = &spec.conventions {
        // Every HIP function by its name, with its module.
        let by_name: HashMap<&str, (&str, &crate::ir::Function)> = set
            .modules
            .iter()
            .zip(libs)
            .flat_map(|(m, lib)| {
                lib.functions
                    .iter()
                    .map(move |f| (f.name.as_str(), (m.module.as_str(), f)))
            })
            .collect();
        let mut hip = crate::cuda::conventions::HipFunctions::new();
        for (m, lib) in set.modules.iter().zip(libs) {
            let by_name: HashMap<&str, &crate::ir::Function> =
                lib.functions.iter().map(|f| (f.name.as_str(), f)).collect();
            for a in m.names.iter().filter(|a| a.kind == AliasKind::Function) {
                if let Some(f) = by_name.get(a.hip.as_str()) {
                    hip.insert(a.cuda.as_str(), (m.module.as_str(), *f));
                }
            }
        }
        for (cuda, hip_name) in &conventions.hip_functions {
            if let Some(&target) = by_name.get(hip_name.as_str()) {
                hip.insert(cuda.as_str(), target);
            }
        }
        let mut records =
            crate::cuda::reshape::HipRecords::new(libs.iter().flat_map(|l| &l.records));
        for a in set.modules.iter().flat_map(|m| &m.names) {
            if a.kind == AliasKind::Record {
                records.map(&a.cuda, &a.hip);
            }
        }
        let apis = crate::cuda::conventions::generate(
            conventions,
            cuda_headers,
            &hip,
            &by_name,
            &records,
        )?;
        set.apis = apis;
    }
    Ok(set)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SCRIPT: &str = r#"
sub rocSubstitutions {
    subst("cudaDataType", "rocblas_datatype", "type");
}

sub simpleSubstitutions {
    subst("cudaMalloc", "hipMalloc", "memory");
    subst("cuMemAlloc", "hipMalloc", "memory");
    subst("cudaSuccess", "hipSuccess", "numeric_literal");
    subst("cudaError_t", "hipError_t", "type");
    subst("cudaDataType", "hipDataType", "type");
    subst("cublasCreate", "hipblasCreate", "library");
}
"#;

    fn sections() -> Vec<String> {
        vec!["simpleSubstitutions".to_string()]
    }

    #[test]
    fn reads_only_the_named_subs() {
        let e = read_hipify(SCRIPT, &sections()).unwrap();
        assert_eq!(e.len(), 6);
        assert_eq!(e[4].hip, "hipDataType");
        assert!(read_hipify(SCRIPT, &["nope".to_string()]).is_err());
    }

    #[test]
    fn resolves_against_the_ir() {
        let lib: Library = serde_json::from_value(serde_json::json!({
            "name": "hip", "release": "x", "headers": [],
            "functions": [{"name": "hipMalloc", "symbol": "hipMalloc", "ret": {"kind": "int", "size": 4, "signed": true}, "params": []}],
            "enums": [{"name": "hipError_t", "size": 4, "signed": true, "members": [["hipSuccess", 0]]}],
            "records": [], "handles": [], "pointer_aliases": [], "constants": [], "skipped": []
        }))
        .unwrap();
        let spec = AliasSpec {
            kind: crate::spec::SpecKind::Aliases,
            name: "cuda".into(),
            package: "p".into(),
            mapping: MappingSpec {
                path: "hipify-perl".into(),
                sections: sections(),
                pairs: BTreeMap::new(),
            },
            modules: vec!["hip".into()],
            conventions: None,
            python_modules: Vec::new(),
            overrides: BTreeMap::new(),
            nvrtc_options: None,
            stubs: None,
        };
        let set = resolve(
            &spec,
            "x",
            &read_hipify(SCRIPT, &sections()).unwrap(),
            &[lib],
        )
        .unwrap();
        let m = &set.modules[0];
        let names: Vec<_> = m.names.iter().map(|a| (a.cuda.as_str(), a.kind)).collect();
        assert_eq!(
            names,
            [
                ("cuMemAlloc", AliasKind::Function),
                ("cudaError_t", AliasKind::Enum),
                ("cudaMalloc", AliasKind::Function)
            ]
        );
        assert_eq!(
            m.members[0].members,
            [("cudaSuccess".into(), "hipSuccess".into())]
        );
        assert_eq!(set.unresolved, [("library".into(), 1), ("type".into(), 1)]);
    }
}
