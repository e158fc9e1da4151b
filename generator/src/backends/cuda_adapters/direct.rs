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
    let cuda_module = format!("cuda.bindings.{}", entry.module);
    let hip_module = format!("hip.{}", entry.hip_module);
    let names: Vec<String> = entry.params.iter().map(|p| rust_name(&p.name)).collect();
    let param = |i: usize| names.get(i).cloned();
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
    let mut args = Vec::new();
    for a in &call.args {
        args.push(match a {
            DirectArg::Input { index, ctype } => match ctype.as_str() {
                "ptr" => CArg::Ptr {
                    param: param(*index)?,
                },
                "bool" => CArg::Bool {
                    param: param(*index)?,
                },
                "f32" | "f64" => CArg::Float {
                    param: param(*index)?,
                    ty: rust_ty(ctype),
                },
                _ => CArg::Int {
                    param: param(*index)?,
                    ty: rust_ty(ctype),
                },
            },
            DirectArg::Zero { ctype } => CArg::Zero { ty: rust_ty(ctype) },
            DirectArg::Out { ctype } => CArg::Out {
                ty: rust_ty(ctype),
                init: None,
                init_ptr: false,
            },
            DirectArg::InOut { index, ctype } => {
                if matches!(ctype.as_str(), "f32" | "f64" | "bool") {
                    return None;
                }
                CArg::Out {
                    ty: rust_ty(ctype),
                    init: Some(param(*index)?),
                    init_ptr: ctype == "ptr",
                }
            }
            DirectArg::List { index, ctype } => match ctype.as_str() {
                "ptr" => CArg::PtrList {
                    param: param(*index)?,
                },
                "f32" | "f64" | "bool" => return None,
                _ => CArg::IntList {
                    param: param(*index)?,
                    ty: rust_ty(ctype),
                },
            },
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
        });
    }
    let mut results = Vec::new();
    for r in &call.results {
        let arg = args.get(r.arg)?;
        let list = matches!(arg, CArg::OutArray { .. } | CArg::Values { .. });
        let (kind, name) = r.kind.split_once(':').unwrap_or((r.kind.as_str(), ""));
        let convert = match (kind, arg) {
            ("value", CArg::Sized { .. }) => Convert::Int32s,
            ("value", CArg::Values { sizes: Some(_), .. }) => Convert::Int32s,
            ("value", CArg::Values { sizes: None, .. }) => {
                let DirectArg::Values { attribute_type, .. } = &call.args[r.arg] else {
                    return None;
                };
                let mut typed = Vec::new();
                if let Some(e) = attribute_type {
                    for (member, code) in api.attribute_types.get(e).into_iter().flatten() {
                        typed.push((*member_values.get(member.as_str())?, code.clone()));
                    }
                }
                Convert::Typed {
                    class: import(imported, true, "cuda.bindings.driver", "cuuint64_t"),
                    typed,
                }
            }
            ("int", CArg::Out { .. } | CArg::OutArray { .. }) => Convert::Int,
            ("enum", CArg::Out { .. } | CArg::OutArray { .. }) => Convert::Enum {
                class: import(imported, false, &cuda_module, name),
            },
            ("handle", CArg::Out { .. } | CArg::OutArray { .. }) => Convert::Handle {
                class: import(imported, false, &cuda_module, name),
            },
            ("hip_handle", CArg::Out { .. } | CArg::OutArray { .. }) => Convert::Handle {
                class: import(imported, false, &hip_module, name),
            },
            ("wrap", CArg::Out { .. } | CArg::OutArray { .. }) => {
                let module = if name.starts_with("cuda") {
                    "runtime"
                } else {
                    "driver"
                };
                Convert::Wrap {
                    class: import(imported, true, &format!("cuda.bindings.{module}"), name),
                }
            }
            ("zeroed", CArg::Out { .. }) => Convert::Zeroed {
                class: import(imported, false, &cuda_module, name),
            },
            _ => return None,
        };
        results.push(COut {
            arg: r.arg,
            list: list || matches!(convert, Convert::Zeroed { .. }),
            convert,
        });
    }
    let mut dropped = Vec::new();
    for &k in &entry.dropped {
        dropped.push(param(k)?);
    }
    let not_supported = if dropped.is_empty() {
        None
    } else {
        let status = import(imported, false, &cuda_module, &entry.status_type);
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
        params: entry
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
            .collect(),
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
