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

use crate::generate::Libraries;
use crate::ir::{AdapterArg, AdapterResult, AliasSet, ApiConventions};
use crate::render::model::{ArgType, FfiType, Output, Param, Prep, Var};
use crate::render::names::{python_name, rust_name};
use crate::render::{function_models, FunctionModel};
use anyhow::{Context, Result};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::Path;

/// One native adapter as the template sees it.
#[derive(Serialize)]
struct AdapterModel {
    /// CUDA name.
    cuda: String,
    /// cuda-bindings major version.
    version: String,
    /// Docstring lines.
    doc: Vec<String>,
    /// cuda-python's parameters, in order.
    params: Vec<Param>,
    /// CUDA-only inputs, which must be null.
    dropped: Vec<String>,
    /// The status class and its not-supported member, returned when a dropped input is not
    /// null.
    not_supported: Option<(ImportRef, String)>,
    /// Whether `__zero` (a Python 0) is needed.
    zero: bool,
    /// The HIP function's parameters (Rust names), bound from CUDA's.
    bind: Vec<(String, AdapterValue)>,
    /// The HIP function's model (conversions, call, status).
    hip: FunctionModelView,
    /// The status (first item).
    status: Output,
    /// Each output.
    results: Vec<AdapterOutput>,
}

/// A lazily imported Python object: a static named `IMPORTED_<n>` (an `rt::Imported`) or
/// `INT_CLASS_<n>` (an `rt::IntClass`, a class whose instances are made from integers).
#[derive(Serialize, Clone, Copy)]
struct ImportRef {
    n: usize,
    int_class: bool,
}

/// The value a HIP parameter is bound to.
#[derive(Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum AdapterValue {
    /// A CUDA parameter as it is.
    Arg { name: String },
    /// `kernelParams` in any of cuda-python's forms, unusual values through `fallback`.
    KernelParams { name: String, fallback: ImportRef },
    /// An integer parameter where None means 0.
    IntOrZero { name: String },
    /// A parameter converted in the body, where None means 0.
    AnyOrZero { name: String },
    /// Zero, for a HIP parameter CUDA's function lacks.
    Zero { ty: ArgType },
}

/// An output as cuda-python gives it.
#[derive(Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum AdapterOutput {
    /// An instance of a CUDA integer class.
    IntClass { class: ImportRef, var: Var },
    /// An instance of a CUDA handle class.
    Handle { class: ImportRef, var: Var },
    /// An `int` address.
    Address { var: Var },
    /// As the HIP function gives it.
    Hip { output: Output },
}

/// What the template uses of the HIP function's model.
#[derive(Serialize)]
struct FunctionModelView {
    name: String,
    symbol: String,
    prep: Vec<Prep>,
    ffi_params: Vec<FfiType>,
    ffi_ret: FfiType,
    call_args: Vec<String>,
    keep_gil: bool,
    serialize: bool,
}

/// A lazily imported object of a module.
#[derive(Serialize)]
struct ImportModel {
    r: ImportRef,
    module: String,
    attr: String,
}

/// The adapters of one HIP module.
#[derive(Serialize)]
struct ModuleAdapters {
    /// HIP module (spec and feature name).
    name: String,
    /// Lazily imported Python objects.
    imports: Vec<ImportModel>,
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

/// Renders `cuda_adapters.rs` for the adapters of `set` that can be native.
pub fn render(
    set: &AliasSet,
    libraries: &mut Libraries,
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
        let spec = libraries.spec(hip_module)?.clone();
        let imports = libraries.all(&spec.imports)?;
        let lib = libraries.get(hip_module)?;
        let names: BTreeSet<&str> = set
            .apis
            .iter()
            .flat_map(|a| a.adapted.iter())
            .filter(|e| e.hip_module == hip_module)
            .map(|e| e.hip.as_str())
            .collect();
        let models = function_models(lib, &imports, &spec, "crate::", &names)?;
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
                .map(|((module, attr), r)| ImportModel { r, module, attr })
                .collect(),
            adapters,
        });
    }
    let env = crate::render::templates::environment(templates);
    let file = AdaptersFile {
        command: command.to_string(),
        modules,
    };
    let code = env
        .get_template("cuda_adapters.rs.j2")?
        .render(minijinja::context! { f => file })?;
    Ok((code, Report { counts }))
}

/// Zero as a HIP parameter of type `ty`, if the type has one here.
fn zero_of(ty: &ArgType) -> Option<AdapterValue> {
    match ty {
        ArgType::CInt { .. }
        | ArgType::Any
        | ArgType::Ptr
        | ArgType::PtrMut
        | ArgType::PtrWritten
        | ArgType::Bool
        | ArgType::Float { .. } => Some(AdapterValue::Zero { ty: ty.clone() }),
        _ => None,
    }
}

/// The static holding `module.attr`, registered in `imported`.
fn import(
    imported: &mut BTreeMap<(String, String), ImportRef>,
    int_class: bool,
    module: &str,
    attr: &str,
) -> ImportRef {
    let n = imported.len();
    *imported
        .entry((module.to_string(), attr.to_string()))
        .or_insert(ImportRef { n, int_class })
}

/// The native adapter of `entry`, or None where its shape needs the Python adapter.
fn adapter(
    api: &ApiConventions,
    entry: &crate::ir::Adapter,
    hip: &FunctionModel,
    imported: &mut BTreeMap<(String, String), ImportRef>,
) -> Option<AdapterModel> {
    if entry.direct.is_some()
        || hip.plain
        || !hip.results.first()?.is_returned_enum()
        || entry.args.len() != hip.params.len()
        || entry
            .params
            .iter()
            .any(|p| p.attribute_value || p.location || p.record.is_some())
    {
        return None;
    }
    let cuda_module = format!("cuda.bindings.{}", entry.module);
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
    let mut params = Vec::new();
    let mut dropped = Vec::new();
    // The value of each HIP parameter, by HIP position.
    let mut values: Vec<Option<AdapterValue>> = hip.params.iter().map(|_| None).collect();
    for (i, p) in entry.params.iter().enumerate() {
        let name = rust_name(&p.name);
        let Some(&j) = feeds.get(&i) else {
            if !entry.dropped.contains(&i) {
                return None;
            }
            params.push(Param {
                py_name: python_name(&p.name),
                name: name.clone(),
                ty: ArgType::Any,
                optional: false,
            });
            dropped.push(name);
            continue;
        };
        let ty = &hip.params[j].ty;
        let (ty, optional, value) = if p.kernel_params {
            if !matches!(ty, ArgType::Ptr | ArgType::PtrMut | ArgType::PtrWritten) {
                return None;
            }
            let fallback = import(imported, false, "cuda._conventions", "_address_of_value");
            let value = AdapterValue::KernelParams {
                name: name.clone(),
                fallback,
            };
            (ArgType::Any, false, value)
        } else if p.integer && matches!(ty, ArgType::CInt { .. }) {
            let value = AdapterValue::IntOrZero { name: name.clone() };
            (ty.clone(), true, value)
        } else if p.integer && *ty == ArgType::Any {
            zero = true;
            let value = AdapterValue::AnyOrZero { name: name.clone() };
            (ArgType::Any, true, value)
        } else if p.integer && !matches!(ty, ArgType::Ptr | ArgType::PtrMut | ArgType::PtrWritten) {
            return None;
        } else {
            (ty.clone(), false, AdapterValue::Arg { name: name.clone() })
        };
        params.push(Param {
            py_name: python_name(&p.name),
            name,
            ty,
            optional,
        });
        values[j] = Some(value);
    }
    for (j, a) in entry.args.iter().enumerate() {
        if matches!(a, AdapterArg::Zero) {
            let ty = &hip.params[j].ty;
            zero |= matches!(
                ty,
                ArgType::Any | ArgType::Ptr | ArgType::PtrMut | ArgType::PtrWritten
            );
            values[j] = Some(zero_of(ty)?);
        }
    }
    let values: Vec<AdapterValue> = values.into_iter().collect::<Option<_>>()?;
    let bind = hip
        .params
        .iter()
        .map(|p| p.name.clone())
        .zip(values)
        .collect();
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
        let raw = hip.raw_outs.get(index + 1)?.clone();
        let output = hip.results.get(index + 1)?.clone();
        results.push(match (wrap, handle, address) {
            (Some(w), _, _) => {
                // The module cuda-python defines the typedef's class in.
                let module = if w.starts_with("cuda") {
                    "runtime"
                } else {
                    "driver"
                };
                let class = import(imported, true, &format!("cuda.bindings.{module}"), w);
                AdapterOutput::IntClass { class, var: raw? }
            }
            (None, Some(h), _) => {
                let class = import(imported, false, &cuda_module, h);
                AdapterOutput::Handle { class, var: raw? }
            }
            (None, None, true) => AdapterOutput::Address { var: raw? },
            (None, None, false) => AdapterOutput::Hip { output },
        });
    }
    let not_supported = if dropped.is_empty() {
        None
    } else {
        let status = import(imported, false, &cuda_module, &entry.status_type);
        let member = api.not_supported.get(&entry.status_type)?;
        Some((status, member.clone()))
    };
    Some(AdapterModel {
        cuda: entry.cuda.clone(),
        version: api.version.clone(),
        doc: vec![format!(
            "CUDA's {} on HIP's {}, with cuda-python's calling convention (cuda-bindings {}).",
            entry.cuda, entry.hip, api.version
        )],
        params,
        dropped,
        not_supported,
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
