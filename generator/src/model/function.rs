//! The model of one generated function: how each parameter converts, what the C call takes
//! and returns, and how the result is built.

use super::items::{
    ArgType, Conversion, Destroy, FfiBase, FfiType, FunctionModel, InValue, ListLen, MirrorField,
    MirrorModel, MirrorUnion, Output, Param, Prep, SizeNeed, Var,
};
use super::types::size_of;
use super::TypeIndex;
use crate::ir::{CType, Function, Record, Usage};
use crate::model::docstring;
use crate::model::names::rust_name;
use crate::model::python_types;
use anyhow::{bail, Context, Result};
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// Items of the largest result tuple the runtime keeps for reuse (`rt::shared_tuple`; the
/// runtime's `MAX_ITEMS`).
const SHARED_TUPLE_MAX_ITEMS: usize = 4;

/// What one function's rendering needs to know about its library.
pub(crate) struct FnCtx<'a> {
    /// Registry indices.
    pub(crate) types: &'a TypeIndex,
    /// Records by name.
    pub(crate) records: &'a HashMap<&'a str, &'a Record>,
    /// Name of the status enum.
    pub(crate) status: Option<&'a str>,
    /// Registry index of the status enum.
    pub(crate) status_idx: Option<usize>,
    /// Value put first in the result of plain-returning functions.
    pub(crate) success_value: Option<i64>,
    /// Whether it is put first in the result of void functions with outputs too.
    pub(crate) success_for_void_outputs: bool,
    /// Whether a single result is returned as itself (and none as None), not as a tuple.
    pub(crate) plain_results: bool,
    /// Whether integer parameters take floats, truncated (the spec's `floats_as_integers`).
    pub(crate) floats_as_integers: bool,
    /// (function regex, the function freeing strings it returns), in spec order.
    pub(crate) owned_strings: &'a [(regex::Regex, String)],
    /// Functions whose `char *` result is memory, not a string.
    pub(crate) memory_results: &'a [regex::Regex],
    /// The free functions the rendered functions use.
    pub(crate) frees_used: &'a std::cell::RefCell<BTreeSet<String>>,
    /// `void *` typedefs that are opaque handles (the imported libraries' too).
    pub(crate) opaque_pointers: &'a [String],
    /// Whether returned handles live where their handle arguments do (`results_inherit`).
    pub(crate) results_inherit: bool,
    /// The library's functions by name (size queries).
    pub(crate) functions: &'a HashMap<&'a str, &'a Function>,
}

/// A function's outputs as they are collected, each with its raw variable, stub type and
/// docstring line.
#[derive(Default)]
struct Outputs {
    outs: Vec<Output>,
    raw_outs: Vec<Option<Var>>,
    stub_results: Vec<String>,
    returns_doc: Vec<String>,
}

impl Outputs {
    /// Adds one output.
    fn push(&mut self, out: Output, raw: Option<Var>, stub: String, doc: String) {
        self.outs.push(out);
        self.raw_outs.push(raw);
        self.stub_results.push(stub);
        self.returns_doc.push(doc);
    }
}

/// A function's model as it is built, with what its outputs need.
struct FnBuild<'f> {
    f: &'f Function,
    /// The handle argument the returned handles live in (the spec's `results_depend`).
    parent: Option<String>,
    /// Otherwise, the handle arguments passed by value the results live in (`results_inherit`).
    inherit: Vec<String>,
    /// Whether the function returns the status enum.
    is_status: bool,
    m: FunctionModel,
    outs: Outputs,
}

impl FnBuild<'_> {
    /// Whether the parameter at hand is the first of a destroying function: what it destroys.
    fn destroys_here(&self) -> bool {
        self.f.destroys && self.m.call_args.is_empty()
    }

    /// Adds the Python parameter of C parameter `c_name`, Rust name `arg`, of type `ty`.
    fn python_param(&mut self, c_name: &str, arg: String, ty: ArgType) {
        self.m.params.push(Param {
            py_name: crate::model::names::python_name(c_name),
            name: arg,
            ty,
            optional: false,
        });
    }
}

/// The FFI integer type of a size and signedness.
fn int(size: u8, signed: bool) -> FfiType {
    FfiType::scalar(FfiBase::Int { size, signed })
}

impl FnCtx<'_> {
    /// The value a destroy function returns on success, when it returns a status: the spec's
    /// success member, else 0 (what every status enum of ROCm's libraries gives success,
    /// hiprtc's too, whose spec presents its status as a plain result). None for a function
    /// returning no enum: it always destroys.
    fn destroy_success(&self, ret: &CType) -> Option<i64> {
        matches!(ret, CType::Enum { .. }).then_some(self.success_value.unwrap_or(0))
    }

    /// The FFI type of a C type; records by value get a mirror.
    fn ffi_type(&self, ty: &CType, mirrors: &mut BTreeMap<String, MirrorModel>) -> Result<FfiType> {
        Ok(match ty {
            CType::Void => FfiType::scalar(FfiBase::Unit),
            CType::Bool => FfiType::scalar(FfiBase::Bool),
            CType::Int { size, signed, .. } | CType::Enum { size, signed, .. } => {
                int(*size, *signed)
            }
            CType::Float { size } => FfiType::scalar(FfiBase::Float { size: *size }),
            CType::Record { name } => FfiType::scalar(FfiBase::Mirror {
                record: self.mirror(name, mirrors)?,
            }),
            CType::Handle { .. } | CType::Pointer { .. } => FfiType::scalar(FfiBase::Address),
            CType::Array { elem, len } => {
                let mut t = self.ffi_type(elem, mirrors)?;
                t.dims.insert(0, *len);
                t
            }
            CType::Unsupported { spelling } => bail!("unsupported type {spelling}"),
        })
    }

    /// Declares a `#[repr(C)]` mirror of a record passed by value and returns its C name.
    fn mirror(&self, name: &str, mirrors: &mut BTreeMap<String, MirrorModel>) -> Result<String> {
        if mirrors.contains_key(name) {
            return Ok(name.to_string());
        }
        let r = self
            .records
            .get(name)
            .with_context(|| format!("record {name} has no definition"))?;
        if r.is_union || r.fields.iter().any(|f| f.bit_width.is_some()) {
            bail!("record {name} passed by value is a union or has bitfields");
        }
        // Members of an anonymous union are flattened into the record at one offset: they
        // become one `#[repr(C)]` union field, so that the mirror keeps C's layout (and, for
        // the calling convention, C's classes of its bytes).
        let mut fields = Vec::new();
        let mut unions = Vec::new();
        let mut i = 0;
        while i < r.fields.len() {
            let at = r.fields[i].offset_bits;
            let end = r.fields[i..]
                .iter()
                .position(|f| f.offset_bits != at)
                .map_or(r.fields.len(), |n| i + n);
            let mut group = Vec::new();
            for f in &r.fields[i..end] {
                group.push(MirrorField {
                    name: rust_name(&f.name),
                    ty: self.ffi_type(&f.ty, mirrors)?,
                });
            }
            if group.len() == 1 {
                fields.extend(group);
            } else {
                let union_name = format!("U_{name}_{}", unions.len());
                fields.push(MirrorField {
                    name: format!("u{}", unions.len()),
                    ty: FfiType::union_of(&union_name),
                });
                unions.push(MirrorUnion {
                    name: union_name,
                    fields: group,
                });
            }
            i = end;
        }
        mirrors.insert(
            name.to_string(),
            MirrorModel {
                name: name.to_string(),
                fields,
                unions,
                size: r.size,
            },
        );
        Ok(name.to_string())
    }

    /// The render model of a function.
    pub(crate) fn function(
        &self,
        f: &Function,
        mirrors: &mut BTreeMap<String, MirrorModel>,
    ) -> Result<FunctionModel> {
        let m = FunctionModel {
            name: f.name.clone(),
            symbol: f.symbol.clone(),
            doc: Vec::new(),
            params: Vec::new(),
            prep: Vec::new(),
            ffi_params: Vec::new(),
            ffi_ret: self.ffi_type(&f.ret, mirrors)?,
            call_args: Vec::new(),
            keep_gil: f.keep_gil,
            serialize: f.serialize,
            results: Vec::new(),
            plain: false,
            shared: false,
            stub_params: Vec::new(),
            stub_ret: String::new(),
            stub_doc: String::new(),
            raw_outs: Vec::new(),
            destroy: None,
        };
        let mut b = self.build(f, m);
        if b.is_status {
            self.status_output(&mut b)?;
        } else {
            self.value_outputs(&mut b)?;
        }
        for p in &f.params {
            self.param(&mut b, p, mirrors)?;
        }
        self.checks(f, &mut b.m.prep)?;
        Ok(self.finish(b))
    }

    /// A function's model to build from `m`, with where its returned handles live.
    fn build<'f>(&self, f: &'f Function, m: FunctionModel) -> FnBuild<'f> {
        // The handle argument the returned handles live in (the spec's `results_depend`).
        let parent = f
            .params
            .iter()
            .find(|p| p.results_depend)
            .map(|p| rust_name(&p.name));
        // Otherwise, where the spec says results live where their arguments do, the handle
        // arguments passed by value.
        let inherit: Vec<String> = if parent.is_none() && self.results_inherit {
            f.params
                .iter()
                .filter(|p| p.usage == Usage::In && matches!(p.ty, CType::Handle { .. }))
                .map(|p| rust_name(&p.name))
                .collect()
        } else {
            Vec::new()
        };
        FnBuild {
            f,
            parent,
            inherit,
            is_status: matches!(&f.ret, CType::Enum { name, .. } if Some(name.as_str()) == self.status),
            m,
            outs: Outputs::default(),
        }
    }

    /// The status a function returns, as its first output.
    fn status_output(&self, b: &mut FnBuild<'_>) -> Result<()> {
        let ty = self
            .types
            .local_ref(self.status_idx.context("status index")?);
        b.outs.push(
            Output::Status { ty },
            None,
            python_types::result_type(&b.f.ret, false),
            docstring::status_line(self.status.unwrap_or_default()),
        );
        Ok(())
    }

    /// The outputs of a function returning no status: the success member, then its value.
    fn value_outputs(&self, b: &mut FnBuild<'_>) -> Result<()> {
        let f = b.f;
        let status = self.status.unwrap_or_default();
        // The success member goes first where the result is a value (hip-python's
        // `(hipSuccess, text)`) or, if the spec says so, where a void function has outputs
        // (`amd_comgr_get_version` → `(AMD_COMGR_STATUS_SUCCESS, major, minor)`).
        let has_value = f.ret != CType::Void;
        let has_outputs = f
            .params
            .iter()
            .any(|p| matches!(p.usage, Usage::Out | Usage::OutString));
        if has_value || (self.success_for_void_outputs && has_outputs) {
            if let (Some(idx), Some(value)) = (self.status_idx, self.success_value) {
                b.outs.push(
                    Output::Success {
                        ty: self.types.local_ref(idx),
                        value,
                    },
                    None,
                    status.to_string(),
                    docstring::success_line(status),
                );
            }
        }
        if has_value {
            let conversion =
                self.conversion(&f.name, &f.ret, None, b.parent.as_deref(), &b.inherit)?;
            b.outs.push(
                Output::Value {
                    var: Var::Ret,
                    conversion,
                },
                raw_value(&f.ret).then_some(Var::Ret),
                python_types::result_type(&f.ret, false),
                docstring::describe(&f.ret),
            );
        }
        Ok(())
    }

    /// Parameter `p`: its FFI type, its preparation, its Python parameter or output, and its
    /// C argument.
    fn param(
        &self,
        b: &mut FnBuild<'_>,
        p: &crate::ir::Param,
        mirrors: &mut BTreeMap<String, MirrorModel>,
    ) -> Result<()> {
        let f = b.f;
        if p.name == "py" || p.name.starts_with("__") {
            bail!(
                "{}: parameter name {} collides with generated names",
                f.name,
                p.name
            );
        }
        let arg = rust_name(&p.name);
        let c = p.name.clone();
        b.m.ffi_params.push(self.ffi_type(&p.ty, mirrors)?);
        match p.usage {
            Usage::Out => self.out_param(b, p, &c, mirrors)?,
            Usage::OutString => self.out_string_param(b, p, &c)?,
            Usage::In | Usage::Pointer if b.destroys_here() && untyped_handle(&p.ty) => {
                self.destroyed_handle(b, p, arg, &c)?
            }
            Usage::Pointer if self.frees_strings(&f.name) && p.ty.points_at_char() => {
                self.freed_string(b, p, arg, &c)
            }
            Usage::Pointer if self.is_opaque(p) => self.opaque_param(b, p, arg, &c)?,
            Usage::ByRef | Usage::Pointer => self.by_ref_param(b, p, arg, &c)?,
            usage => self.value_param(b, p, usage, arg, &c, mirrors)?,
        }
        b.m.call_args.push(c);
        Ok(())
    }

    /// An output parameter: the C function fills a struct (allocated and returned) or a
    /// value of the pointee's type (converted and returned).
    fn out_param(
        &self,
        b: &mut FnBuild<'_>,
        p: &crate::ir::Param,
        c: &str,
        mirrors: &mut BTreeMap<String, MirrorModel>,
    ) -> Result<()> {
        let f = b.f;
        let CType::Pointer { pointee, .. } = &p.ty else {
            bail!("{}.{} is out but not a pointer", f.name, p.name);
        };
        if let CType::Record { name } = pointee.as_ref() {
            // The C function fills a struct: allocate one and return it.
            b.m.prep.push(Prep::NewRecord {
                c: c.to_string(),
                ty: self.types.get(name)?,
            });
            b.m.prep.push(Prep::RecordAddress { c: c.to_string() });
            b.outs.push(
                Output::Record { c: c.to_string() },
                None,
                name.clone(),
                docstring::output_line(&p.name, name),
            );
            return Ok(());
        }
        let storage = match pointee.as_ref() {
            CType::Bool => int(1, false),
            CType::Array { .. } | CType::Void => {
                bail!("{}.{}: cannot return a {pointee:?}", f.name, p.name)
            }
            other => self.ffi_type(other, mirrors)?,
        };
        b.m.prep.push(Prep::OutStorage {
            c: c.to_string(),
            storage: storage.clone(),
        });
        b.m.prep.push(Prep::StorageAddress {
            c: c.to_string(),
            storage,
        });
        // Size parameters are C integers (`rt::CInt`).
        let size = p.size_param.as_deref().map(rust_name);
        let var = Var::Out { c: c.to_string() };
        let conversion =
            self.conversion(&f.name, pointee, size, b.parent.as_deref(), &b.inherit)?;
        b.outs.push(
            Output::Value {
                var: var.clone(),
                conversion,
            },
            raw_value(pointee).then_some(var),
            python_types::result_type(pointee, p.size_param.is_some()),
            docstring::output_line(&p.name, &docstring::describe(pointee)),
        );
        Ok(())
    }

    /// A string output: a buffer of the size parameter's length, returned as bytes.
    fn out_string_param(&self, b: &mut FnBuild<'_>, p: &crate::ir::Param, c: &str) -> Result<()> {
        let len = rust_name(p.size_param.as_deref().context("out_string size")?);
        b.m.prep.push(Prep::OutStringBuffer {
            c: c.to_string(),
            len,
        });
        b.m.prep.push(Prep::BufferAddress { c: c.to_string() });
        b.outs.push(
            Output::Bytes { c: c.to_string() },
            None,
            "bytes".into(),
            docstring::output_line(&p.name, "bytes"),
        );
        Ok(())
    }

    /// The handle destroyed: its Python object is kept to be marked.
    fn destroyed_handle(
        &self,
        b: &mut FnBuild<'_>,
        p: &crate::ir::Param,
        arg: String,
        c: &str,
    ) -> Result<()> {
        b.m.stub_params
            .push(python_types::param(&p.name, &p.ty, p.usage));
        b.m.destroy = Some(Destroy {
            arg: arg.clone(),
            by_ref: false,
            success: self.destroy_success(&b.f.ret),
        });
        if let Some(value) = self.handle_value(p, &arg)? {
            b.m.prep.push(Prep::Let {
                c: c.to_string(),
                value,
            });
        } else {
            let writable = matches!(
                p.ty,
                CType::Pointer {
                    is_const: false,
                    ..
                }
            );
            b.m.prep.push(Prep::PtrArgOf {
                c: c.to_string(),
                arg: arg.clone(),
                writable,
            });
            b.m.prep.push(Prep::HolderAddress {
                c: c.to_string(),
                holder: "p".into(),
            });
        }
        b.python_param(&p.name, arg, ArgType::Any);
        Ok(())
    }

    /// A string free function (`LLVMDisposeMessage`): given one of the copies the bindings
    /// return, nothing to free; given other Python memory, a TypeError rather than a free()
    /// of it.
    fn freed_string(&self, b: &mut FnBuild<'_>, p: &crate::ir::Param, arg: String, c: &str) {
        b.m.stub_params
            .push(python_types::param(&p.name, &p.ty, p.usage));
        b.m.prep.push(Prep::FreedString {
            c: c.to_string(),
            arg: arg.clone(),
        });
        b.m.prep.push(Prep::HolderAddress {
            c: c.to_string(),
            holder: "p".into(),
        });
        b.python_param(&p.name, arg, ArgType::Any);
    }

    /// A `void *` typedef handle (`hipsparseHandle_t`) by value.
    fn opaque_param(
        &self,
        b: &mut FnBuild<'_>,
        p: &crate::ir::Param,
        arg: String,
        c: &str,
    ) -> Result<()> {
        b.m.stub_params
            .push(python_types::param(&p.name, &p.ty, p.usage));
        let value = self.handle_value(p, &arg)?.context("opaque handle")?;
        b.m.prep.push(Prep::Let {
            c: c.to_string(),
            value,
        });
        b.python_param(&p.name, arg, ArgType::Any);
        Ok(())
    }

    /// A pointer passed by reference or as it is.
    fn by_ref_param(
        &self,
        b: &mut FnBuild<'_>,
        p: &crate::ir::Param,
        arg: String,
        c: &str,
    ) -> Result<()> {
        b.m.stub_params
            .push(python_types::param(&p.name, &p.ty, p.usage));
        // What a destroying function frees is the library's, never a Python buffer.
        let frees = b.destroys_here();
        let ty = self.pointer_param(p, &arg, c, frees, &mut b.m.prep)?;
        // A struct or handle pointer (`hipArray_t` of HIP 5, `hiprtcProgram *`):
        // the Python object is at hand (`ArgType::Any`) to be marked.
        if b.destroys_here() && matches!(ty, ArgType::Any) {
            b.m.destroy = Some(Destroy {
                arg: arg.clone(),
                by_ref: points_at_handle(&p.ty),
                success: self.destroy_success(&b.f.ret),
            });
        }
        b.python_param(&p.name, arg, ty);
        Ok(())
    }

    /// An input by value (an integer, a string, a struct, ...).
    fn value_param(
        &self,
        b: &mut FnBuild<'_>,
        p: &crate::ir::Param,
        usage: Usage,
        arg: String,
        c: &str,
        mirrors: &mut BTreeMap<String, MirrorModel>,
    ) -> Result<()> {
        b.m.stub_params
            .push(python_types::param(&p.name, &p.ty, usage));
        let (ty, value) = self.in_param(&p.ty, usage, &arg, mirrors)?;
        if b.destroys_here() && matches!(p.ty, CType::Record { .. }) {
            // A handle struct by value (`amd_comgr_data_t`): its object is marked.
            b.m.destroy = Some(Destroy {
                arg: arg.clone(),
                by_ref: false,
                success: self.destroy_success(&b.f.ret),
            });
        }
        b.python_param(&p.name, arg, ty);
        b.m.prep.push(Prep::Let {
            c: c.to_string(),
            value,
        });
        Ok(())
    }

    /// The model with its results, their shape, its docstring and stub.
    fn finish(&self, b: FnBuild<'_>) -> FunctionModel {
        let FnBuild { f, mut m, outs, .. } = b;
        m.plain = self.plain_results && outs.outs.len() <= 1;
        m.shared = !m.plain
            && (1..=SHARED_TUPLE_MAX_ITEMS).contains(&outs.outs.len())
            && outs.outs.iter().all(Output::may_be_shared);
        m.results = outs.outs;
        m.raw_outs = outs.raw_outs;
        m.stub_ret = python_types::returns(m.plain, &outs.stub_results);
        // Only what Python passes is an argument (not outputs, not out_string buffers).
        let args: Vec<String> = f
            .params
            .iter()
            .filter(|p| !matches!(p.usage, Usage::Out | Usage::OutString))
            .map(|p| p.name.clone())
            .collect();
        m.doc = docstring::lines(&f.doc, &args, &outs.returns_doc);
        if f.deprecated {
            m.doc.push(String::new());
            m.doc.push("Deprecated in the C API.".into());
        }
        m.stub_doc = python_types::function_doc(&m.doc);
        m
    }

    /// The Rust parameter type and the C value of an input.
    fn in_param(
        &self,
        ty: &CType,
        usage: Usage,
        arg: &str,
        mirrors: &mut BTreeMap<String, MirrorModel>,
    ) -> Result<(ArgType, InValue)> {
        let address = || InValue::Address {
            arg: arg.to_string(),
        };
        Ok(match usage {
            Usage::String => (ArgType::CStr, address()),
            Usage::StringArray => (ArgType::CStrArray, address()),
            Usage::KernelExtra => (ArgType::KernelExtra, address()),
            Usage::In => match ty {
                CType::Int { size, signed, .. } => (
                    ArgType::CInt {
                        size: *size,
                        signed: *signed,
                        exact: !self.floats_as_integers,
                    },
                    InValue::Int {
                        arg: arg.to_string(),
                    },
                ),
                CType::Bool | CType::Float { .. } => (
                    match ty {
                        CType::Float { size } => ArgType::Float { size: *size },
                        _ => ArgType::Bool,
                    },
                    InValue::Plain {
                        arg: arg.to_string(),
                    },
                ),
                CType::Enum { name, size, signed } => (
                    ArgType::Any,
                    InValue::Enum {
                        arg: arg.to_string(),
                        ty: self.types.get(name)?,
                        size: *size,
                        signed: *signed,
                    },
                ),
                CType::Record { name } => (
                    ArgType::Any,
                    InValue::Record {
                        arg: arg.to_string(),
                        ty: self.types.get(name)?,
                        record: self.mirror(name, mirrors)?,
                    },
                ),
                CType::Handle { name } => (
                    ArgType::Any,
                    InValue::Handle {
                        arg: arg.to_string(),
                        ty: Some(self.types.get(name)?),
                        name: name.clone(),
                    },
                ),
                CType::Pointer { .. } => (ArgType::Ptr, address()),
                other => bail!("cannot pass {other:?}"),
            },
            Usage::Out | Usage::OutString | Usage::ByRef | Usage::Pointer => {
                unreachable!("handled by the caller")
            }
        })
    }

    /// Whether `p` is a `void *` typedef handle passed by value (`hipsparseHandle_t`).
    fn is_opaque(&self, p: &crate::ir::Param) -> bool {
        let name = p.spelling.trim_start_matches("const ").trim();
        matches!(&p.ty, CType::Pointer { pointee, .. } if matches!(**pointee, CType::Void))
            && self.opaque_pointers.iter().any(|o| o == name)
    }

    /// The C value of a handle passed by value, converted as a handle (None for other
    /// parameters).
    fn handle_value(&self, p: &crate::ir::Param, arg: &str) -> Result<Option<InValue>> {
        Ok(match &p.ty {
            CType::Handle { name } => Some(InValue::Handle {
                arg: arg.to_string(),
                ty: Some(self.types.get(name)?),
                name: name.clone(),
            }),
            _ if self.is_opaque(p) => Some(InValue::Handle {
                arg: arg.to_string(),
                ty: None,
                name: p.spelling.trim_start_matches("const ").trim().to_string(),
            }),
            _ => None,
        })
    }

    /// The checks of counts against lists and of sizes against buffers, run after every
    /// argument converted (a count may follow its list).
    fn checks(&self, f: &Function, prep: &mut Vec<Prep>) -> Result<()> {
        let py = crate::model::names::python_name;
        for p in &f.params {
            if let Some((symbol, args)) = p.count.as_deref().and_then(crate::bind::count_query) {
                prep.push(self.check_room(f, p, symbol, args)?);
            } else if let Some(count) = &p.count {
                let list = if p.usage == Usage::StringArray {
                    ListLen::StrArray {
                        arg: rust_name(&p.name),
                    }
                } else {
                    ListLen::Handles { c: p.name.clone() }
                };
                prep.push(Prep::CheckCount {
                    count: count.clone(),
                    count_name: py(count),
                    list,
                    list_name: py(&p.name),
                });
            }
            let Some(size) = &p.sized_by else { continue };
            let need = match size.strip_suffix("()") {
                Some(symbol) => {
                    let q = self
                        .functions
                        .get(symbol)
                        .with_context(|| format!("{}.{}: no function {symbol}", f.name, p.name))?;
                    let (last, lead) = q.params.split_last().context("a size query")?;
                    if !matches!(&last.ty, CType::Pointer { pointee, .. } if matches!(**pointee, CType::Int { size: 8, .. }))
                    {
                        bail!("{symbol}: its last parameter is no size_t *");
                    }
                    let mut ffi = Vec::new();
                    for l in lead {
                        if !f.params.iter().any(|x| x.name == l.name) {
                            bail!(
                                "{}: {symbol}'s {} is not one of its parameters",
                                f.name,
                                l.name
                            );
                        }
                        ffi.push(self.ffi_type(&l.ty, &mut BTreeMap::new())?);
                    }
                    ffi.push(FfiType::scalar(FfiBase::Address));
                    SizeNeed::Query {
                        symbol: q.symbol.clone(),
                        args: lead.iter().map(|l| l.name.clone()).collect(),
                        ffi,
                        ret: self.ffi_type(&q.ret, &mut BTreeMap::new())?,
                        success: self.destroy_success(&q.ret),
                    }
                }
                None => {
                    let q = f.params.iter().find(|q| &q.name == size).context("size")?;
                    if matches!(q.ty, CType::Pointer { .. }) {
                        SizeNeed::At { c: size.clone() }
                    } else {
                        SizeNeed::Value { c: size.clone() }
                    }
                }
            };
            prep.push(Prep::CheckSize {
                c: p.name.clone(),
                arg: rust_name(&p.name),
                need,
                buf_name: py(&p.name),
                size_name: size.clone(),
            });
        }
        Ok(())
    }

    /// The check that a buffer of handles holds what C writes there, as the library's count
    /// function `symbol` answers for `f`'s arguments `args`.
    fn check_room(
        &self,
        f: &Function,
        p: &crate::ir::Param,
        symbol: &str,
        args: Vec<String>,
    ) -> Result<Prep> {
        let q = self
            .functions
            .get(symbol)
            .with_context(|| format!("{}.{}: no function {symbol}", f.name, p.name))?;
        if q.params.len() != args.len() || !matches!(q.ret, CType::Int { .. }) {
            bail!(
                "{symbol}: counts with {} parameter(s) and returns an integer",
                args.len()
            );
        }
        let ffi = q
            .params
            .iter()
            .map(|x| self.ffi_type(&x.ty, &mut BTreeMap::new()))
            .collect::<Result<Vec<_>>>()?;
        let pointers = q
            .params
            .iter()
            .zip(&args)
            .filter(|(x, _)| matches!(x.ty, CType::Pointer { .. } | CType::Handle { .. }))
            .map(|(_, a)| a.clone())
            .collect();
        Ok(Prep::CheckRoom {
            c: p.name.clone(),
            pointers,
            symbol: q.symbol.clone(),
            ret: self.ffi_type(&q.ret, &mut BTreeMap::new())?,
            count_text: format!("{symbol}({})", args.join(", ")),
            args,
            ffi,
            list_name: crate::model::names::python_name(&p.name),
        })
    }

    /// Whether `function` is a free function the spec's `owned_strings` names.
    fn frees_strings(&self, function: &str) -> bool {
        self.owned_strings.iter().any(|(_, free)| free == function)
    }

    /// The Rust parameter type of a pointer argument, adding the statements that give its
    /// C value `a_<c>` to `prep`. What the header says the pointer points at picks the
    /// conversion: a handle (`hiprtcProgram *`: the handle object, or an address as is), a
    /// struct (an instance of that struct, or a buffer large enough), a number (a buffer of
    /// at least one), or anything pointer-like. `frees`: the function frees what it points at.
    fn pointer_param(
        &self,
        p: &crate::ir::Param,
        arg: &str,
        c: &str,
        frees: bool,
        prep: &mut Vec<Prep>,
    ) -> Result<ArgType> {
        let (ty, written, list) = (&p.ty, p.written, p.list);
        let c = c.to_string();
        let arg = arg.to_string();
        let address = |prep: &mut Vec<Prep>, c: String, arg: String| {
            prep.push(Prep::Let {
                c,
                value: InValue::Address { arg },
            })
        };
        let CType::Pointer { pointee, is_const } = ty else {
            address(prep, c, arg);
            return Ok(ArgType::Ptr);
        };
        let writable = !is_const;
        let holder = |prep: &mut Vec<Prep>, c: String, holder: &str| {
            prep.push(Prep::HolderAddress {
                c,
                holder: holder.to_string(),
            })
        };
        match pointee.as_ref() {
            CType::Handle { name } => {
                prep.push(Prep::HandleRef {
                    c: c.clone(),
                    arg,
                    ty: self.types.get(name)?,
                    // A list the spec allows passes as a temporary array (C only reads it).
                    writable: writable && !list,
                    single: p.usage == Usage::ByRef || frees,
                });
                holder(prep, c, "h");
                Ok(ArgType::Any)
            }
            CType::Record { name } if self.records.contains_key(name.as_str()) => {
                prep.push(Prep::RecordPtr {
                    c: c.clone(),
                    arg,
                    ty: self.types.get(name)?,
                    writable,
                });
                holder(prep, c, "p");
                Ok(ArgType::Any)
            }
            p if p.is_scalar() && !p.is_char() => {
                prep.push(Prep::TypedPtr {
                    c: c.clone(),
                    arg,
                    size: size_of(p, self.records)?,
                    writable,
                });
                holder(prep, c, "p");
                Ok(ArgType::Any)
            }
            _ => {
                // Untyped memory (`void *`, `char *`) takes read-only buffers, as hip-python
                // does (`hiprtcGetBitcode(prog, bytes(n))`), unless the spec says C writes
                // there (`written`: hipMemcpy's dst).
                address(prep, c, arg);
                Ok(match (writable, written) {
                    (false, _) => ArgType::Ptr,
                    (true, false) => ArgType::PtrMut,
                    (true, true) => ArgType::PtrWritten,
                })
            }
        }
    }

    /// How a C value of type `ty` returned by `function` becomes a Python object; `size` is
    /// the argument giving the byte size of an allocation it points at.
    fn conversion(
        &self,
        function: &str,
        ty: &CType,
        size: Option<String>,
        parent: Option<&str>,
        inherit: &[String],
    ) -> Result<Conversion> {
        Ok(match ty {
            CType::Bool => Conversion::Bool,
            CType::Int { .. } => Conversion::Integer,
            CType::Float { .. } => Conversion::Number,
            CType::Enum { name, .. } => Conversion::Enum {
                ty: self.types.get(name)?,
            },
            CType::Handle { name } => Conversion::Instance {
                ty: self.types.get(name)?,
                parent: parent.map(str::to_string),
                inherit: inherit.to_vec(),
            },
            CType::Pointer { pointee, .. }
                if pointee.is_char()
                    && self.memory_results.iter().any(|r| r.is_match(function)) =>
            {
                Conversion::HostBuffer
            }
            CType::Pointer { pointee, is_const } if pointee.is_char() => {
                // A non-const `char *` of a function the spec's `owned_strings` names is handed
                // over: copied, then given back to the library's free function.
                let free = self
                    .owned_strings
                    .iter()
                    .find(|(re, _)| !is_const && re.is_match(function))
                    .map(|(_, free)| free.clone());
                match free {
                    Some(free) => {
                        self.frees_used.borrow_mut().insert(free.clone());
                        Conversion::OwnedCStr { free }
                    }
                    None => Conversion::CStr,
                }
            }
            CType::Pointer { pointee, .. } if matches!(**pointee, CType::Record { .. }) => {
                let CType::Record { name } = pointee.as_ref() else {
                    unreachable!()
                };
                Conversion::Instance {
                    ty: self.types.get(name)?,
                    parent: None,
                    inherit: Vec::new(),
                }
            }
            CType::Pointer { .. } => match size {
                Some(size) => Conversion::DeviceArray { size },
                None => Conversion::Pointer,
            },
            CType::Record { name } => Conversion::RecordCopy {
                ty: self.types.get(name)?,
            },
            other => bail!("cannot return {other:?}"),
        })
    }
}

/// Whether `t` is a handle passed by value whose pointee the bindings do not check: a
/// handle type, or a `void *` (`hipblasHandle_t`). A pointer to a struct (HIP 5's
/// `hipArray_t`) keeps its struct check.
fn untyped_handle(t: &CType) -> bool {
    match t {
        CType::Handle { .. } => true,
        CType::Pointer { pointee, .. } => matches!(**pointee, CType::Void),
        _ => false,
    }
}

/// Whether `t` is a pointer to a handle (`hiprtcProgram *`).
fn points_at_handle(t: &CType) -> bool {
    matches!(t, CType::Pointer { pointee, .. } if matches!(**pointee, CType::Handle { .. }))
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
