//! The `.pyi` stubs of the `cuda` package's modules (`cuda.bindings.driver`, `runtime`,
//! `nvrtc`), from the alias IR and the HIP IRs it points into.
//!
//! A CUDA module holds every CUDA name of its HIP modules plus what cuda-python's
//! conventions add (stubs, integer classes, CUDA's own types), as `cuda/_layer.py` builds
//! it. Each function is declared with the parameters cuda-python's convention gives it (the
//! adapter's, the stub's, or the HIP function's where the name is the HIP object) and a
//! result tuple of the right length whose first item is CUDA's status type. Arguments and
//! outputs other than the status are `Any`: one CUDA name takes HIP's objects and CUDA's
//! alike, which no single annotation describes.

use crate::ir::{AliasKind, AliasSet, ApiConventions, Library, PythonModule, Usage};
use crate::model::python_types::{doc_literal, usable_name};
use anyhow::{Context, Result};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// A function of a CUDA stub.
#[derive(Serialize)]
struct StubFunction {
    name: String,
    params: Vec<String>,
    ret: String,
    doc: String,
}

/// An enum class of a CUDA stub.
#[derive(Serialize)]
struct StubEnum {
    name: String,
    members: Vec<(String, i64)>,
}

/// One CUDA module's stub, as the template sees it.
#[derive(Serialize)]
struct StubModule {
    python_module: String,
    api: String,
    release: String,
    /// The HIP module `hip_python_mod` names.
    main: String,
    /// Hand-written modules whose `__all__` the module adds (`cuda._runtime_extras`).
    extras: Vec<String>,
    /// (module, name) of each function a hand-written module provides instead.
    overrides: Vec<(String, String)>,
    enums: Vec<StubEnum>,
    records: Vec<String>,
    handles: Vec<String>,
    wrappers: Vec<String>,
    pointers: Vec<String>,
    constants: Vec<String>,
    handle_constants: Vec<(String, String)>,
    functions: Vec<StubFunction>,
}

/// What a HIP module's results look like: its status enum, and whether a function returning
/// another value puts a success status before it (hip's `success_for_plain_returns`).
#[derive(Debug, Clone, Default)]
pub struct HipResults {
    /// The status enum.
    pub status: Option<String>,
    /// Whether other returned values come after a success status.
    pub status_first: bool,
}

/// The stub of each CUDA module (cuda-python kind → text), for API version `api`.
pub fn render(
    set: &AliasSet,
    libs: &[(Library, HipResults)],
    api: &str,
    templates: &std::path::Path,
    command: &str,
) -> Result<BTreeMap<String, String>> {
    let conv = set
        .apis
        .iter()
        .find(|a| a.version == api)
        .with_context(|| format!("no cuda-bindings {api} conventions in the alias IR"))?;
    let env = crate::backends::templates::environment(templates);
    let tmpl = env.get_template("cuda_module.pyi.j2")?;
    let mut out = BTreeMap::new();
    for m in &set.python_modules {
        let mut model = module(set, libs, conv, m)?;
        // Functions a hand-written module provides are imported from it.
        for (n, from) in &set.overrides {
            if let Some(at) = model.functions.iter().position(|f| &f.name == n) {
                model.functions.remove(at);
                model.overrides.push((from.clone(), n.clone()));
            }
        }
        out.insert(
            m.kind().to_string(),
            tmpl.render(minijinja::context! { m => model, command => command })?,
        );
    }
    Ok(out)
}

/// cuda-python's status type of a function by its name's family.
fn status_of(name: &str) -> &'static str {
    if name.starts_with("nvrtc") {
        "nvrtcResult"
    } else if name.starts_with("cuda") {
        "cudaError_t"
    } else {
        "CUresult"
    }
}

/// The stub of CUDA module `spec` under conventions `conv`.
fn module(
    set: &AliasSet,
    libs: &[(Library, HipResults)],
    conv: &ApiConventions,
    spec: &PythonModule,
) -> Result<StubModule> {
    let kind = spec.kind();
    let lookups = Lookups {
        same: conv.same.iter().map(String::as_str).collect(),
        adapters: conv.adapted.iter().map(|a| (a.cuda.as_str(), a)).collect(),
        stubs: conv.stubs.iter().map(|s| (s.cuda.as_str(), s)).collect(),
    };
    let mut c = Collected::default();
    for hip_module in &spec.hip_modules {
        c.hip_module(set, libs, hip_module, &lookups)?;
    }
    // What the conventions add to this module: stubs, integer classes, CUDA's own types.
    for s in conv.stubs.iter().filter(|s| s.module == kind) {
        if c.names.insert(s.cuda.clone()) {
            let none = HipResults::default();
            c.functions.push(lookups.function(&s.cuda, None, &none)?);
        }
    }
    let wrappers = c.wrappers(conv, kind);
    c.cuda_types(conv, kind);
    let handle_constants = c.handle_constants(conv, kind);
    c.untyped_statuses();
    c.functions.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(StubModule {
        python_module: spec.module.clone(),
        api: conv.version.clone(),
        release: set.release.clone(),
        main: spec.hip_modules.first().cloned().unwrap_or_default(),
        extras: spec.extras.clone(),
        overrides: Vec::new(),
        enums: c
            .enums
            .into_iter()
            .map(|(name, members)| StubEnum {
                name,
                members: members
                    .into_iter()
                    .filter(|(n, _)| {
                        usable_name(n)
                            && !crate::model::python_types::ENUM_RESERVED.contains(&n.as_str())
                    })
                    .collect(),
            })
            .collect(),
        records: c.records,
        handles: c.handles,
        wrappers,
        pointers: c.pointers,
        constants: c.constants,
        handle_constants,
        functions: c.functions,
    })
}

/// What the conventions say of each CUDA function, by name.
struct Lookups<'a> {
    same: BTreeSet<&'a str>,
    adapters: HashMap<&'a str, &'a crate::ir::Adapter>,
    stubs: HashMap<&'a str, &'a crate::ir::Stub>,
}

impl Lookups<'_> {
    /// CUDA function `name` as cuda-python calls it (`function`).
    fn function(
        &self,
        name: &str,
        hip: Option<&crate::ir::Function>,
        results: &HipResults,
    ) -> Result<StubFunction> {
        function(name, hip, results, &self.same, &self.adapters, &self.stubs)
    }
}

/// A CUDA module's names as they are collected, each once.
#[derive(Default)]
struct Collected {
    names: BTreeSet<String>,
    enums: BTreeMap<String, BTreeMap<String, i64>>,
    records: Vec<String>,
    handles: Vec<String>,
    pointers: Vec<String>,
    constants: Vec<String>,
    functions: Vec<StubFunction>,
}

impl Collected {
    /// The CUDA names of HIP module `hip_module`.
    fn hip_module(
        &mut self,
        set: &AliasSet,
        libs: &[(Library, HipResults)],
        hip_module: &str,
        lookups: &Lookups<'_>,
    ) -> Result<()> {
        let table = set
            .modules
            .iter()
            .find(|m| m.module == hip_module)
            .with_context(|| format!("no CUDA aliases of HIP module {hip_module}"))?;
        let (lib, results) = libs
            .iter()
            .find(|(l, _)| l.name == hip_module)
            .with_context(|| format!("no IR of {hip_module}"))?;
        for a in &table.names {
            if !usable_name(&a.cuda) || !self.names.insert(a.cuda.clone()) {
                continue;
            }
            match a.kind {
                AliasKind::Enum => self.hip_enum(a, lib, table),
                AliasKind::Record => self.records.push(a.cuda.clone()),
                AliasKind::Handle => self.handles.push(a.cuda.clone()),
                AliasKind::Pointer => self.pointers.push(a.cuda.clone()),
                AliasKind::Constant => self.constants.push(a.cuda.clone()),
                AliasKind::Function => {
                    let hip = lib.functions.iter().find(|f| f.name == a.hip);
                    self.functions
                        .push(lookups.function(&a.cuda, hip, results)?);
                }
            }
        }
        Ok(())
    }

    /// CUDA enum `a`: its HIP enum's members, and the CUDA names of them in `table`.
    fn hip_enum(&mut self, a: &crate::ir::Alias, lib: &Library, table: &crate::ir::AliasModule) {
        let hip_enum = a.hip_enum.as_deref().unwrap_or(&a.hip);
        let members = self.enums.entry(a.cuda.clone()).or_default();
        let Some(e) = lib.enums.iter().find(|e| e.name == hip_enum) else {
            return;
        };
        members.extend(e.members.iter().cloned());
        let by_hip: HashMap<&str, i64> = e.members.iter().map(|(n, v)| (n.as_str(), *v)).collect();
        if let Some(pairs) = table.members.iter().find(|m| m.hip_enum == hip_enum) {
            for (cuda, hip) in &pairs.members {
                if let Some(v) = by_hip.get(hip.as_str()) {
                    members.entry(cuda.clone()).or_insert(*v);
                }
            }
        }
    }

    /// The integer classes of module `kind` not named yet.
    fn wrappers(&mut self, conv: &ApiConventions, kind: &str) -> Vec<String> {
        conv.wrappers
            .iter()
            .map(|w| w.name.clone())
            .filter(|n| match kind {
                "driver" => !n.starts_with("cuda"),
                "runtime" => n.starts_with("cuda"),
                _ => false,
            })
            .filter(|n| self.names.insert(n.clone()))
            .collect()
    }

    /// CUDA's own enums, handles, records and integer #defines of module `kind`.
    fn cuda_types(&mut self, conv: &ApiConventions, kind: &str) {
        for e in conv.types.enums.iter().filter(|e| e.module == kind) {
            if self.names.insert(e.name.clone()) {
                self.enums
                    .insert(e.name.clone(), e.members.iter().cloned().collect());
            }
        }
        // CUDA's members HIP has no counterpart of belong to the class too (`_enums.enum_class`).
        for e in &conv.types.enums {
            if let Some(members) = self.enums.get_mut(&e.name) {
                for (n, v) in &e.members {
                    members.entry(n.clone()).or_insert(*v);
                }
            }
        }
        for h in conv.types.handles.iter().filter(|h| h.module == kind) {
            if self.names.insert(h.name.clone()) {
                self.handles.push(h.name.clone());
            }
        }
        for r in conv
            .types
            .records
            .iter()
            .filter(|r| r.module == kind && !r.anonymous)
        {
            for n in std::iter::once(&r.name)
                .chain(r.tag.iter())
                .chain(r.aliases.iter())
            {
                if usable_name(n) && self.names.insert(n.clone()) {
                    self.records.push(n.clone());
                }
            }
        }
        // CUDA's integer #defines HIPIFY maps to no HIP constant.
        for c in conv.types.constants.iter().filter(|c| c.module == kind) {
            if usable_name(&c.name) && self.names.insert(c.name.clone()) {
                self.constants.push(c.name.clone());
            }
        }
    }

    /// CUDA's handle constants of module `kind`, each with its handle class (`Pointer` where
    /// the module lacks it).
    fn handle_constants(&mut self, conv: &ApiConventions, kind: &str) -> Vec<(String, String)> {
        let mut handle_constants = Vec::new();
        for c in conv
            .types
            .handle_constants
            .iter()
            .filter(|c| c.module == kind)
        {
            if self.names.insert(c.name.clone()) {
                let ty = if self.names.contains(&c.handle) {
                    c.handle.clone()
                } else {
                    "Pointer".into()
                };
                handle_constants.push((c.name.clone(), ty));
            }
        }
        handle_constants
    }

    /// A function's status type that this module lacks (nvrtc has no CUresult) is `Any`.
    fn untyped_statuses(&mut self) {
        for f in &mut self.functions {
            for status in ["CUresult", "cudaError_t", "nvrtcResult"] {
                if !self.enums.contains_key(status) && f.ret.contains(status) {
                    f.ret = f.ret.replace(status, "Any");
                }
            }
        }
    }
}

/// A function as cuda-python calls it: an adapter's or stub's parameters and outputs, else
/// the HIP function's own.
fn function(
    name: &str,
    hip: Option<&crate::ir::Function>,
    results: &HipResults,
    same: &BTreeSet<&str>,
    adapters: &HashMap<&str, &crate::ir::Adapter>,
    stubs: &HashMap<&str, &crate::ir::Stub>,
) -> Result<StubFunction> {
    let status = status_of(name);
    let any = |n: &str| format!("{n}: Any");
    let (params, outputs, doc) = if let Some(a) = adapters.get(name) {
        let outputs = match &a.direct {
            Some(d) => d.results.len(),
            None => a.results.len(),
        };
        (
            a.params.iter().map(|p| any(&p.name)).collect(),
            outputs,
            format!("cuda-python's {name}, run by HIP's {}.", a.hip),
        )
    } else if let Some(s) = stubs.get(name) {
        (
            s.params.iter().map(|p| any(p)).collect(),
            s.outputs,
            format!("Not supported by HIP: returns {} ({}).", s.status, s.why),
        )
    } else {
        let f = hip.with_context(|| format!("{name}: no HIP function, adapter or stub"))?;
        let params = f
            .params
            .iter()
            .filter(|p| !matches!(p.usage, Usage::Out | Usage::OutString))
            .map(|p| any(&crate::model::names::python_name(&p.name)))
            .collect();
        let outs = f
            .params
            .iter()
            .filter(|p| matches!(p.usage, Usage::Out | Usage::OutString))
            .count();
        // HIP's results: its status (or a value, after a success status where the module
        // puts one first), then the outputs.
        let mut items = match &f.ret {
            crate::ir::CType::Void => vec![],
            crate::ir::CType::Enum { name, .. } if Some(name) == results.status.as_ref() => {
                vec![status]
            }
            _ if results.status_first => vec![status, "Any"],
            _ => vec!["Any"],
        };
        items.extend(std::iter::repeat_n("Any", outs));
        let how = if same.contains(name) {
            "HIP's"
        } else {
            "HIP's (called as HIP's bindings call it)"
        };
        return Ok(StubFunction {
            name: name.to_string(),
            params,
            ret: match items.as_slice() {
                [] => "tuple[()]".into(),
                _ => format!("tuple[{}]", items.join(", ")),
            },
            doc: doc_literal(&format!("{how} {}.", f.name), "    "),
        });
    };
    let mut items = vec![status.to_string()];
    items.extend(std::iter::repeat_n("Any".to_string(), outputs));
    Ok(StubFunction {
        name: name.to_string(),
        params,
        ret: format!("tuple[{}]", items.join(", ")),
        doc: doc_literal(&doc, "    "),
    })
}
