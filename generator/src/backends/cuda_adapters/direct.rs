//! Native direct adapters: CUDA functions whose cuda-python convention passes lists, counts in
//! and out, or attribute values in memory of the call's own (`cudaGraphGetNodes(graph,
//! numNodes)`, `cuModuleLoadDataEx(image, n, options, values)`), compiled from the plan's
//! `DirectCall`: each C argument made from the inputs, the symbol called with the GIL
//! released, the outputs read back as cuda-python returns them.

use super::imports::{import, ImportRef, Imports};
use crate::ir::{Adapter, ApiConventions, DirectArg};
use crate::model::items::{FfiType, Output};
use crate::model::names::{python_name, rust_name};
use crate::model::FunctionModel;
use serde::Serialize;
use std::collections::HashMap;

/// One direct adapter as the template sees it.
#[derive(Serialize)]
pub(super) struct DirectModel {
    cuda: String,
    version: String,
    doc: Vec<String>,
    /// cuda-python's parameters (Rust name, Python name, whether it defaults to 0).
    params: Vec<(String, String, bool)>,
    /// Whether any parameter has a default.
    any_default: bool,
    /// CUDA-only inputs, which must be null.
    dropped: Vec<String>,
    not_supported: Option<(ImportRef, String)>,
    symbol: String,
    ffi_ret: FfiType,
    status: Output,
    keep_gil: bool,
    /// One per C argument, in order.
    args: Vec<CArg>,
    /// cuda-python's outputs after the status.
    results: Vec<COut>,
}

/// How one C argument is made; `ty` is its Rust type, `param` the cuda-python parameter.
#[derive(Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum CArg {
    Int {
        param: String,
        ty: String,
    },
    Float {
        param: String,
        ty: String,
    },
    Bool {
        param: String,
    },
    Ptr {
        param: String,
    },
    Zero {
        ty: String,
    },
    /// A value the call writes (from `init` where it goes in too; a pointer if `init_ptr`).
    Out {
        ty: String,
        init: Option<String>,
        init_ptr: bool,
    },
    IntList {
        param: String,
        ty: String,
    },
    PtrList {
        param: String,
    },
    /// As many elements as `count` says, the call fills.
    OutArray {
        count: String,
        ty: String,
    },
    /// One slot per attribute of `attributes`, of the size `sizes` gives (else 8 bytes).
    Values {
        attributes: String,
        sizes: Option<String>,
    },
    /// A slot of the size `size` gives.
    Sized {
        size: String,
    },
}

/// One output: the C argument `arg` holds it; `list` where that is an array.
#[derive(Serialize)]
struct COut {
    arg: usize,
    list: bool,
    convert: Convert,
}

/// How an output value becomes Python's.
#[derive(Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum Convert {
    Int,
    /// A member of the enum class, else the integer.
    Enum {
        class: ImportRef,
    },
    /// An instance of a handle class made from the address.
    Handle {
        class: ImportRef,
    },
    /// An instance of a CUDA integer class.
    Wrap {
        class: ImportRef,
    },
    /// As many new structs as the in/out count at `arg` says.
    Zeroed {
        class: ImportRef,
    },
    /// 32-bit integers of the slot (`Sized`, `Values` with sizes).
    Int32s,
    /// Each attribute's value: as the C type `typed` gives for its value, else 64 bits.
    Typed {
        class: ImportRef,
        typed: Vec<(i64, String)>,
    },
}

/// The Rust type of a C scalar type code of the plan.
fn rust_ty(code: &str) -> String {
    match code {
        "ptr" => "usize".to_string(),
        other => other.to_string(),
    }
}

/// The direct adapter of `entry`, or None where the plan has a shape this does not compile.
pub(super) fn direct_adapter(
    api: &ApiConventions,
    entry: &Adapter,
    hip: &FunctionModel,
    member_values: &HashMap<&str, i64>,
    imported: &mut Imports,
) -> Option<DirectModel> {
    let call = entry.direct.as_ref()?;
    if !hip.results.first()?.is_returned_enum() {
        return None;
    }
    let names: Vec<String> = entry.params.iter().map(|p| rust_name(&p.name)).collect();
    // cuda-python gives the count of an array query a default of 0 (asks for the count).
    let last = names.len().checked_sub(1);
    let defaults: Vec<usize> = call
        .args
        .iter()
        .filter_map(|a| match a {
            DirectArg::OutArray { count, .. } if Some(*count) == last => Some(*count),
            _ => None,
        })
        .collect();
    let args = call
        .args
        .iter()
        .map(|a| c_arg(a, &names))
        .collect::<Option<Vec<_>>>()?;
    let mut cx = DirectOutputs {
        api,
        call,
        member_values,
        imported,
        cuda_module: format!("cuda.bindings.{}", entry.module),
        hip_module: format!("hip.{}", entry.hip_module),
    };
    let mut results = Vec::new();
    for r in &call.results {
        results.push(cx.output(r, &args)?);
    }
    let dropped = entry
        .dropped
        .iter()
        .map(|&k| names.get(k).cloned())
        .collect::<Option<Vec<_>>>()?;
    let not_supported = if dropped.is_empty() {
        None
    } else {
        let status = import(cx.imported, false, &cx.cuda_module, &entry.status_type);
        Some((status, api.not_supported.get(&entry.status_type)?.clone()))
    };
    Some(DirectModel {
        cuda: entry.cuda.clone(),
        version: api.version.clone(),
        doc: vec![format!(
            "CUDA's {} on HIP's {} (its C function called with arguments made here), with \
             cuda-python's calling convention (cuda-bindings {}).",
            entry.cuda, entry.hip, api.version
        )],
        params: python_params(entry, &names, &defaults),
        any_default: !defaults.is_empty(),
        dropped,
        not_supported,
        symbol: hip.symbol.clone(),
        ffi_ret: hip.ffi_ret.clone(),
        status: hip.results[0].clone(),
        keep_gil: hip.keep_gil,
        args,
        results,
    })
}

/// cuda-python's parameters of `entry`: Rust name, Python name, and whether it defaults to 0
/// (its index in `defaults`).
fn python_params(
    entry: &Adapter,
    names: &[String],
    defaults: &[usize],
) -> Vec<(String, String, bool)> {
    entry
        .params
        .iter()
        .enumerate()
        .map(|(i, p)| {
            (
                names[i].clone(),
                python_name(&p.name),
                defaults.contains(&i),
            )
        })
        .collect()
}

/// How C argument `a` is made from cuda-python's parameters (Rust names `names`); None for
/// a shape this does not compile.
fn c_arg(a: &DirectArg, names: &[String]) -> Option<CArg> {
    let param = |i: usize| names.get(i).cloned();
    Some(match a {
        DirectArg::Input { index, ctype } => input_arg(param(*index)?, ctype),
        DirectArg::Zero { ctype } => CArg::Zero { ty: rust_ty(ctype) },
        DirectArg::Out { ctype } => CArg::Out {
            ty: rust_ty(ctype),
            init: None,
            init_ptr: false,
        },
        DirectArg::InOut { index, ctype } => inout_arg(param(*index)?, ctype)?,
        DirectArg::List { index, ctype } => list_arg(param(*index)?, ctype)?,
        DirectArg::OutArray { count, ctype } => CArg::OutArray {
            count: param(*count)?,
            ty: rust_ty(ctype),
        },
        DirectArg::Values {
            attributes, sizes, ..
        } => CArg::Values {
            attributes: param(*attributes)?,
            sizes: match sizes {
                Some(s) => Some(param(*s)?),
                None => None,
            },
        },
        DirectArg::Sized { size } => CArg::Sized {
            size: param(*size)?,
        },
    })
}

/// An input passed by value, by its C scalar type code.
fn input_arg(param: String, ctype: &str) -> CArg {
    match ctype {
        "ptr" => CArg::Ptr { param },
        "bool" => CArg::Bool { param },
        "f32" | "f64" => CArg::Float {
            param,
            ty: rust_ty(ctype),
        },
        _ => CArg::Int {
            param,
            ty: rust_ty(ctype),
        },
    }
}

/// An integer or pointer the call reads and writes; None for another type.
fn inout_arg(param: String, ctype: &str) -> Option<CArg> {
    if matches!(ctype, "f32" | "f64" | "bool") {
        return None;
    }
    Some(CArg::Out {
        ty: rust_ty(ctype),
        init: Some(param),
        init_ptr: ctype == "ptr",
    })
}

/// A list of integers or pointers; None for another element type.
fn list_arg(param: String, ctype: &str) -> Option<CArg> {
    Some(match ctype {
        "ptr" => CArg::PtrList { param },
        "f32" | "f64" | "bool" => return None,
        _ => CArg::IntList {
            param,
            ty: rust_ty(ctype),
        },
    })
}

/// What a direct adapter's outputs read: the plan, the attribute values, and the imports.
struct DirectOutputs<'a, 'i> {
    api: &'a ApiConventions,
    call: &'a crate::ir::DirectCall,
    member_values: &'a HashMap<&'a str, i64>,
    imported: &'i mut Imports,
    /// `cuda.bindings.<module>`.
    cuda_module: String,
    /// `hip.<module>`.
    hip_module: String,
}

impl DirectOutputs<'_, '_> {
    /// Output `r` of the C arguments `args` as cuda-python returns it; None for a shape this
    /// does not compile.
    fn output(&mut self, r: &crate::ir::DirectResult, args: &[CArg]) -> Option<COut> {
        let arg = args.get(r.arg)?;
        let list = matches!(arg, CArg::OutArray { .. } | CArg::Values { .. });
        let (kind, name) = r.kind.split_once(':').unwrap_or((r.kind.as_str(), ""));
        let out = matches!(arg, CArg::Out { .. } | CArg::OutArray { .. });
        let convert = match (kind, arg) {
            ("value", CArg::Sized { .. }) => Convert::Int32s,
            ("value", CArg::Values { sizes: Some(_), .. }) => Convert::Int32s,
            ("value", CArg::Values { sizes: None, .. }) => self.typed(r.arg)?,
            ("int", _) if out => Convert::Int,
            ("enum", _) if out => Convert::Enum {
                class: import(self.imported, false, &self.cuda_module, name),
            },
            ("handle", _) if out => Convert::Handle {
                class: import(self.imported, false, &self.cuda_module, name),
            },
            ("hip_handle", _) if out => Convert::Handle {
                class: import(self.imported, false, &self.hip_module, name),
            },
            ("wrap", _) if out => self.wrap(name),
            ("zeroed", CArg::Out { .. }) => Convert::Zeroed {
                class: import(self.imported, false, &self.cuda_module, name),
            },
            _ => return None,
        };
        Some(COut {
            arg: r.arg,
            list: list || matches!(convert, Convert::Zeroed { .. }),
            convert,
        })
    }

    /// The values of the attributes of C argument `arg`: typed as the spec's
    /// `attribute_types` says for their enum, else 64 bits.
    fn typed(&mut self, arg: usize) -> Option<Convert> {
        let DirectArg::Values { attribute_type, .. } = &self.call.args[arg] else {
            return None;
        };
        let mut typed = Vec::new();
        if let Some(e) = attribute_type {
            for (member, code) in self.api.attribute_types.get(e).into_iter().flatten() {
                typed.push((*self.member_values.get(member.as_str())?, code.clone()));
            }
        }
        Some(Convert::Typed {
            class: import(self.imported, true, "cuda.bindings.driver", "cuuint64_t"),
            typed,
        })
    }

    /// An instance of CUDA integer class `name`, of the module cuda-python defines it in.
    fn wrap(&mut self, name: &str) -> Convert {
        let module = if name.starts_with("cuda") {
            "runtime"
        } else {
            "driver"
        };
        Convert::Wrap {
            class: import(
                self.imported,
                true,
                &format!("cuda.bindings.{module}"),
                name,
            ),
        }
    }
}
