//! cuda-python's calling conventions, from CUDA's own headers, joined to the HIP functions
//! HIPIFY maps each CUDA function to.
//!
//! cuda-python passes every input parameter of a CUDA function as a Python argument and
//! returns the status first, then every output, in C order. Which parameters are outputs is
//! decided here from CUDA's declarations with one rule: a pointer to a non-const handle,
//! number, enum, pointer or struct is an output; `const` pointees, `void *` buffers and
//! `char *` are inputs (the spec names the few struct pointers cuda-python takes as inputs).
//! HIP's bindings decide the same for HIP's declarations (`ir::Usage`), except that they
//! take struct pointers from the caller, as hip-python does.
//!
//! The two parameter lists are aligned in order by the shape of their types (pointer depth
//! and what is pointed at; CUDA's API and HIP's name their parameters differently). Where
//! the result is the HIP function's own Python signature, the CUDA name is the HIP object.
//! Otherwise an adapter plan says, for each HIP argument, which CUDA argument it comes from
//! (or a fresh struct the adapter makes and returns, or zero for a HIP parameter CUDA lacks),
//! and where each CUDA output comes from. A CUDA function with no HIP function, or whose
//! outputs HIP cannot produce, returns the "not supported" status.

use crate::ir::types::{spelled_name, spelled_pointee};
use crate::ir::{
    Adapter, AdapterArg, AdapterResult, ApiConventions, CType, CudaParam, DirectArg, DirectCall,
    DirectResult, Function, Library, Stub, Usage, WrapperType,
};
use anyhow::{Context, Result};
use regex::Regex;
use serde::Deserialize;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};

/// The `conventions` section of the CUDA alias spec.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConventionsSpec {
    /// One entry per cuda-python API version.
    pub apis: Vec<ApiSpec>,
    /// CUDA header → the cuda-python module its functions belong to.
    pub headers: BTreeMap<String, String>,
    /// CUDA header → the module whose Cython `.pxd` stands for it: the `.pxd` defines the
    /// header's include guard, so that a later `#include` of it adds nothing.
    #[serde(default)]
    pub guarded: BTreeMap<String, String>,
    /// CUDA status type → the member a function without HIP equivalent returns.
    pub not_supported: BTreeMap<String, String>,
    /// Regexes on `function.param`: non-const struct pointers that are inputs.
    #[serde(default)]
    pub inputs: Vec<String>,
    /// Regexes on `function.param`: `void **` kernel arguments, given in cuda-python's forms.
    #[serde(default)]
    pub kernel_params: Vec<String>,
    /// Parameter names cuda-python spells otherwise (`type` → `typename`).
    #[serde(default)]
    pub param_renames: BTreeMap<String, String>,
    /// Regexes on `function.param`: `void *` parameters holding an attribute's value (at most
    /// 64 bits), which cuda-python passes and returns as the value itself: an output of a
    /// getter (`cuMemPoolGetAttribute`), an input of a setter.
    #[serde(default)]
    pub attribute_values: Vec<String>,
    /// CUDA functions whose HIP counterpart is not the one HIPIFY's table names (it maps an
    /// older CUDA signature): CUDA name → HIP function. Always called through an adapter,
    /// as the CUDA name stands for the table's HIP function elsewhere.
    #[serde(default)]
    pub hip_functions: BTreeMap<String, String>,
    /// CUDA functions HIPIFY's table leaves out that are HIP's function of the same name
    /// (the CUDA prefix for `hip`, with or without a version suffix), where the parameters
    /// align one to one: the same call (`cuMemcpyAsync`, `cudaStreamGetDevice`).
    #[serde(default)]
    pub same_names: Option<SameNamesSpec>,
    /// Regexes on `function.param`: pointers cuda-python takes as an input and also returns
    /// (the value after the call): counts of the arrays a call fills
    /// (`cudaGraphGetNodes.numNodes`, whose handle arrays then hold that many elements),
    /// modes a call swaps. HIP's bindings return these, so the C function is called itself.
    #[serde(default)]
    pub inouts: Vec<String>,
    /// Regexes on `function.param`: non-const pointers cuda-python takes as lists
    /// (`cuModuleLoadDataEx.options`).
    #[serde(default)]
    pub lists: Vec<String>,
    /// Regexes on `function.param`: `void **` outputs with one attribute value per element of
    /// the function's list of attributes (`cuPointerGetAttributes.data`).
    #[serde(default)]
    pub value_lists: Vec<String>,
    /// `function.param` regex → the parameter giving its size: `void *` outputs holding an
    /// attribute's value of a size the caller gives (`cuMemRangeGetAttribute.data`).
    #[serde(default)]
    pub sized_values: BTreeMap<String, String>,
    /// Regexes on `function.param`: a `CUmemLocation` where HIP takes a device ordinal.
    #[serde(default)]
    pub locations: Vec<String>,
    /// Attribute enum → member → C type of its value where that is not 64 unsigned bits
    /// (`CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL: i32`), as cuda-python types the values.
    #[serde(default)]
    pub attribute_types: BTreeMap<String, BTreeMap<String, String>>,
    /// cuda-python module → the struct it gives a memory location in (`locations`).
    #[serde(default)]
    pub location_types: BTreeMap<String, crate::ir::LocationType>,
}

/// Where one API version's headers are.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ApiSpec {
    /// The major version of cuda-bindings whose signatures these are (`12`, `13`).
    pub version: String,
    /// Include folders, relative to hipgen's `--cuda-headers` folder.
    pub include: Vec<PathBuf>,
}

/// What a type is, as far as matching CUDA's parameters with HIP's goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Base {
    Int(u8),
    Float,
    Char,
    Void,
    Record,
    Handle,
    Func,
    Other,
}

/// Pointer depth and what is pointed at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Shape {
    depth: u8,
    base: Base,
}

/// One CUDA parameter as read from the header.
#[derive(Debug, Clone)]
struct RawParam {
    name: String,
    shape: Shape,
    /// Whether the first pointee is `const`.
    const_pointee: bool,
    /// The typedef naming an integer type (`CUdevice`, `cuuint64_t`), at depth 0 or 1.
    scalar_typedef: Option<(String, u8, bool)>,
    /// The enum the parameter is or points at (`cudaStreamCaptureMode`), by its typedef name.
    enum_name: Option<String>,
    /// The struct the parameter is or points at (`CUgraphEdgeData`).
    record_name: Option<String>,
    /// The handle typedef the parameter is or points at (`CUcontext`).
    handle_name: Option<String>,
}

/// One CUDA function as read from the header.
#[derive(Debug, Clone)]
struct RawFunction {
    name: String,
    module: String,
    status: String,
    params: Vec<RawParam>,
}

/// The shape of a HIP parameter's type.
fn hip_shape(t: &CType) -> Shape {
    let base = match t {
        CType::Void => Base::Void,
        CType::Bool => Base::Int(1),
        CType::Int { is_char: true, .. } => Base::Char,
        CType::Int { size, .. } => Base::Int(*size),
        CType::Float { .. } => Base::Float,
        CType::Enum { .. } => Base::Int(4),
        CType::Record { .. } => Base::Record,
        CType::Handle { .. } => Base::Handle,
        CType::Pointer { pointee: p, .. } | CType::Array { elem: p, .. } => {
            let s = hip_shape(p);
            return Shape {
                depth: s.depth + 1,
                base: s.base,
            };
        }
        CType::Unsupported { .. } => Base::Other,
    };
    Shape { depth: 0, base }
}

/// How well a CUDA parameter stands for a HIP one: 0 when it cannot.
fn score(c: &RawParam, h: &crate::ir::Param) -> u32 {
    let hs = hip_shape(&h.ty);
    let cs = c.shape;
    let mut s = if cs == hs {
        3
    } else if cs.depth == hs.depth
        && matches!(cs.base, Base::Int(_))
        && matches!(hs.base, Base::Int(_))
    {
        2
    } else if (cs.depth == hs.depth + 1 || cs.depth + 1 == hs.depth)
        && matches!(
            (cs.base, hs.base),
            (Base::Int(8), Base::Void) | (Base::Void, Base::Int(8))
        )
    {
        // CUDA's `CUdeviceptr` is an integer where HIP has `void *`.
        2
    } else if cs.base == Base::Func && hs.base == Base::Handle && cs.depth == hs.depth {
        // A callback: HIP's function pointer typedefs are handles in its IR.
        2
    } else if c.scalar_typedef.is_some()
        && cs.base == Base::Int(8)
        && hs.base == Base::Handle
        && cs.depth == hs.depth
    {
        // An object CUDA numbers where HIP points at it (`cudaTextureObject_t` and
        // `hipTextureObject_t`).
        1
    } else if cs.base == Base::Handle && hs.base == Base::Record && hs.depth == cs.depth + 1 {
        // An opaque CUDA handle where HIP declares the struct (`cudaArray_t` and HIP 5's
        // `hipArray *`).
        2
    } else if cs.depth == hs.depth
        && cs.depth > 0
        && (cs.base == Base::Void || hs.base == Base::Void)
    {
        1
    } else {
        0
    };
    if s > 0 && c.name.eq_ignore_ascii_case(&h.name) {
        s += 1;
    }
    s
}

/// Order-preserving alignment of CUDA's parameters with HIP's maximizing the total score:
/// for each CUDA parameter, the HIP parameter it stands for.
fn align(cuda: &[RawParam], hip: &[crate::ir::Param]) -> Vec<Option<usize>> {
    let (n, m) = (cuda.len(), hip.len());
    let mut best = vec![vec![0u32; m + 1]; n + 1];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            let s = score(&cuda[i], &hip[j]);
            let take = if s > 0 { s + best[i + 1][j + 1] } else { 0 };
            best[i][j] = take.max(best[i + 1][j]).max(best[i][j + 1]);
        }
    }
    let mut out = vec![None; n];
    let (mut i, mut j) = (0, 0);
    while i < n && j < m {
        let s = score(&cuda[i], &hip[j]);
        if s > 0 && best[i][j] == s + best[i + 1][j + 1] {
            out[i] = Some(j);
            i += 1;
            j += 1;
        } else if best[i][j] == best[i + 1][j] {
            i += 1;
        } else {
            j += 1;
        }
    }
    out
}

/// Whether HIP's Python signature takes this parameter (it is not returned).
fn hip_takes(p: &crate::ir::Param) -> bool {
    !matches!(p.usage, Usage::Out | Usage::OutString)
}

/// The compiled spec rules.
struct Rules {
    inputs: Vec<Regex>,
    kernel_params: Vec<Regex>,
    attribute_values: Vec<Regex>,
    inouts: Vec<Regex>,
    lists: Vec<Regex>,
    value_lists: Vec<Regex>,
    sized_values: Vec<(Regex, String)>,
    locations: Vec<Regex>,
}

impl Rules {
    fn new(spec: &ConventionsSpec) -> Result<Self> {
        let compile = |v: &[String]| -> Result<Vec<Regex>> {
            v.iter()
                .map(|r| Regex::new(r).with_context(|| format!("conventions regex {r}")))
                .collect()
        };
        Ok(Rules {
            inputs: compile(&spec.inputs)?,
            kernel_params: compile(&spec.kernel_params)?,
            attribute_values: compile(&spec.attribute_values)?,
            inouts: compile(&spec.inouts)?,
            lists: compile(&spec.lists)?,
            value_lists: compile(&spec.value_lists)?,
            sized_values: spec
                .sized_values
                .iter()
                .map(|(r, size)| {
                    Regex::new(r)
                        .map(|re| (re, size.clone()))
                        .with_context(|| format!("conventions regex {r}"))
                })
                .collect::<Result<_>>()?,
            locations: compile(&spec.locations)?,
        })
    }

    /// The parameter naming the size of a sized value `f.p`, if it is one.
    fn sized(&self, f: &str, p: &str) -> Option<&str> {
        let key = format!("{f}.{p}");
        self.sized_values
            .iter()
            .find(|(r, _)| r.is_match(&key))
            .map(|(_, size)| size.as_str())
    }

    /// Whether `f.p` needs the C function called itself (HIP's bindings cannot take it).
    fn direct(&self, f: &str, p: &str) -> bool {
        Self::matches(&self.inouts, f, p)
            || Self::matches(&self.lists, f, p)
            || Self::matches(&self.value_lists, f, p)
            || self.sized(f, p).is_some()
    }

    fn matches(list: &[Regex], f: &str, p: &str) -> bool {
        let key = format!("{f}.{p}");
        list.iter().any(|r| r.is_match(&key))
    }
}

/// Whether cuda-python returns this CUDA parameter.
fn is_output(f: &str, p: &RawParam, rules: &Rules) -> bool {
    if p.shape.depth == 0 || p.const_pointee {
        return false;
    }
    if Rules::matches(&rules.kernel_params, f, &p.name)
        || Rules::matches(&rules.inouts, f, &p.name)
        || Rules::matches(&rules.lists, f, &p.name)
    {
        return false;
    }
    if Rules::matches(&rules.value_lists, f, &p.name) || rules.sized(f, &p.name).is_some() {
        return true;
    }
    if Rules::matches(&rules.attribute_values, f, &p.name) {
        return f.contains("Get");
    }
    match (p.shape.depth, p.shape.base) {
        (1, Base::Void | Base::Char | Base::Func | Base::Other) => false,
        (1, Base::Record) => !Rules::matches(&rules.inputs, f, &p.name),
        _ => true,
    }
}

/// Parses one API version's headers once: an IR per cuda-python module, holding what the
/// headers `spec.headers` gives that module declare.
pub fn parse_modules(
    spec: &ConventionsSpec,
    includes: &[PathBuf],
    release: &str,
) -> Result<Vec<Library>> {
    let headers: Vec<String> = spec.headers.keys().cloned().collect();
    // Modules in the order their first header comes in the unit (driver, runtime, nvrtc).
    let mut modules: Vec<(&str, Vec<String>)> = Vec::new();
    for (h, m) in &spec.headers {
        let file = format!("(.*/)?{}", regex::escape(h));
        match modules.iter_mut().find(|(n, _)| n == m) {
            Some((_, files)) => files.push(file),
            None => modules.push((m, vec![file])),
        }
    }
    let set = crate::parse::HeaderSet {
        name: "cuda-api",
        headers: &headers,
        prelude: "",
        language: "c",
        defines: &[],
        include_dirs: includes.to_vec(),
        bodies: false,
        inline_functions: false,
        type_renames: false,
        filters: crate::parse::Filters::all(),
    };
    let parts: Vec<crate::parse::Part<'_>> = modules
        .iter()
        .map(|(m, files)| crate::parse::Part {
            name: m,
            bind_files: files,
        })
        .collect();
    crate::parse::parse_headers(&set, &parts, release)
        .context("parsing CUDA's headers (tools/setup.sh fetches them)")
}

/// `t` one pointer level in where it is a pointer, with the spelling of that.
fn pointee_of<'a>(t: &'a CType, spelling: &'a str) -> (&'a CType, String) {
    match t {
        CType::Pointer { pointee, .. } => (pointee, spelled_pointee(spelling).to_string()),
        _ => (t, spelling.to_string()),
    }
}

/// The shape of a CUDA parameter from its IR type and spelling; `callbacks` are the handle
/// classes that are function pointers.
fn ir_shape(t: &CType, spelling: &str, callbacks: &BTreeSet<&str>) -> Shape {
    let base = match t {
        CType::Handle { name } if callbacks.contains(name.as_str()) => Base::Func,
        CType::Handle { .. } => Base::Handle,
        // A function pointer is an address in the IR; its spelling says what it is.
        CType::Pointer { pointee, .. } if **pointee == CType::Void && spelling.contains("(*") => {
            Base::Func
        }
        CType::Pointer { pointee, .. } => {
            let (_, inner) = pointee_of(t, spelling);
            // A struct no header defines is an address in the IR.
            let bare = inner.trim_start_matches("const ").trim_start();
            let s = if **pointee == CType::Void && bare.starts_with("struct ") {
                Shape {
                    depth: 0,
                    base: Base::Record,
                }
            } else {
                ir_shape(pointee, &inner, callbacks)
            };
            return Shape {
                depth: s.depth + 1,
                base: s.base,
            };
        }
        CType::Array { .. } | CType::Unsupported { .. } => Base::Other,
        other => hip_shape(other).base,
    };
    Shape { depth: 0, base }
}

/// A CUDA parameter from its IR.
fn raw_param(p: &crate::ir::Param, callbacks: &BTreeSet<&str>) -> RawParam {
    let shape = ir_shape(&p.ty, &p.spelling, callbacks);
    let (inner, inner_spelling) = pointee_of(&p.ty, &p.spelling);
    let name = spelled_name(&inner_spelling);
    let cuda_named = name.starts_with("CU") || name.starts_with("cu");
    let builtin = |n: &str| n.split_whitespace().any(|w| C_WORDS.contains(&w));
    RawParam {
        name: p.name.clone(),
        shape,
        // Only as written: a typedef of a pointer to const is not `const T *`.
        const_pointee: matches!(&p.ty, CType::Pointer { is_const: true, .. })
            && p.spelling.contains('*'),
        scalar_typedef: match inner {
            CType::Int { size, signed, .. } if cuda_named && !builtin(&name) => {
                Some((name.clone(), *size, *signed))
            }
            _ => None,
        },
        enum_name: matches!(inner, CType::Enum { .. }).then(|| name.clone()),
        record_name: matches!(inner, CType::Record { .. }).then(|| name.clone()),
        handle_name: match (&p.ty, inner) {
            (CType::Handle { name: n }, _) | (_, CType::Handle { name: n })
                if !callbacks.contains(n.as_str()) =>
            {
                Some(if matches!(p.ty, CType::Handle { .. }) {
                    spelled_name(&p.spelling)
                } else {
                    name.clone()
                })
            }
            _ => None,
        },
    }
}

/// Words of C's own type names.
const C_WORDS: &[&str] = &[
    "char", "short", "int", "long", "unsigned", "signed", "float", "double", "void", "_Bool",
];

/// Reads the functions of each module's IR (by the names cuda-python gives them).
fn ir_functions(spec: &ConventionsSpec, libs: &[Library]) -> Vec<RawFunction> {
    let callbacks: BTreeSet<&str> = libs
        .iter()
        .flat_map(|l| &l.handles)
        .filter(|h| h.callback)
        .map(|h| h.name.as_str())
        .collect();
    // A status enum by any of its names (`cudaError_enum` is `CUresult`).
    let status_of = |t: &CType| -> Option<String> {
        let CType::Enum { name, .. } = t else {
            return None;
        };
        let e = libs
            .iter()
            .flat_map(|l| &l.enums)
            .find(|e| &e.name == name)?;
        std::iter::once(&e.name)
            .chain(&e.aliases)
            .find(|n| spec.not_supported.contains_key(*n))
            .cloned()
    };
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    for lib in libs {
        for f in &lib.functions {
            let Some(status) = status_of(&f.ret) else {
                continue;
            };
            if seen.insert(f.name.clone()) {
                out.push(RawFunction {
                    name: f.name.clone(),
                    module: lib.name.clone(),
                    status,
                    params: f.params.iter().map(|p| raw_param(p, &callbacks)).collect(),
                });
            }
        }
    }
    out
}

/// The HIP function a CUDA function name stands for: (HIP module, function).
pub type HipFunctions<'a> = HashMap<&'a str, (&'a str, &'a Function)>;

/// The spec's same-name rule: CUDA's prefixes and HIP's for them, and the version suffix a
/// CUDA name may carry that HIP's name may lack.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SameNamesSpec {
    /// (CUDA prefix, HIP prefix), tried in order (`cuda` before `cu`).
    pub prefixes: Vec<(String, String)>,
    /// A regex of the suffix (`_v[0-9]+$`).
    pub versions: String,
}

/// `hip` joined with the CUDA functions the same-name rule gives HIP functions for:
/// `by_name` holds every HIP function (module, function) by its name.
/// Also the CUDA functions whose HIP namesake takes other parameters, with its name.
fn with_same_names<'a>(
    hip: &HipFunctions<'a>,
    funcs: &'a [RawFunction],
    by_name: &HashMap<&'a str, (&'a str, &'a Function)>,
    rule: Option<&SameNamesSpec>,
) -> Result<(HipFunctions<'a>, HashMap<&'a str, &'a str>)> {
    let mut joined = hip.clone();
    let mut differing = HashMap::new();
    let Some(rule) = rule else {
        return Ok((joined, differing));
    };
    let versions = Regex::new(&rule.versions)?;
    for f in funcs.iter().filter(|f| !hip.contains_key(f.name.as_str())) {
        let Some((hip_prefix, rest)) = rule
            .prefixes
            .iter()
            .find_map(|(cuda, hip)| Some((hip, f.name.strip_prefix(cuda.as_str())?)))
        else {
            continue;
        };
        let names = [
            format!("{hip_prefix}{rest}"),
            format!("{hip_prefix}{}", versions.replace(rest, "")),
        ];
        let found = names.iter().find_map(|n| by_name.get(n.as_str()));
        if let Some(&(module, h)) = found {
            if aligns_one_to_one(&f.params, &h.params) {
                joined.insert(f.name.as_str(), (module, h));
            } else {
                differing.insert(f.name.as_str(), h.name.as_str());
            }
        }
    }
    Ok((joined, differing))
}

/// Whether each CUDA parameter feeds one HIP parameter and each HIP parameter is fed.
fn aligns_one_to_one(cuda: &[RawParam], hip: &[crate::ir::Param]) -> bool {
    cuda.len() == hip.len() && align(cuda, hip).iter().all(Option::is_some)
}

/// Joins the CUDA functions of one API version to their HIP functions.
fn plan(version: &str, funcs: &[RawFunction], ctx: &PlanCtx<'_>) -> ApiConventions {
    let mut adapted = Vec::new();
    let mut stubs = Vec::new();
    let mut wrappers: BTreeMap<String, (u8, bool)> = BTreeMap::new();
    let mut same = Vec::new();
    let mut mismatched = Vec::new();
    for f in funcs {
        for (n, size, signed) in f.params.iter().filter_map(|p| p.scalar_typedef.as_ref()) {
            wrappers.insert(n.clone(), (*size, *signed));
        }
        match ctx.function(f) {
            Planned::Adapted(a) => adapted.push(a),
            Planned::Stub(s) => stubs.push(s),
            Planned::Same(name) => same.push(name),
            Planned::Mismatched(name, why) => mismatched.push((name, why)),
            Planned::Skipped => {}
        }
    }
    ApiConventions {
        version: version.to_string(),
        cuda_version: None,
        cuda_member_tag: Some(super::CUDA_MEMBER_TAG),
        same,
        adapted,
        stubs,
        wrappers: wrappers
            .into_iter()
            .map(|(name, (size, signed))| WrapperType { name, size, signed })
            .collect(),
        mismatched,
        not_supported: ctx.spec.not_supported.clone(),
        attribute_types: ctx.spec.attribute_types.clone(),
        location_types: ctx.spec.location_types.clone(),
        include_guards: Default::default(),
        types: Default::default(),
    }
}

/// What the plan does with one CUDA function.
enum Planned {
    /// An adapter (a direct call or not).
    Adapted(Adapter),
    /// A stub: no HIP function.
    Stub(Stub),
    /// HIP's function serves as it is.
    Same(String),
    /// The two functions' shapes do not join, with why.
    Mismatched(String, String),
    /// HIP returns a value, not a status: the HIP object as it is.
    Skipped,
}

/// What the plan of one API version reads besides the CUDA functions.
struct PlanCtx<'a> {
    hip: &'a HipFunctions<'a>,
    /// CUDA functions whose HIP namesake takes other parameters, with its name.
    differing: &'a HashMap<&'a str, &'a str>,
    spec: &'a ConventionsSpec,
    rules: &'a Rules,
    reshaped: &'a dyn Fn(&str) -> bool,
}

/// A CUDA function joined to its HIP function's parameters.
struct Joined<'a> {
    f: &'a RawFunction,
    /// The HIP parameter each CUDA parameter feeds.
    map: Vec<Option<usize>>,
    /// Whether the spec makes it a direct call.
    direct: bool,
    c_call: Option<Vec<i64>>,
    /// Per CUDA parameter: whether it is an output.
    outs: Vec<bool>,
    /// The CUDA parameters Python passes, by CUDA index.
    inputs: Vec<usize>,
    params: Vec<CudaParam>,
}

impl Joined<'_> {
    /// The inputs (by position among the inputs) that feed no HIP parameter.
    fn dropped(&self) -> Vec<usize> {
        self.inputs
            .iter()
            .enumerate()
            .filter(|(_, &c)| self.map[c].is_none())
            .map(|(k, _)| k)
            .collect()
    }

    /// The adapter of the join over HIP function `h` of `hip_module`.
    fn adapter(
        self,
        hip_module: &str,
        h: &Function,
        call: (Vec<AdapterArg>, Vec<AdapterResult>, Option<DirectCall>),
    ) -> Adapter {
        let dropped = self.dropped();
        let (args, results, direct) = call;
        Adapter {
            cuda: self.f.name.clone(),
            module: self.f.module.clone(),
            status_type: self.f.status.clone(),
            hip_module: hip_module.to_string(),
            hip: h.name.clone(),
            params: self.params,
            args,
            results,
            dropped,
            direct,
            c_call: self.c_call,
        }
    }
}

/// HIP's arguments of an adapter, as they are found.
#[derive(Default)]
struct ArgPlan {
    args: Vec<AdapterArg>,
    /// The CUDA outputs the adapter makes a struct for, in order.
    made: Vec<usize>,
    /// The CUDA outputs the adapter makes a value cell for, in order.
    values: Vec<usize>,
    /// Why the shapes do not join (the last reason found).
    broken: Option<String>,
}

impl PlanCtx<'_> {
    /// What the plan does with CUDA function `f`.
    fn function(&self, f: &RawFunction) -> Planned {
        let j = self.join(f);
        let Some(&(module, h)) = self.hip.get(f.name.as_str()) else {
            let why = match self.differing.get(f.name.as_str()) {
                Some(h) => format!("HIP's {h} takes other parameters"),
                None => "no HIP function".to_string(),
            };
            return Planned::Stub(self.stub(&j, &why));
        };
        if !matches!(h.ret, CType::Enum { .. }) {
            // HIP returns a value, not a status: the HIP object as it is.
            return Planned::Skipped;
        }
        if j.direct {
            return match direct_plan(f, h, &j.map, &j.outs, &j.inputs, self.rules) {
                Ok(call) => Planned::Adapted(j.adapter(module, h, (vec![], vec![], Some(call)))),
                Err(why) => Planned::Mismatched(f.name.clone(), why),
            };
        }
        self.adapted(j, module, h)
    }

    /// Whether CUDA parameter `p` of `f` is a location by value where HIP takes a device
    /// ordinal: it aligns as that integer.
    fn is_location(&self, f: &RawFunction, p: &RawParam) -> bool {
        Rules::matches(&self.rules.locations, &f.name, &p.name)
            && p.shape
                == (Shape {
                    depth: 0,
                    base: Base::Record,
                })
    }

    /// Joins `f` to its HIP function: the parameters aligned, the outputs and inputs found.
    fn join<'f>(&self, f: &'f RawFunction) -> Joined<'f> {
        let target = self.hip.get(f.name.as_str());
        let aligned: Vec<RawParam> = f
            .params
            .iter()
            .map(|p| RawParam {
                shape: if self.is_location(f, p) {
                    Shape {
                        depth: 0,
                        base: Base::Int(4),
                    }
                } else {
                    p.shape
                },
                ..p.clone()
            })
            .collect();
        let map = match target {
            Some((_, h)) => align(&aligned, &h.params),
            None => vec![None; f.params.len()],
        };
        let direct = f.params.iter().any(|p| self.rules.direct(&f.name, &p.name));
        let is_location = |p: &RawParam| self.is_location(f, p);
        let c_call = target.and_then(|(_, h)| c_call(f, h, &map, &is_location, self.reshaped));
        let outs = self.outputs(f, target.map(|(_, h)| *h), &map, direct);
        let inputs: Vec<usize> = (0..f.params.len()).filter(|&i| !outs[i]).collect();
        let params = self.cuda_params(f, &inputs);
        Joined {
            f,
            map,
            direct,
            c_call,
            outs,
            inputs,
            params,
        }
    }

    /// Per parameter of `f`: whether it is an output. An output where HIP returns the value;
    /// where HIP takes a struct from the caller and CUDA's rule says output, the adapter makes
    /// the struct; otherwise as HIP takes it.
    fn outputs(
        &self,
        f: &RawFunction,
        target: Option<&Function>,
        map: &[Option<usize>],
        direct: bool,
    ) -> Vec<bool> {
        let rules = self.rules;
        f.params
            .iter()
            .zip(map)
            .map(|(p, hj)| match (target, hj) {
                _ if direct => is_output(&f.name, p, rules),
                (Some(h), Some(j)) => {
                    let hp = &h.params[*j];
                    let value = Rules::matches(&rules.attribute_values, &f.name, &p.name);
                    !hip_takes(hp)
                        || (is_output(&f.name, p, rules)
                            && (value
                                || matches!(&hp.ty, CType::Pointer { pointee, .. }
                                    if matches!(pointee.as_ref(), CType::Record { .. }))))
                }
                _ => is_output(&f.name, p, rules),
            })
            .collect()
    }

    /// cuda-python's parameters of `f`: its `inputs`, named as the spec renames them.
    fn cuda_params(&self, f: &RawFunction, inputs: &[usize]) -> Vec<CudaParam> {
        let rules = self.rules;
        inputs
            .iter()
            .map(|&i| CudaParam {
                name: self
                    .spec
                    .param_renames
                    .get(&f.params[i].name)
                    .cloned()
                    .unwrap_or_else(|| f.params[i].name.clone()),
                kernel_params: Rules::matches(&rules.kernel_params, &f.name, &f.params[i].name),
                attribute_value: Rules::matches(
                    &rules.attribute_values,
                    &f.name,
                    &f.params[i].name,
                ),
                integer: f.params[i].shape.depth == 0 && f.params[i].scalar_typedef.is_some(),
                location: self.is_location(f, &f.params[i]),
                record: struct_pointee(&f.params[i]).filter(|r| (self.reshaped)(r)),
            })
            .collect()
    }

    /// The stub of a joined function, with why.
    fn stub(&self, j: &Joined<'_>, why: &str) -> Stub {
        let f = j.f;
        Stub {
            cuda: f.name.clone(),
            module: f.module.clone(),
            status_type: f.status.clone(),
            status: self.spec.not_supported[&f.status].clone(),
            params: j.params.iter().map(|p| p.name.clone()).collect(),
            outputs: j.outs.iter().filter(|o| **o).count(),
            why: why.to_string(),
        }
    }

    /// The adapter of a joined function over HIP function `h` (not a direct call), HIP's
    /// function itself where the two are the same, or why they do not join.
    fn adapted(&self, j: Joined<'_>, module: &str, h: &Function) -> Planned {
        // HIP's returned values, in order, by HIP parameter index.
        let hip_outs: Vec<usize> = (0..h.params.len())
            .filter(|&k| !hip_takes(&h.params[k]))
            .collect();
        let plan = self.adapter_args(&j, h);
        let mut broken = plan.broken.clone();
        let mut results = Vec::new();
        for (c, p) in j.f.params.iter().enumerate() {
            if !j.outs[c] {
                continue;
            }
            match self.adapter_result(&j, c, p, h, &hip_outs, &plan) {
                Ok(r) => results.push(r),
                Err(why) => broken = Some(why),
            }
        }
        // HIP outputs CUDA does not return are dropped (none known).
        if let Some(why) = broken {
            return Planned::Mismatched(j.f.name.clone(), why);
        }
        if self.is_identity(&j, h, &plan.args, &results, hip_outs.len()) {
            return Planned::Same(j.f.name.clone());
        }
        Planned::Adapted(j.adapter(module, h, (plan.args, results, None)))
    }

    /// HIP's arguments: each HIP input from a CUDA input, a struct or cell the adapter
    /// makes for a CUDA output, or zero.
    fn adapter_args(&self, j: &Joined<'_>, h: &Function) -> ArgPlan {
        let f = j.f;
        let mut hip_to_cuda = vec![None; h.params.len()];
        for (c, hj) in j.map.iter().enumerate() {
            if let Some(k) = hj {
                hip_to_cuda[*k] = Some(c);
            }
        }
        let mut plan = ArgPlan::default();
        for (k, hp) in h.params.iter().enumerate() {
            if !hip_takes(hp) {
                continue;
            }
            let arg = match hip_to_cuda[k] {
                Some(c)
                    if j.outs[c]
                        && Rules::matches(
                            &self.rules.attribute_values,
                            &f.name,
                            &f.params[c].name,
                        ) =>
                {
                    plan.values.push(c);
                    AdapterArg::Value
                }
                Some(c) if j.outs[c] => match pointee(&hp.ty) {
                    Some(CType::Record { name }) => {
                        plan.made.push(c);
                        AdapterArg::New {
                            record: name.clone(),
                        }
                    }
                    _ => {
                        plan.broken = Some(format!("HIP takes {} as an input", hp.name));
                        AdapterArg::Zero
                    }
                },
                Some(c) => AdapterArg::Input {
                    index: j.inputs.iter().position(|&i| i == c).unwrap_or(0),
                },
                None => AdapterArg::Zero,
            };
            plan.args.push(arg);
        }
        plan
    }

    /// Where CUDA output `p` (at `c`) comes from: HIP's output, a cell or a struct the
    /// adapter made; or why HIP has none.
    fn adapter_result(
        &self,
        j: &Joined<'_>,
        c: usize,
        p: &RawParam,
        h: &Function,
        hip_outs: &[usize],
        plan: &ArgPlan,
    ) -> Result<AdapterResult, String> {
        let wrap = p.scalar_typedef.as_ref().map(|(n, _, _)| n.clone());
        let address = wrap.is_none()
            && p.shape
                == (Shape {
                    depth: 2,
                    base: Base::Void,
                });
        Ok(match j.map[c] {
            Some(k) if !hip_takes(&h.params[k]) => AdapterResult::Hip {
                index: hip_outs.iter().position(|&o| o == k).unwrap_or(0),
                wrap,
                address,
                handle: p.handle_name.clone().filter(|_| p.shape.depth == 1),
                record: struct_pointee(p),
            },
            Some(_) if plan.values.contains(&c) => AdapterResult::Value {
                index: plan.values.iter().position(|&v| v == c).unwrap_or(0),
                attribute: attribute_input(j.f, &j.inputs, self.spec),
            },
            Some(_) if plan.made.contains(&c) => AdapterResult::Made {
                index: plan.made.iter().position(|&m| m == c).unwrap_or(0),
                record: struct_pointee(p),
            },
            _ => return Err(format!("HIP has no output for {}", p.name)),
        })
    }

    /// Whether HIP's function serves as CUDA's as it is: every input and output in place,
    /// none converted.
    fn is_identity(
        &self,
        j: &Joined<'_>,
        h: &Function,
        args: &[AdapterArg],
        results: &[AdapterResult],
        hip_outs: usize,
    ) -> bool {
        j.dropped().is_empty()
            && results.len() == hip_outs
            && results
                .iter()
                .enumerate()
                .all(|(k, r)| matches!(r, AdapterResult::Hip { index, wrap: None, address: false, record: None, .. } if *index == k))
            && args.len() == j.inputs.len()
            && args
                .iter()
                .enumerate()
                .all(|(k, a)| matches!(a, AdapterArg::Input { index } if *index == k))
            // Parameter names alone do not make an adapter: a call through one costs more
            // than a keyword spelled CUDA's way is worth (keywords there are HIP's names).
            && j.params
                .iter()
                .all(|p| !p.kernel_params && !p.attribute_value && !p.location && p.record.is_none())
            // CUDA's integer address (`CUdeviceptr`) where HIP takes a pointer: cuda-python
            // truncates a float given there, as for any integer; HIP's pointer refuses one.
            && !j.inputs.iter().zip(&j.params).any(|(&c, p)| {
                p.integer && j.map[c].is_some_and(|k| matches!(h.params[k].ty, CType::Pointer { .. }))
            })
            && !self.spec.hip_functions.contains_key(&j.f.name)
    }
}

/// A header's include guard: the first `#ifndef X` (or `#if !defined(X)`) whose next
/// directive is `#define X`.
fn include_guard(text: &str) -> Option<String> {
    let directives: Vec<String> = text
        .lines()
        .map(|l| l.trim().replace("# ", "#"))
        .filter(|l| l.starts_with('#'))
        .collect();
    directives.windows(2).find_map(|w| {
        let x = w[0]
            .strip_prefix("#ifndef ")
            .or_else(|| w[0].strip_prefix("#if !defined(")?.strip_suffix(')'))?
            .trim();
        (w[1].split_whitespace().collect::<Vec<_>>() == ["#define", x]).then(|| x.to_string())
    })
}

/// How CUDA's C function `f` is HIP's `h` (`Adapter::c_call`), given the parameters'
/// alignment `map`: every HIP parameter must be one CUDA parameter of its kind, and a CUDA
/// parameter HIP lacks a pointer or an integer (passed on only as NULL or 0).
fn c_call(
    f: &RawFunction,
    h: &Function,
    map: &[Option<usize>],
    is_location: &dyn Fn(&RawParam) -> bool,
    reshaped: &dyn Fn(&str) -> bool,
) -> Option<Vec<i64>> {
    let mut hit = vec![false; h.params.len()];
    let mut out = Vec::new();
    for (p, hj) in f.params.iter().zip(map) {
        match hj {
            Some(j) => {
                if is_location(p) || struct_pointee(p).is_some_and(|r| reshaped(&r)) {
                    return None;
                }
                if std::mem::replace(&mut hit[*j], true) {
                    return None;
                }
                out.push(*j as i64);
            }
            None if p.shape.depth > 0 => out.push(Adapter::NULL_POINTER),
            None if matches!(p.shape.base, Base::Int(_)) => out.push(Adapter::ZERO),
            None => return None,
        }
    }
    hit.iter().all(|h| *h).then_some(out)
}

/// The struct a `T *` parameter points at, by cuda-python's name.
fn struct_pointee(p: &RawParam) -> Option<String> {
    let one = Shape {
        depth: 1,
        base: Base::Record,
    };
    (p.shape == one).then(|| p.record_name.clone()).flatten()
}

/// The input giving the attribute whose value a getter returns, with its enum, where the
/// spec types that enum's values.
fn attribute_input(
    f: &RawFunction,
    inputs: &[usize],
    spec: &ConventionsSpec,
) -> Option<(usize, String)> {
    inputs.iter().enumerate().find_map(|(k, &c)| {
        let e = f.params[c].enum_name.as_ref()?;
        spec.attribute_types.contains_key(e).then(|| (k, e.clone()))
    })
}

/// The C scalar type of a HIP type passed by value (`ptr` for any pointer or handle).
fn ctype(t: &CType) -> Option<&'static str> {
    Some(match t {
        CType::Bool => "bool",
        CType::Int { size, signed, .. } => match (size, signed) {
            (1, true) => "i8",
            (1, false) => "u8",
            (2, true) => "i16",
            (2, false) => "u16",
            (4, true) => "i32",
            (4, false) => "u32",
            (8, true) => "i64",
            (8, false) => "u64",
            _ => return None,
        },
        CType::Enum { .. } => "i32",
        CType::Float { size: 4 } => "f32",
        CType::Float { size: 8 } => "f64",
        CType::Handle { .. } | CType::Pointer { .. } | CType::Array { .. } => "ptr",
        _ => return None,
    })
}

/// What a HIP pointer parameter points at.
fn pointee(t: &CType) -> Option<&CType> {
    match t {
        CType::Pointer { pointee, .. } => Some(pointee),
        _ => None,
    }
}

/// How a direct call passes each C argument and returns each output, or why it cannot.
fn direct_plan(
    f: &RawFunction,
    h: &Function,
    map: &[Option<usize>],
    outs: &[bool],
    inputs: &[usize],
    rules: &Rules,
) -> Result<DirectCall, String> {
    let mut d = DirectPlanner {
        f,
        h,
        map,
        outs,
        inputs,
        rules,
        count: None,
    };
    // The count the function's handle arrays hold: its in/out integer.
    d.count = (0..f.params.len())
        .find(|&c| d.inout(c) && matches!(f.params[c].shape.base, Base::Int(_)))
        .and_then(|c| d.input(c));
    let (args, arg_of) = d.args()?;
    let mut results = Vec::new();
    for (c, p) in f.params.iter().enumerate() {
        if outs[c] || d.inout(c) {
            results.push(d.result(c, p, &args, &arg_of)?);
        }
    }
    Ok(DirectCall { args, results })
}

/// The plan of one direct call: the CUDA function joined to its HIP function.
struct DirectPlanner<'a> {
    f: &'a RawFunction,
    h: &'a Function,
    /// The HIP parameter each CUDA parameter feeds.
    map: &'a [Option<usize>],
    /// Per CUDA parameter: whether it is an output.
    outs: &'a [bool],
    /// The CUDA parameters Python passes, by CUDA index.
    inputs: &'a [usize],
    rules: &'a Rules,
    /// The input counting the function's handle arrays.
    count: Option<usize>,
}

impl DirectPlanner<'_> {
    /// The position among the inputs of CUDA parameter `c`.
    fn input(&self, c: usize) -> Option<usize> {
        self.inputs.iter().position(|&i| i == c)
    }

    /// The position among the inputs of the CUDA parameter named `name`.
    fn by_name(&self, name: &str) -> Result<usize, String> {
        self.f
            .params
            .iter()
            .position(|p| p.name == name)
            .and_then(|c| self.input(c))
            .ok_or_else(|| format!("no input named {name}"))
    }

    /// Whether CUDA parameter `c` is in/out (the spec's `inouts`).
    fn inout(&self, c: usize) -> bool {
        Rules::matches(&self.rules.inouts, &self.f.name, &self.f.params[c].name)
    }

    /// Whether CUDA parameter `c` is a list (the spec's `lists`).
    fn list(&self, c: usize) -> bool {
        Rules::matches(&self.rules.lists, &self.f.name, &self.f.params[c].name)
    }

    /// The C scalar type HIP parameter `j` points at.
    fn elem(&self, j: usize) -> Result<String, String> {
        let hp = &self.h.params[j];
        pointee(&hp.ty)
            .and_then(ctype)
            .map(str::to_string)
            .ok_or_else(|| format!("{} is not a pointer to a scalar", hp.name))
    }

    /// The C arguments in HIP's order, and the argument of each CUDA parameter.
    fn args(&self) -> Result<(Vec<DirectArg>, Vec<Option<usize>>), String> {
        let mut hip_to_cuda = vec![None; self.h.params.len()];
        for (c, hj) in self.map.iter().enumerate() {
            if let Some(j) = hj {
                hip_to_cuda[*j] = Some(c);
            }
        }
        let mut args = Vec::new();
        let mut arg_of = vec![None; self.f.params.len()];
        for (j, hp) in self.h.params.iter().enumerate() {
            let Some(c) = hip_to_cuda[j] else {
                let ct = ctype(&hp.ty).ok_or_else(|| format!("HIP's {} is a struct", hp.name))?;
                args.push(DirectArg::Zero {
                    ctype: ct.to_string(),
                });
                continue;
            };
            arg_of[c] = Some(args.len());
            args.push(self.arg(j, c)?);
        }
        Ok((args, arg_of))
    }

    /// How HIP parameter `j` is passed from CUDA parameter `c`.
    fn arg(&self, j: usize, c: usize) -> Result<DirectArg, String> {
        let (f, hp, p) = (self.f, &self.h.params[j], &self.f.params[c]);
        Ok(if self.inout(c) {
            DirectArg::InOut {
                index: self.input(c).unwrap_or(0),
                ctype: self.elem(j)?,
            }
        } else if self.list(c) {
            DirectArg::List {
                index: self.input(c).unwrap_or(0),
                ctype: self.elem(j)?,
            }
        } else if Rules::matches(&self.rules.value_lists, &f.name, &p.name) {
            self.values_arg()?
        } else if let Some(size) = self.rules.sized(&f.name, &p.name) {
            DirectArg::Sized {
                size: self.by_name(size)?,
            }
        } else if self.outs[c] {
            match (self.count, p.shape) {
                (
                    Some(count),
                    Shape {
                        depth: 1,
                        base: Base::Handle,
                    },
                ) => DirectArg::OutArray {
                    count,
                    ctype: self.elem(j)?,
                },
                _ => DirectArg::Out {
                    ctype: self.elem(j)?,
                },
            }
        } else {
            DirectArg::Input {
                index: self.input(c).unwrap_or(0),
                ctype: ctype(&hp.ty)
                    .ok_or_else(|| format!("HIP takes {} by value as a struct", hp.name))?
                    .to_string(),
            }
        })
    }

    /// A list of values: the attributes are the list of enums; sizes, if any, the list of
    /// integers.
    fn values_arg(&self) -> Result<DirectArg, String> {
        let f = self.f;
        let lists: Vec<usize> = (0..f.params.len()).filter(|&k| self.list(k)).collect();
        let attributes = lists
            .iter()
            .find(|&&k| f.params[k].enum_name.is_some())
            .and_then(|&k| self.input(k))
            .ok_or("no list of attributes")?;
        let sizes = lists
            .iter()
            .find(|&&k| f.params[k].enum_name.is_none())
            .and_then(|&k| self.input(k));
        let attribute_type = lists.iter().find_map(|&k| f.params[k].enum_name.clone());
        Ok(DirectArg::Values {
            attributes,
            sizes,
            attribute_type,
        })
    }

    /// How CUDA output (or in/out) `p` at `c` is returned from the C arguments `args`.
    fn result(
        &self,
        c: usize,
        p: &RawParam,
        args: &[DirectArg],
        arg_of: &[Option<usize>],
    ) -> Result<DirectResult, String> {
        // Per-element data HIP does not have (CUDA 13's `edgeData`): as many zeroed structs
        // as the count says, which is what CUDA reports for plain edges, the only ones HIP
        // makes.
        if let (None, Some(k), Some(record), 1) =
            (arg_of[c], self.count, &p.record_name, p.shape.depth)
        {
            if let Some(arg) = args
                .iter()
                .position(|a| matches!(a, DirectArg::InOut { index, .. } if *index == k))
            {
                return Ok(DirectResult {
                    arg,
                    kind: format!("zeroed:{record}"),
                });
            }
        }
        let arg = arg_of[c].ok_or_else(|| format!("HIP has no output for {}", p.name))?;
        let hip_elem = self.map[c].and_then(|j| pointee(&self.h.params[j].ty));
        let kind = match (&args[arg], hip_elem) {
            (DirectArg::Values { .. } | DirectArg::Sized { .. }, _) => "value".to_string(),
            // The CUDA handle class (cuda-python's `repr`), else HIP's.
            (_, Some(CType::Handle { name })) => match &p.handle_name {
                Some(cuda) => format!("handle:{cuda}"),
                None => format!("hip_handle:{name}"),
            },
            _ if p.enum_name.is_some() => format!("enum:{}", p.enum_name.as_deref().unwrap_or("")),
            _ => match &p.scalar_typedef {
                Some((name, _, _)) => format!("wrap:{name}"),
                None => "int".to_string(),
            },
        };
        Ok(DirectResult { arg, kind })
    }
}

/// Reads each API version's headers and plans every CUDA function of them.
pub fn generate<'a>(
    spec: &ConventionsSpec,
    cuda_headers: &Path,
    hip: &HipFunctions<'a>,
    hip_by_name: &HashMap<&'a str, (&'a str, &'a Function)>,
    hip_records: &crate::cuda::reshape::HipRecords<'_>,
) -> Result<Vec<ApiConventions>> {
    let rules = Rules::new(spec)?;
    spec.apis
        .iter()
        .map(|api| {
            let includes: Vec<PathBuf> = api.include.iter().map(|i| cuda_headers.join(i)).collect();
            let libs = parse_modules(spec, &includes, &api.version)
                .with_context(|| format!("CUDA {} conventions", api.version))?;
            let mut types = crate::cuda::types::from_ir(&libs);
            // A record's `kernelParams` field takes what such an argument takes.
            for r in &mut types.records {
                let names: Vec<String> = std::iter::once(&r.name).chain(&r.tag).cloned().collect();
                for f in &mut r.fields {
                    f.kernel_params = names
                        .iter()
                        .any(|n| Rules::matches(&rules.kernel_params, n, &f.name));
                }
            }
            types.reshaped = crate::cuda::reshape::reshaped(&types, hip_records);
            // A record is reshaped under any of its names (tag, typedefs).
            let primary: HashMap<&str, &str> = types
                .records
                .iter()
                .flat_map(|r| {
                    let names = std::iter::once(&r.name).chain(&r.tag).chain(&r.aliases);
                    names.map(move |n| (n.as_str(), r.name.as_str()))
                })
                .collect();
            let is_reshaped = |n: &str| {
                primary
                    .get(n)
                    .is_some_and(|p| types.reshaped.contains_key(*p))
            };
            let funcs = ir_functions(spec, &libs);
            let (hip, differing) =
                with_same_names(hip, &funcs, hip_by_name, spec.same_names.as_ref())?;
            let ctx = PlanCtx {
                hip: &hip,
                differing: &differing,
                spec,
                rules: &rules,
                reshaped: &is_reshaped,
            };
            let mut conventions = plan(&api.version, &funcs, &ctx);
            conventions.types = types;
            for (header, module) in &spec.guarded {
                let Some(text) = includes
                    .iter()
                    .find_map(|i| std::fs::read_to_string(i.join(header)).ok())
                else {
                    continue;
                };
                if let Some(guard) = include_guard(&text) {
                    let guards = conventions
                        .include_guards
                        .entry(module.clone())
                        .or_default();
                    guards.push(guard);
                }
            }
            conventions.cuda_version = libs
                .iter()
                .flat_map(|l| &l.constants)
                .find(|c| c.name == "CUDA_VERSION")
                .and_then(|c| match c.value {
                    crate::ir::ConstValue::Int(v) => Some(v),
                    _ => None,
                });
            Ok(conventions)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::Param;

    fn c(name: &str, depth: u8, base: Base) -> RawParam {
        RawParam {
            name: name.into(),
            shape: Shape { depth, base },
            const_pointee: false,
            scalar_typedef: None,
            enum_name: None,
            record_name: None,
            handle_name: None,
        }
    }

    fn h(name: &str, ty: CType, usage: Usage) -> Param {
        Param {
            name: name.into(),
            spelling: String::new(),
            ty,
            usage,
            size_param: None,
            written: false,
            list: false,
            count: None,
            sized_by: None,
            results_depend: false,
        }
    }

    fn int(size: u8) -> CType {
        CType::Int {
            size,
            signed: false,
            is_char: false,
        }
    }

    fn ptr(t: CType) -> CType {
        CType::Pointer {
            pointee: Box::new(t),
            is_const: false,
        }
    }

    #[test]
    fn aligns_a_hip_parameter_cuda_lacks() {
        // cudaMallocHost(void **ptr, size_t size) → hipHostMalloc(ptr, size, flags)
        let cuda = [c("ptr", 2, Base::Void), c("size", 0, Base::Int(8))];
        let hip = [
            h("ptr", ptr(ptr(CType::Void)), Usage::Out),
            h("size", int(8), Usage::In),
            h("flags", int(4), Usage::In),
        ];
        assert_eq!(align(&cuda, &hip), [Some(0), Some(1)]);
    }

    #[test]
    fn aligns_past_a_cuda_parameter_hip_lacks() {
        // CUDA 13's cuCtxCreate(pctx, ctxCreateParams, flags, dev) → hipCtxCreate(ctx, flags, device)
        let cuda = [
            c("pctx", 1, Base::Handle),
            c("ctxCreateParams", 1, Base::Record),
            c("flags", 0, Base::Int(4)),
            c("dev", 0, Base::Int(4)),
        ];
        let handle = CType::Handle {
            name: "ihipCtx_t".into(),
        };
        let hip = [
            h("ctx", ptr(handle), Usage::Out),
            h("flags", int(4), Usage::In),
            h("device", int(4), Usage::In),
        ];
        assert_eq!(align(&cuda, &hip), [Some(0), None, Some(1), Some(2)]);
    }

    #[test]
    fn a_cuda_handle_stands_for_a_hip_struct_pointer() {
        // cudaMemcpy2DToArray(cudaArray_t dst, ...) → HIP 5's hipMemcpy2DToArray(hipArray *dst, ...)
        let cuda = [c("dst", 0, Base::Handle), c("wOffset", 0, Base::Int(8))];
        let array = CType::Record {
            name: "hipArray".into(),
        };
        let hip = [
            h("dst", ptr(array), Usage::Pointer),
            h("wOffset", int(8), Usage::In),
        ];
        assert_eq!(align(&cuda, &hip), [Some(0), Some(1)]);
    }

    #[test]
    fn callbacks_and_numbered_objects_stand_for_hip_handles() {
        // cudaStreamAddCallback(stream, callback, userData, flags) and
        // cudaGetTextureObjectTextureDesc(pTexDesc, texObject)
        let handle = |n: &str| CType::Handle { name: n.into() };
        let cuda = [c("stream", 0, Base::Handle), c("callback", 0, Base::Func)];
        let hip = [
            h("stream", handle("ihipStream_t"), Usage::In),
            h("callback", handle("hipStreamCallback_t"), Usage::In),
        ];
        assert_eq!(align(&cuda, &hip), [Some(0), Some(1)]);
        let mut tex = c("texObject", 0, Base::Int(8));
        tex.scalar_typedef = Some(("cudaTextureObject_t".into(), 8, false));
        let desc = CType::Record {
            name: "hipTextureDesc".into(),
        };
        let cuda = [c("pTexDesc", 1, Base::Record), tex];
        let hip = [
            h("pTexDesc", ptr(desc), Usage::Pointer),
            h("textureObject", handle("__hip_texture"), Usage::In),
        ];
        assert_eq!(align(&cuda, &hip), [Some(0), Some(1)]);
    }

    #[test]
    fn direct_plan_fills_an_array_of_the_count_given() {
        // cudaGraphGetNodes(graph, nodes, numNodes) → cuda-python's (graph, numNodes) returning
        // (err, nodes, numNodes): HIP's bindings return numNodes, so the C function is called.
        let mut graph = c("graph", 0, Base::Handle);
        graph.handle_name = Some("cudaGraph_t".into());
        let mut nodes = c("nodes", 1, Base::Handle);
        nodes.handle_name = Some("cudaGraphNode_t".into());
        let f = RawFunction {
            name: "cudaGraphGetNodes".into(),
            module: "runtime".into(),
            status: "cudaError_t".into(),
            params: vec![graph, nodes, c("numNodes", 1, Base::Int(8))],
        };
        let handle = |n: &str| CType::Handle { name: n.into() };
        let h = Function {
            name: "hipGraphGetNodes".into(),
            params: vec![
                h("graph", handle("ihipGraph"), Usage::In),
                h("nodes", ptr(handle("hipGraphNode")), Usage::Out),
                h("numNodes", ptr(int(8)), Usage::Out),
            ],
            symbol: "hipGraphGetNodes".into(),
            ret: CType::Enum {
                name: "hipError_t".into(),
                size: 4,
                signed: true,
            },
            ret_spelling: String::new(),
            calls: Vec::new(),
            deprecated: false,
            keep_gil: false,
            destroys: false,
            serialize: false,
            doc: Default::default(),
        };
        let rules = Rules {
            inputs: vec![],
            kernel_params: vec![],
            attribute_values: vec![],
            inouts: vec![Regex::new(r"\.numNodes$").unwrap()],
            lists: vec![],
            value_lists: vec![],
            sized_values: vec![],
            locations: vec![],
        };
        let outs: Vec<bool> = f
            .params
            .iter()
            .map(|p| is_output(&f.name, p, &rules))
            .collect();
        assert_eq!(outs, [false, true, false]);
        let inputs = [0, 2];
        let map = align(&f.params, &h.params);
        let call = direct_plan(&f, &h, &map, &outs, &inputs, &rules).unwrap();
        assert_eq!(
            call.args,
            [
                DirectArg::Input {
                    index: 0,
                    ctype: "ptr".into()
                },
                DirectArg::OutArray {
                    count: 1,
                    ctype: "ptr".into()
                },
                DirectArg::InOut {
                    index: 1,
                    ctype: "u64".into()
                },
            ]
        );
        let kinds: Vec<&str> = call.results.iter().map(|r| r.kind.as_str()).collect();
        assert_eq!(kinds, ["handle:cudaGraphNode_t", "int"]);
    }

    #[test]
    fn outputs_by_cuda_rule() {
        let rules = Rules {
            inputs: vec![Regex::new(r"\.ctxCreateParams$").unwrap()],
            kernel_params: vec![Regex::new(r"\.kernelParams$").unwrap()],
            attribute_values: vec![Regex::new(r"^cuMemPool(Get|Set)Attribute\.value$").unwrap()],
            inouts: vec![Regex::new(r"\.numNodes$").unwrap()],
            lists: vec![Regex::new(r"\.options$").unwrap()],
            value_lists: vec![],
            sized_values: vec![(Regex::new(r"\.data$").unwrap(), "dataSize".into())],
            locations: vec![],
        };
        // In/out and list parameters are inputs; a sized value is an output.
        assert!(!is_output("f", &c("numNodes", 1, Base::Int(8)), &rules));
        assert!(!is_output("f", &c("options", 1, Base::Int(4)), &rules));
        assert!(is_output("f", &c("data", 1, Base::Void), &rules));
        assert!(is_output("f", &c("prop", 1, Base::Record), &rules));
        assert!(!is_output(
            "f",
            &c("ctxCreateParams", 1, Base::Record),
            &rules
        ));
        assert!(!is_output("f", &c("kernelParams", 2, Base::Void), &rules));
        assert!(is_output("f", &c("pp", 2, Base::Void), &rules));
        assert!(!is_output("f", &c("buf", 1, Base::Void), &rules));
        let mut konst = c("desc", 1, Base::Record);
        konst.const_pointee = true;
        assert!(!is_output("f", &konst, &rules));
        // An attribute's value: returned by the getter, given to the setter.
        let value = c("value", 1, Base::Void);
        assert!(is_output("cuMemPoolGetAttribute", &value, &rules));
        assert!(!is_output("cuMemPoolSetAttribute", &value, &rules));
    }
}
