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
    libraries: &mut Libraries<'_>,
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
        modules.push(module_adapters(set, libraries, hip_module, &mut counts)?);
    }
    let env = crate::backends::templates::environment(templates);
    let file = AdaptersFile {
        command: command.to_string(),
        modules,
        apis: &set.apis,
        tables: record_tables(set)?,
    };
    let code = env
        .get_template("cuda_adapters.rs.j2")?
        .render(minijinja::context! { f => file })?;
    Ok((code, Report { counts }))
}

/// Each API version's CUDA records as a runtime type table.
fn record_tables(set: &AliasSet) -> Result<Vec<RecordTable>> {
    set.apis
        .iter()
        .map(|api| {
            Ok(RecordTable {
                version: api.version.clone(),
                types: crate::cuda::records::table(&api.types)?,
            })
        })
        .collect()
}

/// The native adapters (and direct ones) of HIP module `hip_module`, each counted for its API
/// version in `counts`.
fn module_adapters(
    set: &AliasSet,
    libraries: &mut Libraries<'_>,
    hip_module: &str,
    counts: &mut BTreeMap<String, (usize, usize)>,
) -> Result<ModuleAdapters> {
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
    Ok(ModuleAdapters {
        name: hip_module.to_string(),
        imports: imported
            .into_iter()
            .map(|((module, attr), r)| ImportModel { r, module, attr })
            .collect(),
        adapters,
        direct,
    })
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

/// Whether `entry`'s shape can have a native adapter: not a direct call, a HIP function that
/// returns its status, one CUDA argument per HIP parameter, the struct of each location known.
fn native_shape(api: &ApiConventions, entry: &crate::ir::Adapter, hip: &FunctionModel) -> bool {
    entry.direct.is_none()
        && !hip.plain
        && hip.results.first().is_some_and(|r| r.is_returned_enum())
        && entry.args.len() == hip.params.len()
        && !entry
            .params
            .iter()
            .any(|p| p.location && !api.location_types.contains_key(&entry.module))
}

/// Whether a HIP parameter of type `ty` is a pointer.
fn is_pointer(ty: &ArgType) -> bool {
    matches!(ty, ArgType::Ptr | ArgType::PtrMut | ArgType::PtrWritten)
}

/// Whether a HIP parameter of type `ty` is a pointer or takes any object.
fn is_pointer_or_any(ty: &ArgType) -> bool {
    *ty == ArgType::Any || is_pointer(ty)
}

/// The native adapter of `entry`, or None where its shape needs the Python adapter.
fn adapter(
    api: &ApiConventions,
    entry: &crate::ir::Adapter,
    hip: &FunctionModel,
    hip_in: &HipModule<'_>,
    imported: &mut Imports,
) -> Option<AdapterModel> {
    if !native_shape(api, entry, hip) {
        return None;
    }
    let mut b = AdapterBuilder::new(api, entry, hip, hip_in, imported);
    b.args()?;
    b.params()?;
    b.zeros()?;
    let bind = b.bind()?;
    b.outputs()?;
    let not_supported = b.not_supported()?;
    Some(b.finish(bind, not_supported))
}

/// A native adapter as it is built: its entry and HIP function, and what is made so far.
struct AdapterBuilder<'a, 'i> {
    api: &'a ApiConventions,
    entry: &'a crate::ir::Adapter,
    hip: &'a FunctionModel,
    hip_in: &'a HipModule<'a>,
    imported: &'i mut Imports,
    /// `cuda.bindings.<module>`.
    cuda_module: String,
    /// `hip.<module>`.
    hip_module: String,
    /// Each CUDA input feeds one HIP parameter: CUDA position -> HIP position.
    feeds: HashMap<usize, usize>,
    made: Vec<MadeStruct>,
    cells: Vec<String>,
    converted: Vec<ToHip>,
    /// The cells of `AdapterArg::Value`s, in order.
    value_vars: Vec<String>,
    /// The values of the HIP parameters the adapter makes, by HIP position.
    made_values: Vec<(usize, AdapterValue)>,
    zero: bool,
    params: Vec<Param>,
    dropped: Vec<String>,
    /// The value of each HIP parameter, by HIP position.
    values: Vec<Option<AdapterValue>>,
    results: Vec<AdapterOutput>,
}

impl<'a, 'i> AdapterBuilder<'a, 'i> {
    /// An adapter of `entry` over `hip` with nothing made yet.
    fn new(
        api: &'a ApiConventions,
        entry: &'a crate::ir::Adapter,
        hip: &'a FunctionModel,
        hip_in: &'a HipModule<'a>,
        imported: &'i mut Imports,
    ) -> Self {
        AdapterBuilder {
            api,
            entry,
            hip,
            hip_in,
            imported,
            cuda_module: format!("cuda.bindings.{}", entry.module),
            hip_module: format!("hip.{}", entry.hip_module),
            feeds: HashMap::new(),
            made: Vec::new(),
            cells: Vec::new(),
            converted: Vec::new(),
            value_vars: Vec::new(),
            made_values: Vec::new(),
            zero: false,
            params: Vec::new(),
            dropped: Vec::new(),
            values: hip.params.iter().map(|_| None).collect(),
            results: Vec::new(),
        }
    }

    /// Walks CUDA's arguments: each input feeds one HIP parameter (or is dropped: must be
    /// null); structs and cells are made for the others.
    fn args(&mut self) -> Option<()> {
        for (j, a) in self.entry.args.iter().enumerate() {
            match a {
                AdapterArg::Input { index } => {
                    if self.feeds.insert(*index, j).is_some() {
                        return None;
                    }
                }
                AdapterArg::Zero => {}
                AdapterArg::New { record } => self.new_struct(j, record)?,
                AdapterArg::Value => self.value_cell(j)?,
            }
        }
        Some(())
    }

    /// A struct of HIP's `record` made for HIP parameter `j` to fill.
    fn new_struct(&mut self, j: usize, record: &str) -> Option<()> {
        let k = self.made.len();
        let var = format!("__new{k}");
        let ty = self.hip.params.get(j)?.ty.clone();
        if !is_pointer_or_any(&ty) {
            return None;
        }
        let hip_class = import(self.imported, false, &self.hip_module, record);
        // CUDA's class where it is HIP's as cuda-python presents it: the call fills
        // the object returned. A reshaped record is made as HIP's, then presented.
        let (set_module, lib) = (self.hip_in.aliases, self.hip_in.lib);
        let cuda = made_record(self.entry, k)
            .filter(|r| !reshaped(&self.api.types, r))
            .filter(|r| presents(set_module, lib, r, record));
        self.made.push(match cuda {
            Some(r) => MadeStruct {
                var: var.clone(),
                class: import(self.imported, false, &self.cuda_module, r),
                hip_class: Some(hip_class),
            },
            None => MadeStruct {
                var: var.clone(),
                class: hip_class,
                hip_class: None,
            },
        });
        self.made_values.push((j, AdapterValue::New { var, ty }));
        Some(())
    }

    /// A cell for HIP pointer parameter `j` to write a value into.
    fn value_cell(&mut self, j: usize) -> Option<()> {
        let var = format!("__v{}", self.cells.len());
        let ty = self.hip.params.get(j)?.ty.clone();
        if !is_pointer(&ty) {
            return None;
        }
        self.cells.push(var.clone());
        self.value_vars.push(var.clone());
        self.made_values.push((j, AdapterValue::Cell { var, ty }));
        Some(())
    }

    /// Walks CUDA's parameters: each is dropped (must be null) or binds the HIP parameter
    /// it feeds.
    fn params(&mut self) -> Option<()> {
        for (i, p) in self.entry.params.iter().enumerate() {
            let name = rust_name(&p.name);
            let Some(&j) = self.feeds.get(&i) else {
                if !self.entry.dropped.contains(&i) {
                    return None;
                }
                self.params.push(Param {
                    py_name: python_name(&p.name),
                    name: name.clone(),
                    ty: ArgType::Any,
                    optional: false,
                });
                self.dropped.push(name);
                continue;
            };
            let (ty, optional, value) = self.param_value(p, &name, &self.hip.params[j].ty)?;
            self.params.push(Param {
                py_name: python_name(&p.name),
                name,
                ty,
                optional,
            });
            self.values[j] = Some(value);
        }
        Some(())
    }

    /// CUDA parameter `p` (Rust name `name`) for a HIP parameter of type `ty`: the type and
    /// optionality cuda-python's parameter takes, and the HIP parameter's value.
    fn param_value(
        &mut self,
        p: &crate::ir::CudaParam,
        name: &str,
        ty: &ArgType,
    ) -> Option<(ArgType, bool, AdapterValue)> {
        let name = name.to_string();
        Some(if let Some(record) = &p.record {
            (ArgType::Any, false, self.record_value(name, record, ty)?)
        } else if p.location {
            (ArgType::Any, false, self.location_value(name, p, ty)?)
        } else if p.attribute_value {
            if !is_pointer(ty) {
                return None;
            }
            let cell = format!("__v{}", self.cells.len());
            self.cells.push(cell.clone());
            let value = AdapterValue::ValueOrPointer {
                name,
                cell,
                ty: ty.clone(),
            };
            (ArgType::Any, false, value)
        } else if p.kernel_params {
            if !is_pointer(ty) {
                return None;
            }
            (ArgType::Any, false, AdapterValue::KernelParams { name })
        } else if p.integer {
            self.integer_value(name, p, ty)?
        } else {
            (ty.clone(), false, AdapterValue::Arg { name })
        })
    }

    /// CUDA's layout of a struct HIP shapes otherwise: HIP's struct, field by field.
    fn record_value(&mut self, name: String, record: &str, ty: &ArgType) -> Option<AdapterValue> {
        if !is_pointer_or_any(ty) {
            return None;
        }
        let hip_record = hip_record_of(self.hip_in.aliases, &self.api.types, record)?;
        let var = format!("__h{}", self.converted.len());
        self.converted.push(ToHip {
            var: var.clone(),
            arg: name,
            to_hip: import(self.imported, false, "cuda._structs", "to_hip"),
            class: import(self.imported, false, &self.hip_module, hip_record),
        });
        Some(AdapterValue::New {
            var,
            ty: ty.clone(),
        })
    }

    /// cuda-python's location struct (or CUDA 12's device) where HIP takes a device.
    fn location_value(
        &mut self,
        name: String,
        p: &crate::ir::CudaParam,
        ty: &ArgType,
    ) -> Option<AdapterValue> {
        let ArgType::CInt {
            size: 4,
            signed: true,
            ..
        } = ty
        else {
            return None;
        };
        let l = self.api.location_types.get(&self.entry.module)?;
        Some(AdapterValue::Location {
            name,
            py_name: python_name(&p.name),
            cuda: import(self.imported, false, &self.cuda_module, &l.struct_name),
            hip: import(self.imported, false, &self.hip_module, &l.hip),
            kinds: import(self.imported, false, &self.cuda_module, &l.kind),
            device: l.device.clone(),
            host: l.host.clone(),
        })
    }

    /// An integer CUDA parameter (None meaning 0, an address for a HIP pointer).
    fn integer_value(
        &mut self,
        name: String,
        p: &crate::ir::CudaParam,
        ty: &ArgType,
    ) -> Option<(ArgType, bool, AdapterValue)> {
        Some(match ty {
            ArgType::CInt { .. } => (ty.clone(), true, AdapterValue::IntOrZero { name }),
            ArgType::Any => {
                self.zero = true;
                (ArgType::Any, true, AdapterValue::AnyOrZero { name })
            }
            _ if is_pointer(ty) => {
                let value = AdapterValue::Address {
                    name,
                    py_name: python_name(&p.name),
                    ty: ty.clone(),
                };
                (ArgType::Any, false, value)
            }
            _ => return None,
        })
    }

    /// Zero for each HIP parameter CUDA's function lacks.
    fn zeros(&mut self) -> Option<()> {
        for (j, a) in self.entry.args.iter().enumerate() {
            if matches!(a, AdapterArg::Zero) {
                let ty = &self.hip.params[j].ty;
                self.zero |= is_pointer_or_any(ty);
                self.values[j] = Some(zero_of(ty)?);
            }
        }
        Some(())
    }

    /// The HIP function's parameters (Rust names), each bound to its value.
    fn bind(&mut self) -> Option<Vec<(String, AdapterValue)>> {
        for (j, v) in std::mem::take(&mut self.made_values) {
            self.values[j] = Some(v);
        }
        let values: Vec<AdapterValue> = std::mem::take(&mut self.values)
            .into_iter()
            .collect::<Option<_>>()?;
        Some(
            self.hip
                .params
                .iter()
                .map(|p| p.name.clone())
                .zip(values)
                .collect(),
        )
    }

    /// Each output as cuda-python gives it.
    fn outputs(&mut self) -> Option<()> {
        for r in &self.entry.results {
            let output = match r {
                AdapterResult::Hip {
                    index,
                    wrap,
                    address,
                    handle,
                    record,
                } => self.hip_output(*index, wrap, *address, handle, record)?,
                AdapterResult::Made { index, record } => self.made_output(*index, record)?,
                AdapterResult::Value { index, attribute } => self.cell_output(*index, attribute)?,
            };
            self.results.push(output);
        }
        Some(())
    }

    /// The `index`-th struct the adapter made, presented in CUDA's layout where the cuda
    /// package reshapes its record.
    fn made_output(&mut self, index: usize, record: &Option<String>) -> Option<AdapterOutput> {
        let var = self.made.get(index)?.var.clone();
        Some(match record {
            Some(r) if reshaped(&self.api.types, r) => AdapterOutput::Present {
                present: import(self.imported, false, "cuda._structs", "present"),
                class: import(self.imported, false, &self.cuda_module, r),
                var: Some(var),
                output: None,
            },
            _ => AdapterOutput::Made { var },
        })
    }

    /// The value the call wrote into the `index`-th cell: up to 64 bits, zero-extended, as
    /// CUDA's `cuuint64_t`; the attributes the spec types otherwise (`attribute_types`), as
    /// their C type.
    fn cell_output(
        &mut self,
        index: usize,
        attribute: &Option<(usize, String)>,
    ) -> Option<AdapterOutput> {
        let var = self.value_vars.get(index)?.clone();
        let class = import(self.imported, true, "cuda.bindings.driver", "cuuint64_t");
        let (attribute, typed) = match attribute {
            Some((k, enum_name)) => {
                let (c, typed) = self.typed_attribute(*k, enum_name)?;
                (Some(c), typed)
            }
            None => (None, Vec::new()),
        };
        Some(AdapterOutput::Cell {
            var,
            class,
            attribute,
            typed,
        })
    }

    /// The C value of the attribute CUDA input `k` gives, and the C type of each value of
    /// enum `enum_name` the spec types.
    fn typed_attribute(&self, k: usize, enum_name: &str) -> Option<(String, Vec<(i64, String)>)> {
        let j = *self.feeds.get(&k)?;
        let arg = &self.hip.params.get(j)?.name;
        let c = self.hip.prep.iter().find_map(|p| match p {
            Prep::Let { c, value } if value.arg() == arg => Some(c.clone()),
            _ => None,
        })?;
        let mut typed = Vec::new();
        for (member, code) in self.api.attribute_types.get(enum_name)? {
            typed.push((
                *self.hip_in.member_values.get(member.as_str())?,
                code.clone(),
            ));
        }
        Some((c, typed))
    }

    /// The HIP function's output at `index`: presented as CUDA's struct `record`, else as
    /// CUDA's integer class `wrap`, handle class `handle` or an address, else as HIP gives it.
    fn hip_output(
        &mut self,
        index: usize,
        wrap: &Option<String>,
        address: bool,
        handle: &Option<String>,
        record: &Option<String>,
    ) -> Option<AdapterOutput> {
        let output = self.hip.results.get(index + 1)?.clone();
        if let Some(r) = record {
            // HIP's struct, as cuda-python's class presents it.
            return Some(AdapterOutput::Present {
                present: import(self.imported, false, "cuda._structs", "present"),
                class: import(self.imported, false, &self.cuda_module, r),
                var: None,
                output: Some(output),
            });
        }
        let raw = self.hip.raw_outs.get(index + 1)?.clone();
        Some(match (wrap, handle, address) {
            (Some(w), _, _) => {
                // The module cuda-python defines the typedef's class in.
                let module = if w.starts_with("cuda") {
                    "runtime"
                } else {
                    "driver"
                };
                let class = import(self.imported, true, &format!("cuda.bindings.{module}"), w);
                AdapterOutput::IntClass { class, var: raw? }
            }
            (None, Some(h), _) => {
                let class = import(self.imported, false, &self.cuda_module, h);
                AdapterOutput::Handle { class, var: raw? }
            }
            (None, None, true) => AdapterOutput::Address { var: raw? },
            (None, None, false) => AdapterOutput::Hip { output },
        })
    }

    /// The status class and its not-supported member where an input is dropped.
    fn not_supported(&mut self) -> Option<Option<(ImportRef, String)>> {
        if self.dropped.is_empty() {
            return Some(None);
        }
        let status = import(
            self.imported,
            false,
            &self.cuda_module,
            &self.entry.status_type,
        );
        let member = self.api.not_supported.get(&self.entry.status_type)?;
        Some(Some((status, member.clone())))
    }

    /// The adapter's model.
    fn finish(
        self,
        bind: Vec<(String, AdapterValue)>,
        not_supported: Option<(ImportRef, String)>,
    ) -> AdapterModel {
        let (api, entry, hip) = (self.api, self.entry, self.hip);
        AdapterModel {
            cuda: entry.cuda.clone(),
            version: api.version.clone(),
            doc: vec![format!(
                "CUDA's {} on HIP's {}, with cuda-python's calling convention (cuda-bindings {}).",
                entry.cuda, entry.hip, api.version
            )],
            params: self.params,
            dropped: self.dropped,
            not_supported,
            zero: self.zero,
            made: self.made,
            cells: self.cells,
            converted: self.converted,
            bind,
            status: hip.results[0].clone(),
            results: self.results,
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
        }
    }
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
