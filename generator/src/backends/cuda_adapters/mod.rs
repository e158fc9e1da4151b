//! Native CUDA adapters: for each CUDA function whose cuda-python convention differs from its
//! HIP function's in ways a compiled function can bridge (arguments renamed, reordered or
//! added as zero, `None` for integers, `kernelParams` forms, CUDA-only inputs that must be
//! null, outputs given as CUDA's integer classes, addresses or handle classes, `None` outputs
//! on error), a PyO3 function that calls the HIP function's C symbol itself, with the same
//! argument conversions as the HIP function (its model from `crate::model`), so an adapted call
//! costs about what the HIP call costs.
//!
//! The code goes into `cuda_adapters.rs` beside the HIP modules, one submodule per HIP module,
//! which imports that module's crate-visible items (`TYPES`, `LIB`, struct mirrors). Every
//! entry of the plan is one of these (direct C calls: `direct`; the lazily imported objects they name: `imports`); none is Python.

mod direct;
mod imports;
#[cfg(test)]
mod snapshots;

use crate::ir::{
    AdapterArg, AdapterResult, AliasKind, AliasModule, AliasSet, ApiConventions, CudaTypes, Library,
};
use crate::libraries::Libraries;
use crate::model::items::{ArgType, FfiType, Output, Param, Prep, Var};
use crate::model::names::{python_name, rust_name};
use crate::model::{function_models, FunctionModel};
use anyhow::{Context, Result};
use direct::{direct_adapter, DirectModel};
use imports::{import, ImportRef, Imports};
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
    /// Structs made before the call for the HIP function to fill, in order.
    made: Vec<MadeStruct>,
    /// 8 zeroed bytes each, which the call writes an attribute's value into.
    cells: Vec<String>,
    /// Arguments in CUDA's layout of a struct, converted to HIP's before the call.
    converted: Vec<ToHip>,
    /// The HIP function's parameters (Rust names), bound from CUDA's.
    bind: Vec<(String, AdapterValue)>,
    /// The HIP function's model (conversions, call, status).
    hip: FunctionModelView,
    /// The status (first item).
    status: Output,
    /// Each output.
    results: Vec<AdapterOutput>,
}

/// A struct the adapter makes for the HIP function to fill, and returns.
#[derive(Serialize)]
struct MadeStruct {
    /// The Rust variable holding it.
    var: String,
    /// The class instantiated: CUDA's class where it is HIP's class as cuda-python presents
    /// it, else HIP's.
    class: ImportRef,
    /// HIP's class, which CUDA's must be a subclass of (checked at each call: a wrong class
    /// would be written with HIP's layout).
    hip_class: Option<ImportRef>,
}

/// An argument in CUDA's layout of a struct HIP lays out otherwise, converted by `to_hip` into
/// HIP's class `class` (lists element by element; anything else as it is).
#[derive(Serialize)]
struct ToHip {
    var: String,
    arg: String,
    to_hip: ImportRef,
    class: ImportRef,
}

/// The value a HIP parameter is bound to.
#[derive(Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum AdapterValue {
    /// A CUDA parameter as it is.
    Arg { name: String },
    /// `kernelParams` in any of cuda-python's forms (the runtime's `KernelParams`).
    KernelParams { name: String },
    /// An integer parameter where None means 0.
    IntOrZero { name: String },
    /// A parameter converted in the body, where None means 0.
    AnyOrZero { name: String },
    /// CUDA's integer address (`CUdeviceptr`) where HIP takes a pointer of type `ty`: a float
    /// is truncated first, as cuda-python's integer conversion does.
    Address {
        name: String,
        py_name: String,
        ty: ArgType,
    },
    /// Zero, for a HIP parameter CUDA's function lacks.
    Zero { ty: ArgType },
    /// A struct the adapter made (`MadeStruct`), taken as the HIP parameter of type `ty`.
    New { var: String, ty: ArgType },
    /// The address of a cell (`AdapterModel::cells`), as the HIP parameter of type `ty`.
    Cell { var: String, ty: ArgType },
    /// A memory location (cuda-python's struct `cuda`, HIP's `hip`, or a device ordinal) as the
    /// device ordinal HIP takes: the device's id (`kinds`'s member `device`), -1 for `host`.
    Location {
        name: String,
        py_name: String,
        cuda: ImportRef,
        hip: ImportRef,
        kinds: ImportRef,
        device: String,
        host: String,
    },
    /// A value C reads through a `void *` (an attribute setter's): an integer in the cell
    /// `cell`, an integer over the caller's memory (`rt::IntView`) at its address, else a
    /// pointer.
    ValueOrPointer {
        name: String,
        cell: String,
        ty: ArgType,
    },
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
    /// A struct the adapter made, as it is.
    Made { var: String },
    /// The value a cell holds: read as C type `code` where the attribute (the C value
    /// `attribute`) is one of `typed`'s, else as CUDA's 64-bit class `class`.
    Cell {
        var: String,
        class: ImportRef,
        attribute: Option<String>,
        typed: Vec<(i64, String)>,
    },
    /// A HIP struct (one the adapter made, or the HIP function's output) copied into CUDA's
    /// layout by `present` (the records the cuda package reshapes).
    Present {
        present: ImportRef,
        class: ImportRef,
        var: Option<String>,
        output: Option<Output>,
    },
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
    /// Adapters calling the C function with arguments of their own making.
    direct: Vec<DirectModel>,
}

/// Everything `cuda_adapters.rs.j2` needs.
#[derive(Serialize)]
struct AdaptersFile<'a> {
    command: String,
    modules: Vec<ModuleAdapters>,
    /// The conventions the adapters were made from, carried beside them: the cuda package
    /// reads the plan of the release whose adapters the hip extension holds.
    apis: &'a [ApiConventions],
    /// Per API version, CUDA's records as a runtime type table (`records.rs`).
    tables: Vec<RecordTable>,
}

/// One API version's record table.
#[derive(Serialize)]
struct RecordTable {
    version: String,
    types: Vec<crate::model::items::TypeDefModel>,
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
        let values = member_values(set, hip_module, lib);
        let mut imported = BTreeMap::new();
        let mut adapters = Vec::new();
        let mut direct = Vec::new();
        for api in &set.apis {
            for entry in api.adapted.iter().filter(|e| e.hip_module == hip_module) {
                let Some(hip) = models.get(&entry.hip) else {
                    continue;
                };
                let hip_in = HipModule {
                    aliases: set.modules.iter().find(|m| m.module == hip_module),
                    lib,
                    member_values: &values,
                };
                if entry.direct.is_some() {
                    if let Some(d) = direct_adapter(api, entry, hip, &values, &mut imported) {
                        direct.push(d);
                        counts.get_mut(&api.version).context("version")?.0 += 1;
                    }
                } else if let Some(a) = adapter(api, entry, hip, &hip_in, &mut imported) {
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
            direct,
        });
    }
    let env = crate::backends::templates::environment(templates);
    let file = AdaptersFile {
        command: command.to_string(),
        modules,
        apis: &set.apis,
        tables: set
            .apis
            .iter()
            .map(|api| {
                Ok(RecordTable {
                    version: api.version.clone(),
                    types: crate::cuda::records::table(&api.types)?,
                })
            })
            .collect::<Result<_>>()?,
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

/// The native adapter of `entry`, or None where its shape needs the Python adapter.
fn adapter(
    api: &ApiConventions,
    entry: &crate::ir::Adapter,
    hip: &FunctionModel,
    hip_in: &HipModule,
    imported: &mut Imports,
) -> Option<AdapterModel> {
    let (set_module, lib, member_values) = (hip_in.aliases, hip_in.lib, hip_in.member_values);
    if entry.direct.is_some()
        || hip.plain
        || !hip.results.first()?.is_returned_enum()
        || entry.args.len() != hip.params.len()
        || entry
            .params
            .iter()
            .any(|p| p.location && !api.location_types.contains_key(&entry.module))
    {
        return None;
    }
    let cuda_module = format!("cuda.bindings.{}", entry.module);
    let hip_module = format!("hip.{}", entry.hip_module);
    // Each CUDA input feeds one HIP parameter, or is dropped (must be null).
    let mut feeds: HashMap<usize, usize> = HashMap::new();
    let mut made = Vec::new();
    let mut cells: Vec<String> = Vec::new();
    let mut converted: Vec<ToHip> = Vec::new();
    let mut value_vars: Vec<String> = Vec::new();
    let mut made_values = Vec::new();
    for (j, a) in entry.args.iter().enumerate() {
        match a {
            AdapterArg::Input { index } => {
                if feeds.insert(*index, j).is_some() {
                    return None;
                }
            }
            AdapterArg::Zero => {}
            AdapterArg::New { record } => {
                let k = made.len();
                let var = format!("__new{k}");
                let ty = hip.params.get(j)?.ty.clone();
                if !matches!(
                    ty,
                    ArgType::Any | ArgType::Ptr | ArgType::PtrMut | ArgType::PtrWritten
                ) {
                    return None;
                }
                let hip_class = import(imported, false, &hip_module, record);
                // CUDA's class where it is HIP's as cuda-python presents it: the call fills
                // the object returned. A reshaped record is made as HIP's, then presented.
                let cuda = made_record(entry, k)
                    .filter(|r| !reshaped(&api.types, r))
                    .filter(|r| presents(set_module, lib, r, record));
                made.push(match cuda {
                    Some(r) => MadeStruct {
                        var: var.clone(),
                        class: import(imported, false, &cuda_module, r),
                        hip_class: Some(hip_class),
                    },
                    None => MadeStruct {
                        var: var.clone(),
                        class: hip_class,
                        hip_class: None,
                    },
                });
                made_values.push((j, AdapterValue::New { var, ty }));
            }
            AdapterArg::Value => {
                let var = format!("__v{}", cells.len());
                let ty = hip.params.get(j)?.ty.clone();
                if !matches!(ty, ArgType::Ptr | ArgType::PtrMut | ArgType::PtrWritten) {
                    return None;
                }
                cells.push(var.clone());
                value_vars.push(var.clone());
                made_values.push((j, AdapterValue::Cell { var, ty }));
            }
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
        let (ty, optional, value) = if let Some(record) = &p.record {
            // CUDA's layout of a struct HIP shapes otherwise: HIP's struct, field by field.
            if !matches!(
                ty,
                ArgType::Any | ArgType::Ptr | ArgType::PtrMut | ArgType::PtrWritten
            ) {
                return None;
            }
            let hip_record = hip_record_of(set_module, &api.types, record)?;
            let var = format!("__h{}", converted.len());
            converted.push(ToHip {
                var: var.clone(),
                arg: name.clone(),
                to_hip: import(imported, false, "cuda._structs", "to_hip"),
                class: import(imported, false, &hip_module, hip_record),
            });
            let value = AdapterValue::New {
                var,
                ty: ty.clone(),
            };
            (ArgType::Any, false, value)
        } else if p.location {
            // cuda-python's location struct (or CUDA 12's device) where HIP takes a device.
            let ArgType::CInt {
                size: 4,
                signed: true,
                ..
            } = ty
            else {
                return None;
            };
            let l = api.location_types.get(&entry.module)?;
            let value = AdapterValue::Location {
                name: name.clone(),
                py_name: python_name(&p.name),
                cuda: import(imported, false, &cuda_module, &l.struct_name),
                hip: import(imported, false, &hip_module, &l.hip),
                kinds: import(imported, false, &cuda_module, &l.kind),
                device: l.device.clone(),
                host: l.host.clone(),
            };
            (ArgType::Any, false, value)
        } else if p.attribute_value {
            if !matches!(ty, ArgType::Ptr | ArgType::PtrMut | ArgType::PtrWritten) {
                return None;
            }
            let cell = format!("__v{}", cells.len());
            cells.push(cell.clone());
            let value = AdapterValue::ValueOrPointer {
                name: name.clone(),
                cell,
                ty: ty.clone(),
            };
            (ArgType::Any, false, value)
        } else if p.kernel_params {
            if !matches!(ty, ArgType::Ptr | ArgType::PtrMut | ArgType::PtrWritten) {
                return None;
            }
            let value = AdapterValue::KernelParams { name: name.clone() };
            (ArgType::Any, false, value)
        } else if p.integer && matches!(ty, ArgType::CInt { .. }) {
            let value = AdapterValue::IntOrZero { name: name.clone() };
            (ty.clone(), true, value)
        } else if p.integer && *ty == ArgType::Any {
            zero = true;
            let value = AdapterValue::AnyOrZero { name: name.clone() };
            (ArgType::Any, true, value)
        } else if p.integer && matches!(ty, ArgType::Ptr | ArgType::PtrMut | ArgType::PtrWritten) {
            let value = AdapterValue::Address {
                name: name.clone(),
                py_name: python_name(&p.name),
                ty: ty.clone(),
            };
            (ArgType::Any, false, value)
        } else if p.integer {
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
    for (j, v) in made_values {
        values[j] = Some(v);
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
        let (index, wrap, address, handle, record) = match r {
            AdapterResult::Hip {
                index,
                wrap,
                address,
                handle,
                record,
            } => (index, wrap, address, handle, record),
            AdapterResult::Made { index, record } => {
                let var = made.get(*index)?.var.clone();
                results.push(match record {
                    Some(r) if reshaped(&api.types, r) => AdapterOutput::Present {
                        present: import(imported, false, "cuda._structs", "present"),
                        class: import(imported, false, &cuda_module, r),
                        var: Some(var),
                        output: None,
                    },
                    _ => AdapterOutput::Made { var },
                });
                continue;
            }
            AdapterResult::Value { index, attribute } => {
                let var = value_vars.get(*index)?.clone();
                // Up to 64 bits, zero-extended, as CUDA's `cuuint64_t`; the attributes the
                // spec types otherwise (`attribute_types`), as their C type.
                let class = import(imported, true, "cuda.bindings.driver", "cuuint64_t");
                let (attribute, typed) = match attribute {
                    Some((k, enum_name)) => {
                        let j = *feeds.get(k)?;
                        let arg = &hip.params.get(j)?.name;
                        let c = hip.prep.iter().find_map(|p| match p {
                            Prep::Let { c, value } if value.arg() == arg => Some(c.clone()),
                            _ => None,
                        })?;
                        let mut typed = Vec::new();
                        for (member, code) in api.attribute_types.get(enum_name)? {
                            typed.push((*member_values.get(member.as_str())?, code.clone()));
                        }
                        (Some(c), typed)
                    }
                    None => (None, Vec::new()),
                };
                results.push(AdapterOutput::Cell {
                    var,
                    class,
                    attribute,
                    typed,
                });
                continue;
            }
        };
        let output = hip.results.get(index + 1)?.clone();
        if let Some(r) = record {
            // HIP's struct, as cuda-python's class presents it.
            results.push(AdapterOutput::Present {
                present: import(imported, false, "cuda._structs", "present"),
                class: import(imported, false, &cuda_module, r),
                var: None,
                output: Some(output),
            });
            continue;
        }
        let raw = hip.raw_outs.get(index + 1)?.clone();
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
        made,
        cells,
        converted,
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

/// What an adapter needs of its HIP module beyond the function's model.
struct HipModule<'a> {
    /// The module's CUDA names.
    aliases: Option<&'a AliasModule>,
    /// Its IR.
    lib: &'a Library,
    /// The value of each CUDA enum member (`member_values`).
    member_values: &'a HashMap<&'a str, i64>,
}

/// Whether cuda-python's class of CUDA record `cuda` is HIP record `hip` as cuda-python
/// presents it: HIPIFY names `cuda` as a HIP record that is `hip` (by any of its names).
fn presents(aliases: Option<&AliasModule>, lib: &Library, cuda: &str, hip: &str) -> bool {
    let find = |n: &str| {
        lib.records
            .iter()
            .position(|r| r.name == n || r.aliases.iter().any(|a| a == n))
    };
    let Some(alias) = aliases.and_then(|m| {
        m.names
            .iter()
            .find(|a| a.cuda == cuda && a.kind == AliasKind::Record)
    }) else {
        return false;
    };
    find(&alias.hip).is_some() && find(&alias.hip) == find(hip)
}

/// HIP's name of CUDA record `cuda` in HIPIFY's table: by that name, else by another name of
/// the same record (a typedef HIPIFY does not list, `CUkernelNodeAttrValue`).
fn hip_record_of<'a>(
    aliases: Option<&'a AliasModule>,
    types: &CudaTypes,
    cuda: &str,
) -> Option<&'a str> {
    let find = |n: &str| {
        aliases?
            .names
            .iter()
            .find(|a| a.cuda == n && a.kind == AliasKind::Record)
            .map(|a| a.hip.as_str())
    };
    if let Some(h) = find(cuda) {
        return Some(h);
    }
    let r = types.records.iter().find(|r| {
        r.name == cuda || r.tag.as_deref() == Some(cuda) || r.aliases.iter().any(|a| a == cuda)
    })?;
    std::iter::once(r.name.as_str())
        .chain(r.tag.as_deref())
        .chain(r.aliases.iter().map(String::as_str))
        .find_map(find)
}

/// CUDA's name of the struct the `k`-th `AdapterArg::New` of `entry` returns, if it names one.
fn made_record(entry: &crate::ir::Adapter, k: usize) -> Option<&str> {
    entry.results.iter().find_map(|r| match r {
        AdapterResult::Made { index, record } if *index == k => record.as_deref(),
        _ => None,
    })
}

/// Whether CUDA record `name` (any of its names) is one the cuda package gives CUDA's
/// layout (`CudaTypes::reshaped`).
fn reshaped(types: &CudaTypes, name: &str) -> bool {
    let primary = types
        .records
        .iter()
        .find(|r| {
            r.name == name || r.tag.as_deref() == Some(name) || r.aliases.iter().any(|a| a == name)
        })
        .map_or(name, |r| r.name.as_str());
    types.reshaped.contains_key(primary)
}

/// The value HIP gives each CUDA enum member of HIP module `lib` (by CUDA's member name).
fn member_values<'a>(set: &'a AliasSet, module: &str, lib: &'a Library) -> HashMap<&'a str, i64> {
    let mut out = HashMap::new();
    for m in set.modules.iter().filter(|m| m.module == module) {
        for e in &m.members {
            let Some(hip_enum) = lib
                .enums
                .iter()
                .find(|x| x.name == e.hip_enum || x.aliases.contains(&e.hip_enum))
            else {
                continue;
            };
            for (cuda, hip) in &e.members {
                if let Some((_, v)) = hip_enum.members.iter().find(|(n, _)| n == hip) {
                    out.insert(cuda.as_str(), *v);
                }
            }
        }
    }
    out
}
