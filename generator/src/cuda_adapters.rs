//! Native CUDA adapters: for each CUDA function whose cuda-python convention differs from its
//! HIP function's in ways a compiled function can bridge (arguments renamed, reordered or
//! added as zero, `None` for integers, `kernelParams` forms, CUDA-only inputs that must be
//! null, outputs given as CUDA's integer classes, addresses or handle classes, `None` outputs
//! on error), a PyO3 function that calls the HIP function's C symbol itself, with the same
//! argument conversions as the HIP function (its model from `render`), so an adapted call
//! costs about what the HIP call costs.
//!
//! The code goes into `cuda_adapters.rs` beside the HIP modules, one submodule per HIP module,
//! which imports that module's crate-visible items (`TYPES`, `LIB`, struct mirrors). Entries of other shapes (structs in CUDA's
//! layout, attribute values, direct C calls) stay Python adapters (`cuda/_conventions.py`).

use crate::ir::{AdapterArg, AdapterResult, AliasSet, ApiConventions, Library};
use crate::render::{function_models, FunctionModel};
use crate::spec::Spec;
use anyhow::{Context, Result};
use minijinja::Environment;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::Path;

/// One native adapter as the template sees it.
#[derive(Serialize)]
struct AdapterModel {
    /// Rust function name (`v13_cuDeviceGet`).
    rust_name: String,
    /// CUDA name.
    cuda: String,
    /// cuda-bindings major version.
    version: String,
    /// Docstring lines.
    doc: Vec<String>,
    /// cuda-python's parameter names (Rust identifiers), in order.
    py_params: Vec<String>,
    /// `name: Type` of each.
    rust_params: Vec<String>,
    /// Statements checking that CUDA-only inputs are null.
    dropped: Vec<String>,
    /// Whether `__zero` (a Python 0) is needed.
    zero: bool,
    /// The HIP function's parameters, bound from CUDA's (one `let` of a tuple).
    bind: String,
    /// The HIP function's model (conversions, call, status).
    hip: FunctionModelView,
    /// The status expression (first item).
    status: String,
    /// Each output's expression.
    results: Vec<String>,
}

/// What the template uses of the HIP function's model.
#[derive(Serialize)]
struct FunctionModelView {
    name: String,
    symbol: String,
    prep: Vec<String>,
    ffi_params: Vec<String>,
    ffi_ret: String,
    call_args: Vec<String>,
    keep_gil: bool,
    serialize: bool,
}

/// The adapters of one HIP module.
#[derive(Serialize)]
struct ModuleAdapters {
    /// HIP module (spec and feature name).
    name: String,
    /// Lazily imported Python objects: (static name, module, attribute, Rust type).
    imports: Vec<(String, String, String, String)>,
    adapters: Vec<AdapterModel>,
}

/// Everything `cuda_adapters.rs.j2` needs.
#[derive(Serialize)]
struct AdaptersFile {
    command: String,
    modules: Vec<ModuleAdapters>,
}

/// What the native adapters cover, for the generator's report.
pub struct Report {
    /// Per API version: (native, adapted in all).
    pub counts: BTreeMap<String, (usize, usize)>,
}

/// Where the HIP modules' IRs and specs are.
pub struct HipInputs<'a> {
    /// Output folder holding `<module>.ir.json`.
    pub dir: &'a Path,
    /// Folder of the spec files.
    pub specs: &'a Path,
    /// ROCm release (per-release specs).
    pub release: &'a str,
}

/// Renders `cuda_adapters.rs` for the adapters of `set` that can be native.
pub fn render(
    set: &AliasSet,
    inputs: &HipInputs,
    templates: &Path,
    command: &str,
) -> Result<(String, Report)> {
    let hip_modules: BTreeSet<&str> = set
        .apis
        .iter()
        .flat_map(|a| a.adapted.iter().map(|e| e.hip_module.as_str()))
        .collect();
    let mut modules = Vec::new();
    let mut counts = BTreeMap::new();
    for api in &set.apis {
        counts.insert(api.version.clone(), (0, api.adapted.len()));
    }
    for hip_module in hip_modules {
        let (lib, imports, spec) = load(inputs, hip_module)?;
        let names: BTreeSet<&str> = set
            .apis
            .iter()
            .flat_map(|a| a.adapted.iter())
            .filter(|e| e.hip_module == hip_module)
            .map(|e| e.hip.as_str())
            .collect();
        let models = function_models(&lib, &imports, &spec, "crate::", &names)?;
        let mut imported = BTreeMap::new();
        let mut adapters = Vec::new();
        for api in &set.apis {
            for entry in api.adapted.iter().filter(|e| e.hip_module == hip_module) {
                let Some(hip) = models.get(&entry.hip) else {
                    continue;
                };
                if let Some(a) = adapter(api, entry, hip, &mut imported) {
                    adapters.push(a);
                    counts.get_mut(&api.version).context("version")?.0 += 1;
                }
            }
        }
        modules.push(ModuleAdapters {
            name: hip_module.to_string(),
            imports: imported
                .into_iter()
                .map(|((m, a), n)| {
                    let ty = if n.starts_with("INT_CLASS_") {
                        "rt::IntClass"
                    } else {
                        "rt::Imported"
                    };
                    (n, m, a, ty.to_string())
                })
                .collect(),
            adapters,
        });
    }
    let mut env = Environment::new();
    env.set_loader(minijinja::path_loader(templates));
    env.set_trim_blocks(true);
    env.set_lstrip_blocks(true);
    env.set_keep_trailing_newline(true);
    let file = AdaptersFile {
        command: command.to_string(),
        modules,
    };
    let code = env
        .get_template("cuda_adapters.rs.j2")?
        .render(minijinja::context! { f => file })?;
    Ok((code, Report { counts }))
}

/// The IR, imported IRs and spec of HIP module `name`.
fn load(inputs: &HipInputs, name: &str) -> Result<(Library, Vec<Library>, Spec)> {
    let read = |n: &str| -> Result<Library> {
        let path = inputs.dir.join(format!("{n}.ir.json"));
        let text = std::fs::read_to_string(&path)
            .with_context(|| format!("reading {}", path.display()))?;
        Ok(serde_json::from_str(&text)?)
    };
    let per_release = inputs
        .specs
        .join(inputs.release)
        .join(format!("{name}.yaml"));
    let path = if per_release.exists() {
        per_release
    } else {
        inputs.specs.join(format!("{name}.yaml"))
    };
    let spec = Spec::load_all(&path)?
        .into_iter()
        .find(|s| s.name == name)
        .with_context(|| format!("{} has no spec named {name}", path.display()))?;
    let lib = read(name)?;
    let imports = spec
        .imports
        .iter()
        .map(|i| read(i))
        .collect::<Result<Vec<_>>>()?;
    Ok((lib, imports, spec))
}

/// The Rust parameter name and type of each Python parameter of a model.
fn typed_params(hip: &FunctionModel) -> Vec<(String, String)> {
    hip.rust_params
        .iter()
        .map(|p| {
            let (n, t) = p.split_once(": ").unwrap_or((p, ""));
            (n.to_string(), t.to_string())
        })
        .collect()
}

/// A Rust expression giving a HIP parameter of Rust type `ty` the value zero, if the type
/// has one here.
fn zero_of(ty: &str) -> Option<&'static str> {
    Some(match ty {
        t if t.starts_with("rt::CInt<") => "rt::CInt(0)",
        "&Bound<'_, PyAny>" => "&__zero",
        "rt::PtrArg" => "rt::PtrArg::convert(&__zero, false)?",
        "rt::PtrArgMut" => "rt::PtrArgMut(rt::PtrArg::convert(&__zero, false)?)",
        "bool" => "false",
        "f32" | "f64" => "0.0",
        _ => return None,
    })
}

/// The static holding `module.attr`, registered in `imported`: named `<prefix>_<n>`, whose
/// prefix says its Rust type (`IMPORTED`: an `rt::Imported`; `INT_CLASS`: an `rt::IntClass`,
/// a class whose instances are made from integers).
fn import(
    imported: &mut BTreeMap<(String, String), String>,
    prefix: &str,
    module: &str,
    attr: &str,
) -> String {
    let n = imported.len();
    imported
        .entry((module.to_string(), attr.to_string()))
        .or_insert_with(|| format!("{prefix}_{n}"))
        .clone()
}

/// The native adapter of `entry`, or None where its shape needs the Python adapter.
fn adapter(
    api: &ApiConventions,
    entry: &crate::ir::Adapter,
    hip: &FunctionModel,
    imported: &mut BTreeMap<(String, String), String>,
) -> Option<AdapterModel> {
    if entry.direct.is_some()
        || hip.plain
        || !hip.results.first()?.contains("__r as i64")
        || entry.args.len() != hip.py_params.len()
        || entry
            .params
            .iter()
            .any(|p| p.attribute_value || p.location || p.record.is_some())
    {
        return None;
    }
    let hip_params = typed_params(hip);
    let cuda_module = format!("cuda.bindings.{}", entry.module);
    let rust = |n: &str| crate::render::rust_name(n);
    // Each CUDA input feeds one HIP parameter, or is dropped (must be null).
    let mut feeds: HashMap<usize, usize> = HashMap::new();
    for (j, a) in entry.args.iter().enumerate() {
        match a {
            AdapterArg::Input { index } => {
                if feeds.insert(*index, j).is_some() {
                    return None;
                }
            }
            AdapterArg::Zero => {}
            AdapterArg::New { .. } | AdapterArg::Value => return None,
        }
    }
    let mut zero = false;
    let mut py_params = Vec::new();
    let mut rust_params = Vec::new();
    let mut dropped = Vec::new();
    // The value of each HIP parameter, by HIP position.
    let mut values: Vec<Option<String>> = vec![None; hip_params.len()];
    for (i, p) in entry.params.iter().enumerate() {
        let name = rust(&p.name);
        py_params.push(name.clone());
        let Some(&j) = feeds.get(&i) else {
            if !entry.dropped.contains(&i) {
                return None;
            }
            rust_params.push(format!("{name}: &Bound<'_, PyAny>"));
            dropped.push(name);
            continue;
        };
        let ty = &hip_params[j].1;
        let (param_ty, value) = if p.kernel_params {
            if ty != "rt::PtrArg" && ty != "rt::PtrArgMut" {
                return None;
            }
            let fallback = import(
                imported,
                "IMPORTED",
                "cuda._conventions",
                "_address_of_value",
            );
            (
                "&Bound<'_, PyAny>".to_string(),
                format!("rt::KernelParams::convert({name}, || Ok({fallback}.get(py)?.clone()))?"),
            )
        } else if p.integer && ty.starts_with("rt::CInt<") {
            (
                format!("Option<{ty}>"),
                format!("{name}.unwrap_or(rt::CInt(0))"),
            )
        } else if p.integer && ty == "&Bound<'_, PyAny>" {
            zero = true;
            (
                "Option<&Bound<'_, PyAny>>".to_string(),
                format!("{name}.unwrap_or(&__zero)"),
            )
        } else if p.integer && !ty.starts_with("rt::PtrArg") {
            return None;
        } else {
            (ty.clone(), name.clone())
        };
        rust_params.push(format!("{name}: {param_ty}"));
        values[j] = Some(value);
    }
    for (j, a) in entry.args.iter().enumerate() {
        if matches!(a, AdapterArg::Zero) {
            let z = zero_of(&hip_params[j].1)?;
            zero |= z.contains("__zero");
            values[j] = Some(z.to_string());
        }
    }
    let values: Vec<String> = values.into_iter().collect::<Option<_>>()?;
    let names: Vec<&str> = hip_params.iter().map(|(n, _)| n.as_str()).collect();
    let bind = if names.is_empty() {
        String::new()
    } else {
        format!("let ({},) = ({},);", names.join(", "), values.join(", "))
    };
    let mut results = Vec::new();
    for r in &entry.results {
        let AdapterResult::Hip {
            index,
            wrap,
            address,
            handle,
            record,
        } = r
        else {
            return None;
        };
        if record.is_some() {
            return None;
        }
        let raw = hip.raw_outs.get(index + 1)?.as_deref();
        let expr = hip.results.get(index + 1)?;
        results.push(match (wrap, handle, address) {
            (Some(w), _, _) => {
                // The module cuda-python defines the typedef's class in.
                let module = if w.starts_with("cuda") {
                    "runtime"
                } else {
                    "driver"
                };
                let cls = import(imported, "INT_CLASS", &format!("cuda.bindings.{module}"), w);
                format!("{cls}.make(py, {} as i128)?", raw?)
            }
            (None, Some(h), _) => {
                let cls = import(imported, "IMPORTED", &cuda_module, h);
                format!("{cls}.get(py)?.call1(({},))?.unbind()", raw?)
            }
            (None, None, true) => format!("rt::obj(py, {})?", raw?),
            (None, None, false) => expr.clone(),
        });
    }
    let dropped = if dropped.is_empty() {
        Vec::new()
    } else {
        let status = import(imported, "IMPORTED", &cuda_module, &entry.status_type);
        let member = api.not_supported.get(&entry.status_type)?;
        let nones = ", py.None()".repeat(results.len());
        dropped
            .iter()
            .map(|n| {
                format!(
                    "if !rt::is_null_input({n})? {{ return rt::tuple(py, [{status}.get(py)?.getattr({member:?})?.unbind(){nones}]); }}"
                )
            })
            .collect()
    };
    Some(AdapterModel {
        rust_name: format!("v{}_{}", api.version, entry.cuda),
        cuda: entry.cuda.clone(),
        version: api.version.clone(),
        doc: vec![format!(
            "CUDA's {} on HIP's {}, with cuda-python's calling convention (cuda-bindings {}).",
            entry.cuda, entry.hip, api.version
        )],
        py_params,
        rust_params,
        dropped,
        zero,
        bind,
        status: hip.results[0].clone(),
        results,
        hip: FunctionModelView {
            name: hip.name.clone(),
            symbol: hip.symbol.clone(),
            prep: hip.prep.clone(),
            ffi_params: hip.ffi_params.clone(),
            ffi_ret: hip.ffi_ret.clone(),
            call_args: hip.call_args.clone(),
            keep_gil: hip.keep_gil,
            serialize: hip.serialize,
        },
    })
}
