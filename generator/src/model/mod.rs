//! The bound model: what each generated module holds, decided from the IR and the spec, never
//! how it is spelled. Every backend renders from it (`backends::pyo3` the Rust module,
//! `backends::pyi` its stub, `backends::cuda_adapters` the CUDA adapters).
//!
//! - `items`: the typed items (functions, parameters, results, types) the templates spell;
//! - `function`: the model of one function (how each parameter converts, what C returns);
//! - `types`: a module's type table; `python_types`: the Python types stubs and docstrings
//!   give; `names`: Rust and Python identifiers; `docstring`: docstrings from Doxygen text.

pub mod docstring;
mod function;
pub(crate) mod items;
pub mod names;
pub mod python_types;
mod types;

use crate::ir::{CType, ConstValue, Library, Record, Skipped};
use crate::spec::Spec;
use anyhow::{bail, Context, Result};
use function::FnCtx;
pub(crate) use items::FunctionModel;
use items::{ForeignModel, MirrorModel, NvidiaModel, TypeDefModel, TypeRef, VersionCheckModel};
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};

/// Everything a library's templates need.
#[derive(Serialize)]
pub struct ModuleModel {
    /// Spec name.
    name: String,
    /// Python module (`hip.hip`).
    python_module: String,
    /// Python modules re-exported.
    reexports: Vec<String>,
    /// ROCm release.
    release: String,
    /// Headers parsed.
    headers: Vec<String>,
    /// The command that regenerates the file.
    command: String,
    /// Library name for messages.
    lib_name: String,
    /// Environment override.
    lib_env: String,
    /// Sonames in search order.
    lib_sonames: Vec<String>,
    /// The library's version check.
    lib_version_check: Option<VersionCheckModel>,
    /// From which release the library's serialized functions run in parallel.
    lib_parallel_from: Option<crate::spec::ParallelFromSpec>,
    /// Folders of a ROCm installation holding the library.
    lib_rocm_dirs: Vec<String>,
    /// The NVIDIA platform's provider.
    lib_nvidia: Option<NvidiaModel>,
    /// Functions that free strings the library hands over (`LLVMDisposeMessage`).
    free_symbols: Vec<String>,
    /// Type table entries.
    types: Vec<TypeDefModel>,
    /// Record mirrors.
    mirrors: Vec<MirrorModel>,
    /// Functions.
    functions: Vec<FunctionModel>,
    /// Integer constants.
    int_constants: Vec<(String, i64)>,
    /// String constants.
    str_constants: Vec<(String, String)>,
    /// Typedefs of `void *`, bound to `Pointer`.
    pointer_aliases: Vec<String>,
    /// Imported types this module uses and re-exports.
    foreign: Vec<ForeignModel>,
    /// What the `.pyi` stub declares beyond the functions.
    stub: StubModel,
}

/// The stub's classes and imports.
#[derive(Serialize)]
struct StubModel {
    /// The package's runtime module (`hip._native`), which defines `Pointer` and the rest.
    runtime: String,
    /// (Python module, type name) of each imported type this module re-exports.
    imports: Vec<(String, String)>,
    /// Enum classes.
    enums: Vec<python_types::StubEnum>,
    /// Struct and union classes.
    records: Vec<python_types::StubRecord>,
    /// Handle classes.
    handles: Vec<python_types::StubHandle>,
    /// Functions the package adds in Python: (name, return type).
    helpers: Vec<(String, String)>,
    /// Modules the package sets as attributes: (attribute, module's parent, module's name).
    submodules: Vec<(String, String, String)>,
}

/// Where each type lives: this module's registry or an imported module's.
pub(crate) struct TypeIndex {
    /// Name or alias → (imported module, None for this one; index).
    by_name: HashMap<String, (Option<String>, usize)>,
    /// Path from the generated code to imported modules.
    prefix: String,
}

impl TypeIndex {
    /// Adds every type of `lib`, which is imported module `module` (None for this module),
    /// keeping earlier entries.
    fn add_library(&mut self, lib: &Library, module: Option<&str>) {
        let names = lib
            .enums
            .iter()
            .map(|e| (&e.name, &e.aliases))
            .chain(lib.records.iter().map(|r| (&r.name, &r.aliases)))
            .chain(lib.handles.iter().map(|h| (&h.name, &h.aliases)));
        for (idx, (name, aliases)) in names.enumerate() {
            for n in std::iter::once(name).chain(aliases) {
                self.by_name
                    .entry(n.clone())
                    .or_insert_with(|| (module.map(str::to_string), idx));
            }
        }
    }

    /// Where a type name lives.
    pub(crate) fn get(&self, name: &str) -> Result<TypeRef> {
        let (module, index) = self
            .by_name
            .get(name)
            .cloned()
            .with_context(|| format!("type {name} is in no registry (missing import?)"))?;
        Ok(TypeRef {
            module,
            prefix: self.prefix.clone(),
            index,
        })
    }

    /// The index of a type of this module's own registry, or None for imported types.
    pub(crate) fn local(&self, name: &str) -> Result<Option<usize>> {
        let t = self.get(name)?;
        Ok(t.module.is_none().then_some(t.index))
    }

    /// The type at `index` of this module's registry.
    pub(crate) fn local_ref(&self, index: usize) -> TypeRef {
        TypeRef {
            module: None,
            prefix: self.prefix.clone(),
            index,
        }
    }
}

/// What rendering a library's functions needs besides the functions.
struct Parts<'a> {
    /// Where each type lives.
    types: TypeIndex,
    /// Records by name and alias (imported ones too).
    records: HashMap<&'a str, &'a Record>,
    /// Registry index of the status enum.
    status_idx: Option<usize>,
    /// Value put first in the result of plain-returning functions.
    success_value: Option<i64>,
    /// Whether it is put first in the result of void functions with outputs too.
    success_for_void_outputs: bool,
    /// (function regex, the function freeing strings it returns), in spec order.
    owned_strings: Vec<(regex::Regex, String)>,
    /// Functions whose `char *` result is memory, not a string.
    memory_results: Vec<regex::Regex>,
    /// `void *` typedefs that are opaque handles, the imported libraries' too.
    opaque_pointers: Vec<String>,
    /// Whether returned handles live where their handle arguments do.
    results_inherit: bool,
    /// The library's functions by name.
    functions: HashMap<&'a str, &'a crate::ir::Function>,
}

impl Parts<'_> {
    /// What rendering each function needs, recording the free functions used in `frees_used`.
    fn ctx<'b>(
        &'b self,
        spec: &'b Spec,
        frees_used: &'b std::cell::RefCell<std::collections::BTreeSet<String>>,
    ) -> FnCtx<'b> {
        FnCtx {
            types: &self.types,
            records: &self.records,
            status: spec.status.as_ref().map(|s| s.enum_name.as_str()),
            status_idx: self.status_idx,
            success_value: self.success_value,
            success_for_void_outputs: self.success_for_void_outputs,
            plain_results: spec.plain_results,
            floats_as_integers: spec.floats_as_integers,
            owned_strings: &self.owned_strings,
            memory_results: &self.memory_results,
            frees_used,
            opaque_pointers: &self.opaque_pointers,
            results_inherit: self.results_inherit,
            functions: &self.functions,
        }
    }
}

/// The type index and the spec's decisions the functions of `lib` are rendered with;
/// imported libraries' registries are reached as `<import_prefix><library>::TYPES`.
fn parts<'a>(
    lib: &'a Library,
    imports: &'a [Library],
    spec: &Spec,
    import_prefix: &str,
) -> Result<Parts<'a>> {
    let mut types = TypeIndex {
        by_name: HashMap::new(),
        prefix: import_prefix.to_string(),
    };
    types.add_library(lib, None);
    for imported in imports {
        types.add_library(imported, Some(&imported.name));
    }
    // Records passed by value may come from an imported module (hipComplex is hip's float2).
    let records: HashMap<&str, &Record> = imports
        .iter()
        .flat_map(|l| &l.records)
        .chain(&lib.records)
        .flat_map(|r| {
            std::iter::once((r.name.as_str(), r))
                .chain(r.aliases.iter().map(move |a| (a.as_str(), r)))
        })
        .collect();

    let status = spec.status.as_ref();
    let status_idx = status
        .map(|s| {
            types
                .local(&s.enum_name)?
                .context("status enum must be local")
        })
        .transpose()?;
    let success_value = match status.and_then(|s| s.success_for_plain_returns.as_ref()) {
        Some(member) => {
            let e = lib
                .enums
                .iter()
                .find(|e| Some(&e.name) == status.map(|s| &s.enum_name))
                .context("status enum not found")?;
            Some(
                e.members
                    .iter()
                    .find(|(n, _)| n == member)
                    .with_context(|| format!("{member} is not a member of {}", e.name))?
                    .1,
            )
        }
        None => None,
    };

    let owned_strings = spec
        .owned_strings
        .iter()
        .flat_map(|o| {
            o.functions.iter().map(move |r| {
                regex::Regex::new(&format!("^(?:{r})$"))
                    .map(|re| (re, o.free.clone()))
                    .with_context(|| format!("bad owned_strings regex {r:?}"))
            })
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(Parts {
        types,
        records,
        status_idx,
        success_value,
        success_for_void_outputs: status.is_some_and(|s| s.success_for_void_outputs),
        owned_strings,
        memory_results: crate::spec::compile_all(&spec.memory_results)?,
        opaque_pointers: imports
            .iter()
            .flat_map(|l| &l.opaque_pointers)
            .chain(&lib.opaque_pointers)
            .cloned()
            .collect(),
        results_inherit: spec.results_inherit,
        functions: lib.functions.iter().map(|f| (f.name.as_str(), f)).collect(),
    })
}

/// The models of the functions of `lib` named in `names`, for code placed in a sibling
/// module that imports the module's crate-visible items (`TYPES`, `LIB`, struct mirrors, free
/// functions) and reaches imported registries as `<import_prefix><library>::TYPES`.
pub(crate) fn function_models(
    lib: &Library,
    imports: &[Library],
    spec: &Spec,
    import_prefix: &str,
    names: &std::collections::BTreeSet<&str>,
) -> Result<HashMap<String, FunctionModel>> {
    let p = parts(lib, imports, spec, import_prefix)?;
    let frees_used = std::cell::RefCell::new(std::collections::BTreeSet::new());
    let ctx = p.ctx(spec, &frees_used);
    let mut mirrors = BTreeMap::new();
    let mut out = HashMap::new();
    for f in &lib.functions {
        if names.contains(f.name.as_str()) {
            out.insert(f.name.clone(), ctx.function(f, &mut mirrors)?);
        }
    }
    Ok(out)
}

/// Builds the module model.
pub fn module_model(
    lib: &Library,
    imports: &[Library],
    import_modules: &HashMap<String, String>,
    spec: &Spec,
    command: &str,
) -> Result<(ModuleModel, Vec<Skipped>)> {
    let p = parts(lib, imports, spec, "super::")?;
    let (types, records) = (&p.types, &p.records);
    let type_entries = types::table(lib, types, records)?;

    let frees_used = std::cell::RefCell::new(std::collections::BTreeSet::new());
    let ctx = p.ctx(spec, &frees_used);
    let mut mirrors = BTreeMap::new();
    let (functions, skipped) = callable_functions(lib, &ctx, records, &mut mirrors)?;
    let foreign = foreign_types(lib, &spec.reexport_types, types)?;
    let stub = stub_model(lib, spec, types, import_modules, imports, &foreign)?;
    let model = ModuleModel {
        name: lib.name.clone(),
        python_module: spec.python_module(),
        reexports: spec.reexports.clone(),
        release: lib.release.clone(),
        headers: lib.headers.clone(),
        command: command.to_string(),
        lib_name: spec.library.name.clone(),
        lib_env: spec.library.env.clone(),
        lib_sonames: spec.library.file_names(),
        lib_rocm_dirs: spec.library.rocm_dirs.clone(),
        free_symbols: frees_used.borrow().iter().cloned().collect(),
        lib_nvidia: nvidia_model(spec),
        lib_version_check: version_check(lib, spec)?,
        lib_parallel_from: spec.library.parallel_from.clone(),
        types: type_entries,
        mirrors: mirrors.into_values().collect(),
        functions,
        int_constants: int_constants(lib),
        str_constants: str_constants(lib),
        pointer_aliases: lib
            .pointer_aliases
            .iter()
            .chain(&spec.pointer_classes)
            .cloned()
            .collect(),
        foreign,
        stub,
    };
    Ok((model, skipped))
}

/// The models of `lib`'s functions, and those left out: a record passed by value must have a
/// definition to be mirrored; without one the function cannot be called correctly.
fn callable_functions(
    lib: &Library,
    ctx: &FnCtx<'_>,
    records: &HashMap<&str, &Record>,
    mirrors: &mut BTreeMap<String, MirrorModel>,
) -> Result<(Vec<FunctionModel>, Vec<Skipped>)> {
    let mut functions = Vec::new();
    let mut skipped = Vec::new();
    for f in &lib.functions {
        if let Some(name) = undefined_by_value(f, records) {
            skipped.push(Skipped {
                name: f.name.clone(),
                reason: format!("passes {name} by value, which has no definition"),
            });
            continue;
        }
        functions.push(ctx.function(f, mirrors)?);
    }
    Ok((functions, skipped))
}

/// The first record `f` passes or returns by value that has no definition.
fn undefined_by_value<'f>(
    f: &'f crate::ir::Function,
    records: &HashMap<&str, &Record>,
) -> Option<&'f String> {
    f.params
        .iter()
        .map(|p| &p.ty)
        .chain([&f.ret])
        .find_map(|t| match t {
            CType::Record { name } if !records.contains_key(name.as_str()) => Some(name),
            _ => None,
        })
}

/// The library's integer constants, in order.
fn int_constants(lib: &Library) -> Vec<(String, i64)> {
    let int = |c: &crate::ir::Constant| match &c.value {
        ConstValue::Int(v) => Some((c.name.clone(), *v)),
        ConstValue::Str(_) => None,
    };
    lib.constants.iter().filter_map(int).collect()
}

/// The library's string constants, in order.
fn str_constants(lib: &Library) -> Vec<(String, String)> {
    let string = |c: &crate::ir::Constant| match &c.value {
        ConstValue::Str(s) => Some((c.name.clone(), s.clone())),
        ConstValue::Int(_) => None,
    };
    lib.constants.iter().filter_map(string).collect()
}

/// How the library loads on the NVIDIA platform (the spec's `library.nvidia`).
fn nvidia_model(spec: &Spec) -> Option<NvidiaModel> {
    spec.library.nvidia.as_ref().map(|nv| NvidiaModel {
        shim: nv.shim.clone(),
        cuda: nv
            .cuda
            .as_ref()
            .map(|c| (c.sonames.clone(), c.wheels.clone())),
        sonames: nv.sonames.clone(),
        wheel: nv.wheel.clone(),
        same: nv.same,
    })
}

/// What the stub declares beyond the functions: classes, and imports of the types of other
/// modules this one re-exports.
fn stub_model(
    lib: &Library,
    spec: &Spec,
    types: &TypeIndex,
    import_modules: &HashMap<String, String>,
    imports: &[Library],
    foreign: &[ForeignModel],
) -> Result<StubModel> {
    let python_module = spec.python_module();
    let runtime = format!(
        "{}._native",
        python_module.split('.').next().unwrap_or("hip")
    );
    let local = |name: &str| matches!(types.local(name), Ok(Some(_)));
    let (enums, records, handles) = python_types::classes(lib, &local);
    let mut stub_imports = Vec::new();
    for f in foreign {
        let lib_name =
            f.ty.module
                .as_deref()
                .context("foreign type of this module")?;
        if !imports.iter().any(|l| l.name == lib_name) {
            bail!(
                "{}: registry of {lib_name} is no imported library's",
                f.name
            );
        }
        let module = import_modules
            .get(lib_name)
            .with_context(|| format!("no Python module known for imported library {lib_name}"))?;
        stub_imports.push((module.clone(), f.name.clone()));
    }
    Ok(StubModel {
        runtime,
        imports: stub_imports,
        enums,
        records,
        handles,
        helpers: spec
            .python_helpers
            .iter()
            .map(|(n, r)| (n.clone(), r.clone()))
            .collect(),
        submodules: spec
            .python_submodules
            .iter()
            .map(|(attr, module)| {
                let (parent, name) = module.rsplit_once('.').unwrap_or(("", module));
                (attr.clone(), parent.to_string(), name.to_string())
            })
            .collect(),
    })
}

/// The loader's version check: the release major of `int f(int *)` divided, or the
/// interface major of `void f(size_t *, size_t *)` against a header constant.
fn version_check(lib: &Library, spec: &Spec) -> Result<Option<VersionCheckModel>> {
    let Some(v) = &spec.library.version else {
        return Ok(None);
    };
    if v.triple {
        return Ok(Some(VersionCheckModel::Triple {
            symbol: v.symbol.clone(),
        }));
    }
    if let Some(constant) = &v.major_constant {
        let expected = lib
            .constants
            .iter()
            .find_map(|c| match (&c.value, c.name == *constant) {
                (ConstValue::Int(i), true) => Some(*i),
                _ => None,
            })
            .with_context(|| format!("version check: no integer constant {constant}"))?;
        return Ok(Some(VersionCheckModel::Interface {
            symbol: v.symbol.clone(),
            expected,
        }));
    }
    let major: i64 = lib
        .release
        .split('.')
        .next()
        .and_then(|m| m.parse().ok())
        .context("release must start with a major number")?;
    let divisor = v
        .divisor
        .context("version check: give `divisor` (or `major_constant`)")?;
    Ok(Some(VersionCheckModel::Release {
        symbol: v.symbol.clone(),
        divisor,
        expected: major,
    }))
}

/// Imported types named in this library's functions and fields, and those the spec re-exports
/// (`reexport`), sorted by name.
fn foreign_types(
    lib: &Library,
    reexport: &[String],
    types: &TypeIndex,
) -> Result<Vec<ForeignModel>> {
    /// Adds the named types inside `ty`.
    fn collect(ty: &CType, out: &mut std::collections::BTreeSet<String>) {
        match ty {
            CType::Enum { name, .. } | CType::Record { name } | CType::Handle { name } => {
                out.insert(name.clone());
            }
            CType::Pointer { pointee, .. } => collect(pointee, out),
            CType::Array { elem, .. } => collect(elem, out),
            _ => {}
        }
    }
    let mut names: std::collections::BTreeSet<String> = reexport.iter().cloned().collect();
    for f in &lib.functions {
        collect(&f.ret, &mut names);
        for p in &f.params {
            collect(&p.ty, &mut names);
        }
    }
    for r in &lib.records {
        for fl in &r.fields {
            collect(&fl.ty, &mut names);
        }
    }
    let mut out = Vec::new();
    for name in names {
        if let Ok(ty) = types.get(&name) {
            if ty.module.is_some() {
                out.push(ForeignModel { name, ty });
            }
        }
    }
    Ok(out)
}
