//! Turns the IR into PyO3 code through the minijinja templates in `templates/`.
//!
//! The per-item decisions (which Rust type extracts an argument, how a result becomes a
//! Python object) are made here, in plain Rust; the templates only lay the code out.

use crate::ir::{CType, ConstValue, Doc, Function, Library, Record, Skipped, Usage};
use crate::spec::Spec;
use crate::stubs;
use anyhow::{bail, Context, Result};
use minijinja::Environment;
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};
use std::path::Path;

/// Rust keywords that C parameter names may collide with.
const RUST_KEYWORDS: &[&str] = &[
    "as", "break", "const", "continue", "crate", "else", "enum", "extern", "false", "fn", "for",
    "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub", "ref", "return",
    "static", "struct", "super", "trait", "true", "type", "unsafe", "use", "where", "while",
    "async", "await", "dyn", "abstract", "become", "box", "do", "final", "macro", "override",
    "priv", "typeof", "unsized", "virtual", "yield", "try", "gen",
];

/// A function as the template sees it.
#[derive(Serialize)]
pub(crate) struct FunctionModel {
    /// API (Python) name.
    pub(crate) name: String,
    /// Symbol in the library.
    pub(crate) symbol: String,
    /// Docstring lines.
    pub(crate) doc: Vec<String>,
    /// Python parameter names, in order.
    pub(crate) py_params: Vec<String>,
    /// `name: Type` for each Rust parameter.
    pub(crate) rust_params: Vec<String>,
    /// Statements run before the call, with the GIL held.
    pub(crate) prep: Vec<String>,
    /// FFI parameter types.
    pub(crate) ffi_params: Vec<String>,
    /// FFI return type.
    pub(crate) ffi_ret: String,
    /// Arguments of the call (plain values captured by the closure).
    pub(crate) call_args: Vec<String>,
    /// Whether the GIL stays held.
    pub(crate) keep_gil: bool,
    /// Whether the call takes the library's lock.
    pub(crate) serialize: bool,
    /// Expressions that build the result tuple items.
    pub(crate) results: Vec<String>,
    /// Whether the results are returned without a tuple (one value, or None for none).
    pub(crate) plain: bool,
    /// `name: type` of each Python parameter, for the stub.
    pub(crate) stub_params: Vec<String>,
    /// The return type, for the stub.
    pub(crate) stub_ret: String,
    /// The docstring as a Python literal, for the stub.
    pub(crate) stub_doc: String,
    /// Per item of `results`: the Rust variable holding its C value, where it is a plain
    /// value (an integer or an address) a caller may present otherwise (CUDA adapters).
    #[serde(skip)]
    pub(crate) raw_outs: Vec<Option<String>>,
}

/// A record by value as the template sees it: a `#[repr(C)]` mirror.
#[derive(Serialize)]
struct MirrorModel {
    /// Rust type name.
    name: String,
    /// `name: Type` for each field.
    fields: Vec<String>,
    /// `sizeof` checked at compile time.
    size: u64,
}

/// Everything a library's templates need.
#[derive(Serialize)]
struct ModuleModel {
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
    /// Rust expression of the library's version check.
    lib_version_check: String,
    /// Folders of a ROCm installation holding the library.
    lib_rocm_dirs: Vec<String>,
    /// The NVIDIA platform's provider, as Rust.
    lib_nvidia: String,
    /// Functions that free strings the library hands over (`LLVMDisposeMessage`).
    free_symbols: Vec<String>,
    /// Type table entries (Rust expressions).
    types: Vec<String>,
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
    /// Imported types this module uses and re-exports: (name, registry, index).
    foreign: Vec<(String, String, usize)>,
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
    enums: Vec<stubs::StubEnum>,
    /// Struct and union classes.
    records: Vec<stubs::StubRecord>,
    /// Handle classes.
    handles: Vec<stubs::StubHandle>,
    /// Functions the package adds in Python: (name, return type).
    helpers: Vec<(String, String)>,
    /// Modules the package sets as attributes: (attribute, module's parent, module's name).
    submodules: Vec<(String, String, String)>,
}

/// Where each type lives: this module's registry or an imported module's.
struct TypeIndex {
    /// Name or alias → (registry expression, index).
    by_name: HashMap<String, (String, usize)>,
}

impl TypeIndex {
    /// Adds every type of `lib` under registry expression `path`, keeping earlier entries.
    fn add_library(&mut self, lib: &Library, path: &str) {
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
                    .or_insert_with(|| (path.to_string(), idx));
            }
        }
    }

    /// The registry expression and index of a type name.
    fn get(&self, name: &str) -> Result<(String, usize)> {
        self.by_name
            .get(name)
            .cloned()
            .with_context(|| format!("type {name} is in no registry (missing import?)"))
    }

    /// The index of a type of this module's own registry, or None for imported types.
    fn local(&self, name: &str) -> Result<Option<usize>> {
        let (path, idx) = self.get(name)?;
        Ok((path == "TYPES").then_some(idx))
    }
}

/// What rendering one library gives.
pub struct Rendered {
    /// The Rust module.
    pub code: String,
    /// The `.pyi` stub of its Python module.
    pub stub: String,
    /// Functions left out because a type they pass by value has no definition in the headers.
    pub skipped: Vec<Skipped>,
}

/// Renders the Rust module of one library and its stub. `import_modules` gives the Python
/// module of each imported library (by spec name).
pub fn render(
    lib: &Library,
    imports: &[Library],
    import_modules: &HashMap<String, String>,
    spec: &Spec,
    templates: &Path,
    command: &str,
) -> Result<Rendered> {
    let mut env = Environment::new();
    env.set_loader(minijinja::path_loader(templates));
    env.set_trim_blocks(true);
    env.set_lstrip_blocks(true);
    env.set_keep_trailing_newline(true);
    let (model, skipped) = module_model(lib, imports, import_modules, spec, command)?;
    let code = env
        .get_template("module.rs.j2")?
        .render(minijinja::context! { m => model })?;
    let stub = env
        .get_template("module.pyi.j2")?
        .render(minijinja::context! { m => model })?;
    Ok(Rendered {
        code,
        stub,
        skipped,
    })
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
    /// (function regex, the function freeing strings it returns), in spec order.
    owned_strings: Vec<(regex::Regex, String)>,
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
    };
    types.add_library(lib, "TYPES");
    for imported in imports {
        types.add_library(
            imported,
            &format!("{import_prefix}{}::TYPES", imported.name),
        );
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
        owned_strings,
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
    let ctx = FnCtx {
        types: &p.types,
        records: &p.records,
        status: spec.status.as_ref().map(|s| s.enum_name.as_str()),
        status_idx: p.status_idx,
        success_value: p.success_value,
        plain_results: spec.plain_results,
        owned_strings: &p.owned_strings,
        frees_used: &frees_used,
    };
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
fn module_model(
    lib: &Library,
    imports: &[Library],
    import_modules: &HashMap<String, String>,
    spec: &Spec,
    command: &str,
) -> Result<(ModuleModel, Vec<Skipped>)> {
    let Parts {
        types,
        records,
        status_idx,
        success_value,
        owned_strings,
    } = parts(lib, imports, spec, "super::")?;
    let status = spec.status.as_ref();
    let mut type_entries = Vec::new();
    for e in &lib.enums {
        let members: Vec<String> = e
            .members
            .iter()
            .map(|(n, v)| format!("({n:?}, {v})"))
            .collect();
        type_entries.push(format!(
            "rt::TypeDef::Enum(rt::EnumDef {{ name: {:?}, aliases: &{:?}, members: &[{}] }})",
            e.name,
            e.aliases,
            members.join(", ")
        ));
    }
    for r in &lib.records {
        let fields: Result<Vec<String>> = r
            .fields
            .iter()
            .map(|f| {
                let (offset, bits) = match f.bit_width {
                    Some(w) => (
                        f.offset_bits / 8,
                        format!("Some(({}, {w}))", f.offset_bits % 8),
                    ),
                    None => (f.offset_bits / 8, "None".to_string()),
                };
                Ok(format!(
                    "rt::FieldDef {{ name: {:?}, offset: {offset}, bits: {bits}, kind: {}, default: {:?} }}",
                    f.name,
                    field_kind(&f.ty, &types, &records)?,
                    f.default
                ))
            })
            .collect();
        type_entries.push(format!(
            "rt::TypeDef::Record(rt::RecordDef {{ name: {:?}, aliases: &{:?}, size: {}, fields: &[{}], doc: {:?} }})",
            r.name,
            r.aliases,
            r.size,
            fields?.join(", "),
            docstring(&r.doc, &[], &[]).join("\n")
        ));
    }
    for h in &lib.handles {
        type_entries.push(format!(
            "rt::TypeDef::Handle(rt::HandleDef {{ name: {:?}, aliases: &{:?} }})",
            h.name, h.aliases
        ));
    }

    let frees_used = std::cell::RefCell::new(std::collections::BTreeSet::new());
    let mut mirrors = BTreeMap::new();
    let mut functions = Vec::new();
    let mut skipped = Vec::new();
    for f in &lib.functions {
        let ctx = FnCtx {
            types: &types,
            records: &records,
            status: status.map(|s| s.enum_name.as_str()),
            status_idx,
            success_value,
            plain_results: spec.plain_results,
            owned_strings: &owned_strings,
            frees_used: &frees_used,
        };
        // A record passed by value must have a definition to be mirrored; without one the
        // function cannot be called correctly, so it is left out and reported.
        let by_value = f
            .params
            .iter()
            .map(|p| &p.ty)
            .chain([&f.ret])
            .find_map(|t| match t {
                CType::Record { name } if !records.contains_key(name.as_str()) => Some(name),
                _ => None,
            });
        if let Some(name) = by_value {
            skipped.push(Skipped {
                name: f.name.clone(),
                reason: format!("passes {name} by value, which has no definition"),
            });
            continue;
        }
        functions.push(ctx.function(f, &mut mirrors)?);
    }

    let mut int_constants = Vec::new();
    let mut str_constants = Vec::new();
    for c in &lib.constants {
        match &c.value {
            ConstValue::Int(v) => int_constants.push((c.name.clone(), *v)),
            ConstValue::Str(s) => str_constants.push((c.name.clone(), s.clone())),
        }
    }
    let foreign = foreign_types(lib, &types)?;
    let stub = stub_model(lib, spec, &types, import_modules, imports, &foreign)?;
    let model = ModuleModel {
        name: lib.name.clone(),
        python_module: spec.python_module(),
        reexports: spec.reexports.clone(),
        release: lib.release.clone(),
        headers: lib.headers.clone(),
        command: command.to_string(),
        lib_name: spec.library.name.clone(),
        lib_env: spec.library.env.clone(),
        lib_sonames: spec.library.sonames.clone(),
        lib_rocm_dirs: spec.library.rocm_dirs.clone(),
        free_symbols: frees_used.borrow().iter().cloned().collect(),
        lib_nvidia: match &spec.library.nvidia {
            None => "None".into(),
            Some(nv) => format!(
                "Some(rt::NvidiaSpec {{ shim: {:?}, cuda: {}, sonames: &{:?}, wheel: {:?}, same: {} }})",
                nv.shim,
                match &nv.cuda {
                    Some(c) => format!(
                        "Some(rt::CudaLibrary {{ sonames: &{:?}, wheels: &{:?} }})",
                        c.sonames, c.wheels
                    ),
                    None => "None".into(),
                },
                nv.sonames,
                nv.wheel,
                nv.same
            ),
        },
        lib_version_check: version_check(lib, spec)?,
        types: type_entries,
        mirrors: mirrors.into_values().collect(),
        functions,
        int_constants,
        str_constants,
        pointer_aliases: lib.pointer_aliases.clone(),
        foreign,
        stub,
    };
    Ok((model, skipped))
}

/// What the stub declares beyond the functions: classes, and imports of the types of other
/// modules this one re-exports.
fn stub_model(
    lib: &Library,
    spec: &Spec,
    types: &TypeIndex,
    import_modules: &HashMap<String, String>,
    imports: &[Library],
    foreign: &[(String, String, usize)],
) -> Result<StubModel> {
    let python_module = spec.python_module();
    let runtime = format!(
        "{}._native",
        python_module.split('.').next().unwrap_or("hip")
    );
    let local = |name: &str| matches!(types.local(name), Ok(Some(_)));
    let (enums, records, handles) = stubs::classes(lib, &local);
    let mut stub_imports = Vec::new();
    for (name, path, _) in foreign {
        let lib_name = imports
            .iter()
            .find(|l| path == &format!("super::{}::TYPES", l.name))
            .map(|l| l.name.clone())
            .with_context(|| format!("{name}: registry {path} is no imported library's"))?;
        let module = import_modules
            .get(&lib_name)
            .with_context(|| format!("no Python module known for imported library {lib_name}"))?;
        stub_imports.push((module.clone(), name.clone()));
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

/// The loader's version check, as Rust: the release major of `int f(int *)` divided, or the
/// interface major of `void f(size_t *, size_t *)` against a header constant.
fn version_check(lib: &Library, spec: &Spec) -> Result<String> {
    let Some(v) = &spec.library.version else {
        return Ok("None".into());
    };
    if let Some(constant) = &v.interface_constant {
        let expected = lib
            .constants
            .iter()
            .find_map(|c| match (&c.value, c.name == *constant) {
                (ConstValue::Int(i), true) => Some(*i),
                _ => None,
            })
            .with_context(|| format!("version check: no integer constant {constant}"))?;
        return Ok(format!(
            "Some(rt::VersionCheck::Interface {{ symbol: c{:?}, expected: {expected} }})",
            v.symbol
        ));
    }
    let major: i64 = lib
        .release
        .split('.')
        .next()
        .and_then(|m| m.parse().ok())
        .context("release must start with a major number")?;
    let divisor = v
        .divisor
        .context("version check: give `divisor` (or `interface_constant`)")?;
    Ok(format!(
        "Some(rt::VersionCheck::Release {{ symbol: c{:?}, divisor: {divisor}, expected: {major} }})",
        v.symbol
    ))
}

/// Imported types named in this library's functions and fields, sorted by name.
fn foreign_types(lib: &Library, types: &TypeIndex) -> Result<Vec<(String, String, usize)>> {
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
    let mut names = std::collections::BTreeSet::new();
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
        if let Ok((path, idx)) = types.get(&name) {
            if path != "TYPES" {
                out.push((name, path, idx));
            }
        }
    }
    Ok(out)
}

/// The `rt::FieldKind` expression of a field type.
fn field_kind(ty: &CType, types: &TypeIndex, records: &HashMap<&str, &Record>) -> Result<String> {
    Ok(match ty {
        CType::Bool => "rt::FieldKind::Bool".into(),
        CType::Int { size, signed, .. } => {
            format!("rt::FieldKind::Int {{ size: {size}, signed: {signed} }}")
        }
        CType::Float { size } => format!("rt::FieldKind::Float {{ size: {size} }}"),
        // Fields refer to this module's registry; imported enums and handles are read as
        // plain integers and pointers.
        CType::Enum { name, size, signed } => match types.local(name)? {
            Some(idx) => {
                format!("rt::FieldKind::Enum {{ ty: {idx}, size: {size}, signed: {signed} }}")
            }
            None => format!("rt::FieldKind::Int {{ size: {size}, signed: {signed} }}"),
        },
        CType::Record { name } => format!(
            "rt::FieldKind::Record({})",
            types
                .local(name)?
                .with_context(|| format!("field of imported record type {name}"))?
        ),
        CType::Handle { name } => match types.local(name)? {
            Some(idx) => format!("rt::FieldKind::Handle({idx})"),
            None => "rt::FieldKind::Pointer".into(),
        },
        CType::Array { elem, len } if elem.is_char() => format!("rt::FieldKind::Chars({len})"),
        CType::Array { elem, len } => format!(
            "rt::FieldKind::Array {{ elem: &{}, len: {len}, stride: {} }}",
            field_kind(elem, types, records)?,
            size_of(elem, records)?
        ),
        CType::Pointer { .. } => "rt::FieldKind::Pointer".into(),
        CType::Void | CType::Unsupported { .. } => bail!("field of unsupported type {ty:?}"),
    })
}

/// `sizeof` a type.
fn size_of(ty: &CType, records: &HashMap<&str, &Record>) -> Result<u64> {
    Ok(match ty {
        CType::Bool => 1,
        CType::Int { size, .. } | CType::Float { size } | CType::Enum { size, .. } => *size as u64,
        CType::Pointer { .. } | CType::Handle { .. } => 8,
        CType::Record { name } => records.get(name.as_str()).context("unknown record")?.size,
        CType::Array { elem, len } => size_of(elem, records)? * len,
        _ => bail!("no size for {ty:?}"),
    })
}

/// Rust integer type of a size and signedness.
fn int_type(size: u8, signed: bool) -> &'static str {
    match (size, signed) {
        (1, true) => "i8",
        (1, false) => "u8",
        (2, true) => "i16",
        (2, false) => "u16",
        (4, true) => "i32",
        (4, false) => "u32",
        (_, true) => "i64",
        (_, false) => "u64",
    }
}

/// What one function's rendering needs to know about its library.
struct FnCtx<'a> {
    /// Registry indices.
    types: &'a TypeIndex,
    /// Records by name.
    records: &'a HashMap<&'a str, &'a Record>,
    /// Name of the status enum.
    status: Option<&'a str>,
    /// Registry index of the status enum.
    status_idx: Option<usize>,
    /// Value put first in the result of plain-returning functions.
    success_value: Option<i64>,
    /// Whether a single result is returned as itself (and none as None), not as a tuple.
    plain_results: bool,
    /// (function regex, the function freeing strings it returns), in spec order.
    owned_strings: &'a [(regex::Regex, String)],
    /// The free functions the rendered functions use.
    frees_used: &'a std::cell::RefCell<std::collections::BTreeSet<String>>,
}

impl FnCtx<'_> {
    /// The FFI type of a C type; records by value get a mirror.
    fn ffi_type(&self, ty: &CType, mirrors: &mut BTreeMap<String, MirrorModel>) -> Result<String> {
        Ok(match ty {
            CType::Void => "()".into(),
            CType::Bool => "bool".into(),
            CType::Int { size, signed, .. } => int_type(*size, *signed).into(),
            CType::Float { size: 4 } => "f32".into(),
            CType::Float { .. } => "f64".into(),
            CType::Enum { size, signed, .. } => int_type(*size, *signed).into(),
            CType::Record { name } => self.mirror(name, mirrors)?,
            CType::Handle { .. } | CType::Pointer { .. } => "usize".into(),
            CType::Array { elem, len } => {
                format!("[{}; {len}]", self.ffi_type(elem, mirrors)?)
            }
            CType::Unsupported { spelling } => bail!("unsupported type {spelling}"),
        })
    }

    /// Declares a `#[repr(C)]` mirror of a record passed by value and returns its name.
    fn mirror(&self, name: &str, mirrors: &mut BTreeMap<String, MirrorModel>) -> Result<String> {
        let rust_name = format!("R_{name}");
        if mirrors.contains_key(&rust_name) {
            return Ok(rust_name);
        }
        let r = self
            .records
            .get(name)
            .with_context(|| format!("record {name} has no definition"))?;
        if r.is_union || r.fields.iter().any(|f| f.bit_width.is_some()) {
            bail!("record {name} passed by value is a union or has bitfields");
        }
        let mut fields = Vec::new();
        for f in &r.fields {
            fields.push(format!(
                "pub {}: {}",
                sanitize(&f.name),
                self.ffi_type(&f.ty, mirrors)?
            ));
        }
        mirrors.insert(
            rust_name.clone(),
            MirrorModel {
                name: rust_name.clone(),
                fields,
                size: r.size,
            },
        );
        Ok(rust_name)
    }

    /// The render model of a function.
    fn function(
        &self,
        f: &Function,
        mirrors: &mut BTreeMap<String, MirrorModel>,
    ) -> Result<FunctionModel> {
        let mut m = FunctionModel {
            name: f.name.clone(),
            symbol: f.symbol.clone(),
            doc: Vec::new(),
            py_params: Vec::new(),
            rust_params: Vec::new(),
            prep: Vec::new(),
            ffi_params: Vec::new(),
            ffi_ret: self.ffi_type(&f.ret, mirrors)?,
            call_args: Vec::new(),
            keep_gil: f.keep_gil,
            serialize: f.serialize,
            results: Vec::new(),
            plain: false,
            stub_params: Vec::new(),
            stub_ret: String::new(),
            stub_doc: String::new(),
            raw_outs: Vec::new(),
        };
        let mut raw_outs: Vec<Option<String>> = Vec::new();
        let mut returns_doc: Vec<String> = Vec::new();
        let mut outs: Vec<String> = Vec::new();
        let mut stub_results: Vec<String> = Vec::new();
        let is_status =
            matches!(&f.ret, CType::Enum { name, .. } if Some(name.as_str()) == self.status);
        if is_status {
            let idx = self.status_idx.context("status index")?;
            outs.push(format!("TYPES.enum_member(py, {idx}, __r as i64)?"));
            raw_outs.push(None);
            stub_results.push(stubs::result_type(&f.ret, false));
            returns_doc.push(format!("{}: status", self.status.unwrap_or_default()));
        } else if f.ret != CType::Void {
            if let (Some(idx), Some(v)) = (self.status_idx, self.success_value) {
                outs.push(format!("TYPES.enum_member(py, {idx}, {v})?"));
                raw_outs.push(None);
                stub_results.push(self.status.unwrap_or_default().to_string());
                returns_doc.push(format!(
                    "{}: always success",
                    self.status.unwrap_or_default()
                ));
            }
            let expr = self.result_expr(&f.ret, "__r", None)?;
            outs.push(self.owned(&f.name, &f.ret, "__r", expr));
            raw_outs.push(raw_value(&f.ret).then(|| "__r".to_string()));
            stub_results.push(stubs::result_type(&f.ret, false));
            returns_doc.push(describe(&f.ret));
        }
        for p in &f.params {
            if p.name == "py" || p.name.starts_with("__") {
                bail!(
                    "{}: parameter name {} collides with generated names",
                    f.name,
                    p.name
                );
            }
            let rust_name = sanitize(&p.name);
            let a = format!("a_{}", p.name);
            m.ffi_params.push(self.ffi_type(&p.ty, mirrors)?);
            match p.usage {
                Usage::Out => {
                    let CType::Pointer { pointee, .. } = &p.ty else {
                        bail!("{}.{} is out but not a pointer", f.name, p.name);
                    };
                    if let CType::Record { name } = pointee.as_ref() {
                        // The C function fills a struct: allocate one and return it.
                        let (reg, idx) = self.types.get(name)?;
                        m.prep.push(format!(
                            "let o_{} = {reg}.class(py, {idx})?.call0()?;",
                            p.name
                        ));
                        m.prep.push(format!(
                            "let {a} = rt::PtrArg::convert(&o_{}, false)?.addr();",
                            p.name
                        ));
                        outs.push(format!("o_{}.unbind()", p.name));
                        raw_outs.push(None);
                        stub_results.push(name.clone());
                        returns_doc.push(format!("{}: {name}", p.name));
                    } else {
                        let storage = match pointee.as_ref() {
                            CType::Bool => "u8".to_string(),
                            CType::Array { .. } | CType::Void => {
                                bail!("{}.{}: cannot return a {pointee:?}", f.name, p.name)
                            }
                            other => self.ffi_type(other, mirrors)?,
                        };
                        m.prep.push(format!(
                            "let mut o_{}: {storage} = Default::default();",
                            p.name
                        ));
                        m.prep.push(format!(
                            "let {a} = &mut o_{} as *mut {storage} as usize;",
                            p.name
                        ));
                        // Size parameters are C integers (`rt::CInt`): `.0` is the value.
                        let size = p.size_param.as_ref().map(|s| format!("{}.0", sanitize(s)));
                        let v = format!("o_{}", p.name);
                        let expr = self.result_expr(pointee, &v, size.as_deref())?;
                        outs.push(self.owned(&f.name, pointee, &v, expr));
                        raw_outs.push(raw_value(pointee).then_some(v));
                        stub_results.push(stubs::result_type(pointee, p.size_param.is_some()));
                        returns_doc.push(format!("{}: {}", p.name, describe(pointee)));
                    }
                }
                Usage::OutString => {
                    let len = format!(
                        "{}.0",
                        sanitize(p.size_param.as_deref().context("out_string size")?)
                    );
                    m.prep.push(format!(
                        "let mut o_{} = rt::out_string_buffer({len} as i64)?;",
                        p.name
                    ));
                    m.prep
                        .push(format!("let {a} = o_{}.as_mut_ptr() as usize;", p.name));
                    outs.push(format!("rt::bytes_until_nul(py, &o_{})", p.name));
                    raw_outs.push(None);
                    stub_results.push("bytes".into());
                    returns_doc.push(format!("{}: bytes", p.name));
                }
                Usage::ByRef | Usage::Pointer => {
                    m.py_params.push(rust_name.clone());
                    m.stub_params.push(format!(
                        "{}: {}",
                        python_name(&p.name),
                        stubs::param_type(&p.ty, p.usage)
                    ));
                    let (ty, prep) = self.pointer_param(&p.ty, &rust_name, &p.name, &a)?;
                    m.rust_params.push(format!("{rust_name}: {ty}"));
                    m.prep.extend(prep);
                }
                usage => {
                    m.py_params.push(rust_name.clone());
                    m.stub_params.push(format!(
                        "{}: {}",
                        python_name(&p.name),
                        stubs::param_type(&p.ty, usage)
                    ));
                    let (ty, prep) = self.in_param(&p.ty, usage, &rust_name, mirrors)?;
                    m.rust_params.push(format!("{rust_name}: {ty}"));
                    m.prep.push(format!("let {a} = {prep};"));
                }
            }
            m.call_args.push(a);
        }
        m.plain = self.plain_results && outs.len() <= 1;
        m.results = outs;
        m.raw_outs = raw_outs;
        m.stub_ret = match (m.plain, stub_results.as_slice()) {
            (true, []) => "None".into(),
            (true, [one]) => one.clone(),
            (_, []) => "tuple[()]".into(),
            (_, all) => format!("tuple[{}]", all.join(", ")),
        };
        // Only what Python passes is an argument (not outputs, not out_string buffers).
        let args: Vec<String> = f
            .params
            .iter()
            .filter(|p| !matches!(p.usage, Usage::Out | Usage::OutString))
            .map(|p| p.name.clone())
            .collect();
        m.doc = docstring(&f.doc, &args, &returns_doc);
        if f.deprecated {
            m.doc.push(String::new());
            m.doc.push("Deprecated in the C API.".into());
        }
        m.stub_doc = stubs::function_doc(&m.doc);
        Ok(m)
    }

    /// The Rust parameter type and the expression giving the C value of an input.
    fn in_param(
        &self,
        ty: &CType,
        usage: Usage,
        name: &str,
        mirrors: &mut BTreeMap<String, MirrorModel>,
    ) -> Result<(String, String)> {
        Ok(match usage {
            Usage::String => ("rt::CStrArg".into(), format!("{name}.addr()")),
            Usage::StringArray => ("rt::CStrArrayArg".into(), format!("{name}.addr()")),
            Usage::KernelExtra => ("rt::KernelExtra".into(), format!("{name}.addr()")),
            Usage::In => match ty {
                CType::Int { size, signed, .. } => (
                    format!("rt::CInt<{}>", int_type(*size, *signed)),
                    format!("{name}.0"),
                ),
                CType::Bool | CType::Float { .. } => {
                    (self.ffi_type(ty, mirrors)?, name.to_string())
                }
                CType::Enum {
                    name: e,
                    size,
                    signed,
                } => {
                    let (reg, idx) = self.types.get(e)?;
                    let int = int_type(*size, *signed);
                    (
                        "&Bound<'_, PyAny>".into(),
                        format!("rt::narrow::<{int}>({reg}.enum_arg({idx}, {name})?)?"),
                    )
                }
                CType::Record { name: r } => {
                    let (reg, idx) = self.types.get(r)?;
                    let mirror = self.mirror(r, mirrors)?;
                    (
                        "&Bound<'_, PyAny>".into(),
                        format!("{reg}.record_arg::<{mirror}>({idx}, {name})?"),
                    )
                }
                CType::Handle { .. } | CType::Pointer { .. } => {
                    ("rt::PtrArg".into(), format!("{name}.addr()"))
                }
                other => bail!("cannot pass {other:?}"),
            },
            Usage::Out | Usage::OutString | Usage::ByRef | Usage::Pointer => {
                unreachable!("handled by the caller")
            }
        })
    }

    /// The Rust parameter type and the statements giving `a` (the C value) of a pointer
    /// argument. What the header says the pointer points at picks the conversion: a handle
    /// (`hiprtcProgram *`: the handle object, or an address as is), a struct (an instance of
    /// that struct, or a buffer large enough), a number (a buffer of at least one), or
    /// anything pointer-like.
    fn pointer_param(
        &self,
        ty: &CType,
        name: &str,
        c_name: &str,
        a: &str,
    ) -> Result<(String, Vec<String>)> {
        let any = "&Bound<'_, PyAny>".to_string();
        let CType::Pointer { pointee, is_const } = ty else {
            return Ok((
                "rt::PtrArg".into(),
                vec![format!("let {a} = {name}.addr();")],
            ));
        };
        let writable = !is_const;
        match pointee.as_ref() {
            CType::Handle { name: h } => {
                let (reg, idx) = self.types.get(h)?;
                Ok((
                    any,
                    vec![
                        format!(
                            "let mut h_{c_name} = {reg}.handle_ref({idx}, {name}, {writable})?;"
                        ),
                        format!("let {a} = h_{c_name}.addr();"),
                    ],
                ))
            }
            CType::Record { name: r } if self.records.contains_key(r.as_str()) => {
                let (reg, idx) = self.types.get(r)?;
                Ok((
                    any,
                    vec![
                        format!(
                            "let p_{c_name} = {reg}.record_ptr_arg({idx}, {name}, {writable})?;"
                        ),
                        format!("let {a} = p_{c_name}.addr();"),
                    ],
                ))
            }
            p if p.is_scalar() && !p.is_char() => {
                let size = size_of(p, self.records)?;
                Ok((
                    any,
                    vec![
                        format!("let p_{c_name} = rt::typed_ptr_arg({name}, None, {size}, {writable})?;"),
                        format!("let {a} = p_{c_name}.addr();"),
                    ],
                ))
            }
            _ if writable => Ok((
                "rt::PtrArgMut".into(),
                vec![format!("let {a} = {name}.addr();")],
            )),
            _ => Ok((
                "rt::PtrArg".into(),
                vec![format!("let {a} = {name}.addr();")],
            )),
        }
    }

    /// `expr` for a string the C function hands over (a non-const `char *` of a function the
    /// spec's `owned_strings` names): copied, then given back to the library's free function.
    fn owned(&self, function: &str, ty: &CType, v: &str, expr: String) -> String {
        let CType::Pointer { pointee, is_const } = ty else {
            return expr;
        };
        if !pointee.is_char() || *is_const {
            return expr;
        }
        match self
            .owned_strings
            .iter()
            .find(|(re, _)| re.is_match(function))
        {
            Some((_, free)) => {
                self.frees_used.borrow_mut().insert(free.clone());
                format!("rt::owned_cstr_result(py, {v}, &FREE_{free})?")
            }
            None => expr,
        }
    }

    /// The expression turning a C value `v` into a Python object.
    fn result_expr(&self, ty: &CType, v: &str, size_param: Option<&str>) -> Result<String> {
        Ok(match ty {
            CType::Bool => format!("rt::obj(py, ({v} as u8) != 0)?"),
            CType::Int { .. } | CType::Float { .. } => format!("rt::obj(py, {v})?"),
            CType::Enum { name, .. } => {
                let (reg, idx) = self.types.get(name)?;
                format!("{reg}.enum_member(py, {idx}, {v} as i64)?")
            }
            CType::Handle { name } => {
                let (reg, idx) = self.types.get(name)?;
                format!("{reg}.instance_at(py, {idx}, {v}, None)?")
            }
            CType::Pointer { pointee, .. } if pointee.is_char() => {
                format!("rt::cstr_result(py, {v})?")
            }
            CType::Pointer { pointee, .. } if matches!(**pointee, CType::Record { .. }) => {
                let CType::Record { name } = pointee.as_ref() else {
                    unreachable!()
                };
                let (reg, idx) = self.types.get(name)?;
                format!("{reg}.instance_at(py, {idx}, {v}, None)?")
            }
            CType::Pointer { .. } => match size_param {
                Some(s) => format!("rt::device_array_result(py, {v}, {s} as u64)?"),
                None => format!("rt::pointer_result(py, {v})?"),
            },
            CType::Record { name } => {
                let (reg, idx) = self.types.get(name)?;
                format!("{reg}.record_copy(py, {idx}, &{v} as *const _ as usize)?")
            }
            other => bail!("cannot return {other:?}"),
        })
    }
}

/// Whether a C value of type `t` is an integer or an address (not a string), so that the
/// variable holding it can be presented otherwise than the module presents it.
fn raw_value(t: &CType) -> bool {
    match t {
        CType::Int { .. } | CType::Handle { .. } => true,
        CType::Pointer { pointee, .. } => !pointee.is_char(),
        _ => false,
    }
}

/// Python keywords, which cannot be parameter names.
pub const PYTHON_KEYWORDS: &[&str] = &[
    "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue",
    "def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import",
    "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while",
    "with", "yield",
];

/// A Rust-safe identifier for a C name that is also a valid Python parameter name
/// (`from` becomes `from_`).
fn sanitize(name: &str) -> String {
    // Keywords Rust has no raw form of.
    if PYTHON_KEYWORDS.contains(&name)
        || ["self", "Self", "crate", "super", "Ok", "Err", "Some"].contains(&name)
    {
        return format!("{name}_");
    }
    if RUST_KEYWORDS.contains(&name) {
        format!("r#{name}")
    } else {
        name.to_string()
    }
}

/// The Rust identifier of a C parameter (as the generated functions name it).
pub(crate) fn rust_name(name: &str) -> String {
    sanitize(name)
}

/// The Python name of a C parameter (`from` is `from_`; Rust's raw `r#type` is `type`).
pub fn python_name(name: &str) -> String {
    sanitize(name).trim_start_matches("r#").to_string()
}

/// A short description of a returned C type.
fn describe(ty: &CType) -> String {
    match ty {
        CType::Bool => "bool".into(),
        CType::Int { .. } => "int".into(),
        CType::Float { .. } => "float".into(),
        CType::Enum { name, .. } | CType::Record { name } | CType::Handle { name } => name.clone(),
        CType::Pointer { pointee, .. } if pointee.is_char() => "bytes".into(),
        CType::Pointer { .. } => "Pointer".into(),
        _ => "object".into(),
    }
}

/// Docstring lines: description, `Args:` and `Returns:` sections.
fn docstring(doc: &Doc, params: &[String], returns: &[String]) -> Vec<String> {
    let mut out: Vec<String> = doc.text.lines().map(str::to_string).collect();
    if !params.is_empty() {
        if !out.is_empty() {
            out.push(String::new());
        }
        out.push("Args:".into());
        for p in params {
            let entry = doc.params.iter().find(|(n, _, _)| n == p);
            match entry {
                Some((_, dir, text)) if !text.is_empty() => {
                    let dir = if dir.is_empty() {
                        String::new()
                    } else {
                        format!(" [{dir}]")
                    };
                    let mut lines = text.lines();
                    out.push(format!(
                        "    {p}{dir}: {}",
                        lines.next().unwrap_or_default()
                    ));
                    out.extend(lines.map(|l| format!("        {l}")));
                }
                _ => out.push(format!("    {p}")),
            }
        }
    }
    if !returns.is_empty() {
        if !out.is_empty() {
            out.push(String::new());
        }
        out.push(format!("Returns: a tuple of {} item(s):", returns.len()));
        out.extend(returns.iter().map(|r| format!("    {r}")));
        if !doc.returns.is_empty() {
            out.extend(doc.returns.lines().map(|l| format!("    {l}")));
        }
    }
    out
}
