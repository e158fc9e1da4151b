//! CUDA names of HIP objects: which CUDA function, type, enum member or constant each HIP
//! name stands for, read from an authoritative CUDA→HIP table and checked against the IRs of
//! the HIP modules, so only names that exist in the bindings are kept.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Every CUDA alias of one ROCm release.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct AliasSet {
    /// Spec name, e.g. `cuda`.
    pub name: String,
    /// ROCm release of the HIP IRs the aliases point into.
    pub release: String,
    /// The table read (file name) and the sections of it used.
    pub source: String,
    /// One entry per HIP module aliased, in spec order.
    pub modules: Vec<AliasModule>,
    /// Table entries whose HIP name is not in the bindings (other libraries, device code,
    /// newer releases), by the table's own category.
    pub unresolved: Vec<(String, usize)>,
    /// cuda-python's calling conventions per API version, where the spec asks for them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub apis: Vec<ApiConventions>,
    /// The package's Python modules, in the spec's order.
    #[serde(default)]
    pub python_modules: Vec<PythonModule>,
    /// CUDA name → the hand-written module whose function it is wherever a module has it.
    #[serde(default)]
    pub overrides: BTreeMap<String, String>,
    /// NVRTC's options as hiprtc takes them, one row per spelling.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub nvrtc_options: Vec<NvrtcOption>,
}

/// One spelling of an NVRTC option and what hiprtc is given for it.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct NvrtcOption {
    /// The spelling (`--fmad`).
    pub name: String,
    /// `arch` (becomes `--offload-arch`), `to` (becomes `to`, `{value}` its value), `switch`
    /// (`to` when its value is true or absent, else `off`) or `drop` (dropped with a warning).
    pub kind: String,
    /// What it becomes.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub to: Vec<String>,
    /// What a switch becomes when false.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub off: Vec<String>,
}

/// One Python module of the alias package (`cuda.bindings.driver`), as the spec's
/// `python_modules` gives it.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct PythonModule {
    /// Its name (`cuda.bindings.driver`).
    pub module: String,
    /// The name a build selects it by (`build_pkgs.sh --cuda-libs cuda`).
    pub lib: String,
    /// The legacy module that is the same module (`cuda.cuda`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub legacy: Option<String>,
    /// HIP modules whose CUDA names it holds, the first being `hip_python_mod`.
    pub hip_modules: Vec<String>,
    /// Hand-written modules whose `__all__` it adds.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub extras: Vec<String>,
    /// The hand-written module whose functions stand in for its "not supported" stubs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub emulated: Option<String>,
}

impl PythonModule {
    /// cuda-python's kind of module: the last part of its name (`driver`).
    pub fn kind(&self) -> &str {
        self.module.rsplit('.').next().unwrap_or(&self.module)
    }
}

/// The CUDA names of one HIP module's objects.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct AliasModule {
    /// The HIP module (`hip`, `hiprtc`).
    pub module: String,
    /// Module-level names, sorted by CUDA name.
    pub names: Vec<Alias>,
    /// CUDA member names of HIP enums, by HIP enum (canonical name), sorted.
    pub members: Vec<EnumMembers>,
}

/// One CUDA name and the HIP object it is.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq, PartialOrd, Ord)]
pub struct Alias {
    /// CUDA name, e.g. `cudaMalloc`.
    pub cuda: String,
    /// HIP name as the module exposes it, e.g. `hipMalloc`.
    pub hip: String,
    /// What the HIP object is.
    pub kind: AliasKind,
    /// The canonical HIP enum name when `kind` is `enum` (an alias such as
    /// `hipExternalMemoryHandleType` names the class `hipExternalMemoryHandleType_enum`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hip_enum: Option<String>,
}

/// Kinds of HIP objects a CUDA name can stand for.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq, PartialOrd, Ord)]
#[serde(rename_all = "snake_case")]
pub enum AliasKind {
    Function,
    Enum,
    Record,
    Handle,
    Pointer,
    Constant,
}

impl AliasKind {
    /// The name used in generated code and by the Python layer.
    pub fn as_str(self) -> &'static str {
        match self {
            AliasKind::Function => "function",
            AliasKind::Enum => "enum",
            AliasKind::Record => "record",
            AliasKind::Handle => "handle",
            AliasKind::Pointer => "pointer",
            AliasKind::Constant => "constant",
        }
    }
}

/// The CUDA names of one HIP enum's members.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct EnumMembers {
    /// Canonical HIP enum name.
    pub hip_enum: String,
    /// (CUDA member, HIP member) pairs.
    pub members: Vec<(String, String)>,
}

/// cuda-python's calling conventions of one API version (cuda-bindings 12 or 13), as far as
/// they differ from the HIP functions' own.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct ApiConventions {
    /// Major version of cuda-bindings (`12`, `13`).
    pub version: String,
    /// `CUDA_VERSION` of the headers read (`13050`: CUDA 13.5), which cuda-bindings'
    /// version follows.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cuda_version: Option<i64>,
    /// The bit that marks an enum value as CUDA's own member (`cuda::CUDA_MEMBER_TAG`),
    /// which the NVIDIA shims pass to CUDA as that member.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cuda_member_tag: Option<i64>,
    /// CUDA functions called as their HIP function is (the CUDA name is the HIP object),
    /// sorted.
    pub same: Vec<String>,
    /// CUDA functions called through an adapter, sorted by CUDA name.
    pub adapted: Vec<Adapter>,
    /// CUDA functions that return "not supported", sorted by CUDA name.
    pub stubs: Vec<Stub>,
    /// CUDA's integer typedefs that cuda-python returns as their own class (`CUdevice`).
    pub wrappers: Vec<WrapperType>,
    /// CUDA functions whose HIP function takes or returns other things than cuda-python's
    /// (with why): the CUDA name is the HIP object, called as HIP's bindings call it.
    pub mismatched: Vec<(String, String)>,
    /// CUDA status type → the member that says "not supported".
    pub not_supported: BTreeMap<String, String>,
    /// Attribute enum → member → the C type of the value it stands for (`i32`), where it is
    /// not 64 unsigned bits: how cuda-python types an attribute's value.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub attribute_types: BTreeMap<String, BTreeMap<String, String>>,
    /// cuda-python module → the struct it gives a memory location in, where HIP takes a
    /// device ordinal.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub location_types: BTreeMap<String, LocationType>,
    /// cuda-python module → the include guards of the CUDA headers its Cython `.pxd` stands
    /// for (`__CUDA_RUNTIME_API_H__`).
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub include_guards: BTreeMap<String, Vec<String>>,
    /// The enums, handles and handle constants CUDA's headers declare.
    #[serde(default)]
    pub types: CudaTypes,
}

/// A memory location struct of cuda-python (`CUmemLocation`): a device's (its `id`) or the
/// host's (HIP's `hipCpuDeviceId`, -1) where HIP takes a device ordinal.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct LocationType {
    /// cuda-python's struct.
    #[serde(rename = "struct")]
    pub struct_name: String,
    /// Its `type` field's enum.
    pub kind: String,
    /// The member meaning a device.
    pub device: String,
    /// The member meaning the host.
    pub host: String,
    /// HIP's struct of the same meaning, which is taken too.
    pub hip: String,
}

/// The types of CUDA's headers, by cuda-python's names.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct CudaTypes {
    /// Enums with CUDA's values, sorted by name.
    pub enums: Vec<CudaEnumDecl>,
    /// Opaque handle typedefs (`typedef struct CUlib_st *CUlibrary`), sorted by name.
    pub handles: Vec<CudaHandle>,
    /// `#define CU_STREAM_LEGACY ((CUstream)0x1)`.
    pub handle_constants: Vec<HandleConstant>,
    /// Integer `#define`s (`cudaArraySparse`), sorted by name: a CUDA name HIPIFY maps to no
    /// HIP constant is CUDA's value.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub constants: Vec<CudaConstant>,
    /// Structs and unions with their layout, sorted by name (anonymous members named
    /// `<outer>_<field>`).
    #[serde(default)]
    pub records: Vec<CudaRecord>,
    /// Records HIP's counterpart of which lacks some of their field names (or holds them in
    /// another shape), with why: the cuda package gives these CUDA's layout and converts
    /// them field by field at HIP calls (see `cuda/reshape.rs`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub reshaped: BTreeMap<String, Vec<String>>,
}

/// An integer `#define` of CUDA's headers.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct CudaConstant {
    /// Macro name.
    pub name: String,
    /// cuda-python module.
    pub module: String,
    /// Its value.
    pub value: i64,
}

/// A CUDA struct or union, for the cuda-python class of one HIP has no counterpart of.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct CudaRecord {
    /// cuda-python's name: the typedef's, else the tag's.
    pub name: String,
    /// The tag, where cuda-python names the class by it too (`CUmemDecompressParams_st`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tag: Option<String>,
    /// Other typedef names of the same struct (`CUexecAffinityParam_v1`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub aliases: Vec<String>,
    /// cuda-python module.
    pub module: String,
    /// An anonymous member's type (named here `<outer>_<field>`, not a name of the module).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub anonymous: bool,
    /// Size in bytes.
    pub size: u64,
    /// Fields in declaration order.
    pub fields: Vec<CudaField>,
}

/// One field of a CUDA record.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct CudaField {
    /// Field name.
    pub name: String,
    /// Offset in bytes.
    pub offset: u64,
    /// What it holds.
    pub ty: CudaFieldType,
    /// A `void **` cuda-python sets in any of its `kernelParams` forms (the spec's
    /// `kernel_params` rule, as for arguments): the record keeps what they were packed into.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub kernel_params: bool,
}

/// What a CUDA record field holds, as cuda-python presents it.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum CudaFieldType {
    /// An integer (`bool` and `char` included) of `size` bytes.
    Int { size: u64, signed: bool },
    /// A floating-point number.
    Float { size: u64 },
    /// A CUDA enum, by cuda-python's name.
    Enum { name: String, size: u64 },
    /// A handle (or function pointer) class, by name.
    Handle { name: String },
    /// Any other pointer: an address (`void *` ones print as hex in cuda-python's repr).
    Pointer {
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        to_void: bool,
        /// What it points at, where that is a handle, a named struct or a number: cuda-python
        /// sets such a field from a list (an array the struct keeps).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        elem: Option<Box<CudaFieldType>>,
    },
    /// A struct or union, by name.
    Record { name: String },
    /// `elem[len]`.
    Array { elem: Box<CudaFieldType>, len: u64 },
    /// Bytes the class does not interpret (bitfields, vectors).
    Opaque { size: u64 },
}

/// One CUDA enum.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct CudaEnumDecl {
    /// cuda-python's name: the typedef's, else the tag's.
    pub name: String,
    /// cuda-python module.
    pub module: String,
    /// (member, value) in declaration order.
    pub members: Vec<(String, i64)>,
}

/// One CUDA handle type.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct CudaHandle {
    /// Typedef name.
    pub name: String,
    /// cuda-python module.
    pub module: String,
}

/// A constant of a handle type.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct HandleConstant {
    /// Macro name.
    pub name: String,
    /// cuda-python module.
    pub module: String,
    /// Handle type.
    pub handle: String,
    /// Its address value.
    pub value: u64,
}

/// How one CUDA function calls its HIP function.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Adapter {
    /// CUDA name (`cudaGetDeviceProperties`).
    pub cuda: String,
    /// cuda-python module (`driver`, `runtime`, `nvrtc`).
    pub module: String,
    /// CUDA's status type (`CUresult`), whose "not supported" member answers a CUDA-only
    /// input the adapter cannot pass on.
    pub status_type: String,
    /// HIP module of the function called.
    pub hip_module: String,
    /// HIP function called.
    pub hip: String,
    /// cuda-python's parameters (the inputs), in order.
    pub params: Vec<CudaParam>,
    /// One per argument of the HIP function's Python signature, in order.
    pub args: Vec<AdapterArg>,
    /// cuda-python's outputs, in order, after the status.
    pub results: Vec<AdapterResult>,
    /// Inputs (indices into `params`) HIP has no parameter for: only their null value is
    /// accepted.
    pub dropped: Vec<usize>,
    /// Where HIP's bindings cannot take cuda-python's arguments (in/out values, lists,
    /// arrays the call fills), the C function is called itself: `args` and `results` are
    /// then empty and this says how.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub direct: Option<DirectCall>,
    /// How CUDA's C function is HIP's (the C level, `.pxd`): per CUDA parameter, the HIP
    /// parameter it is, or `NULL_POINTER` / `ZERO` for one HIP lacks (which must be null);
    /// none where a parameter needs converting (a location, a struct of another layout).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub c_call: Option<Vec<i64>>,
}

impl Adapter {
    /// In `c_call`: a CUDA pointer parameter HIP lacks, which must be NULL.
    pub const NULL_POINTER: i64 = -1;
    /// In `c_call`: a CUDA integer parameter HIP lacks, which must be 0.
    pub const ZERO: i64 = -2;
}

/// A call of the HIP function's C symbol, argument by argument.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct DirectCall {
    /// One per C parameter of the HIP function, in order.
    pub args: Vec<DirectArg>,
    /// cuda-python's outputs after the status, in order.
    pub results: Vec<DirectResult>,
}

/// Where one C argument of a direct call comes from. `ctype` is a C scalar type: `i8` …
/// `u64`, `f32`, `f64`, `bool` or `ptr`; `index` and the other positions count cuda-python's
/// inputs (`Adapter::params`).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(tag = "from", rename_all = "snake_case")]
pub enum DirectArg {
    /// An input, by value.
    Input { index: usize, ctype: String },
    /// Zero (a parameter CUDA does not have).
    Zero { ctype: String },
    /// The address of one value the call writes, returned.
    Out { ctype: String },
    /// The address of one value taken from an input and returned after the call (a count
    /// of elements in, the count written out; a mode swapped).
    InOut { index: usize, ctype: String },
    /// A list input, as a C array.
    List { index: usize, ctype: String },
    /// An array of as many elements as the input at `count` says (NULL for none), returned
    /// as a list.
    OutArray { count: usize, ctype: String },
    /// `void **`: one attribute value per element of the list input `attributes`, each in
    /// memory of its own of the size the list input `sizes` gives (else by the attribute's
    /// type), returned as a list.
    Values {
        attributes: usize,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        sizes: Option<usize>,
        /// The attributes' enum (`CUpointer_attribute`), whose values `attribute_types` types.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        attribute_type: Option<String>,
    },
    /// `void *`: an attribute's value in as many bytes as the input at `size` says,
    /// returned (one 32-bit integer as an `int`, more as a list of them).
    Sized { size: usize },
}

/// One cuda-python output of a direct call.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct DirectResult {
    /// The C argument (index into `DirectCall::args`) that holds it.
    pub arg: usize,
    /// How it is given to Python: `int`, `value` (as the argument says), `enum:<CUDA enum>`,
    /// `handle:<CUDA handle class>`, `hip_handle:<HIP handle class>`, `wrap:<CUDA integer typedef>`, or `zeroed:<CUDA struct>`:
    /// a list of as many zeroed structs as the count at `arg` was given (data HIP lacks).
    pub kind: String,
}

/// One cuda-python parameter.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct CudaParam {
    /// Name as in CUDA's header.
    pub name: String,
    /// Kernel arguments, in any of cuda-python's forms.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub kernel_params: bool,
    /// A CUDA integer typedef (`CUdevice`): cuda-python reads `None` as 0.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub integer: bool,
    /// An attribute's value where C takes its address (a setter's `void *value`): an
    /// integer is passed in memory of its own.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub attribute_value: bool,
    /// A memory location (`CUmemLocation`) where HIP takes a device ordinal: a device's
    /// location gives its ordinal, the host's `hipCpuDeviceId`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub location: bool,
    /// A pointer to a reshaped CUDA struct (by name): the adapter gives HIP's function a HIP
    /// struct with the same field values.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub record: Option<String>,
}

/// Where one HIP argument comes from.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(tag = "from", rename_all = "snake_case")]
pub enum AdapterArg {
    /// The cuda-python argument at `index`.
    Input { index: usize },
    /// A new instance of a HIP struct, filled by the call and returned.
    New { record: String },
    /// Zero (a HIP parameter CUDA does not have, such as flags).
    Zero,
    /// The address of 8 zeroed bytes the call writes an attribute's value into, returned.
    Value,
}

/// Where one cuda-python output comes from.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(tag = "from", rename_all = "snake_case")]
pub enum AdapterResult {
    /// The HIP function's output at `index` (after the status), wrapped in the CUDA
    /// integer class `wrap` if given.
    Hip {
        index: usize,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        wrap: Option<String>,
        /// A `void **` output: cuda-python returns the address as an `int` (HIP's bindings
        /// return a pointer object).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        address: bool,
        /// A handle: returned as an instance of CUDA's handle class of this name
        /// (`CUcontext`, which prints as cuda-python's does).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        handle: Option<String>,
        /// A struct: returned as an instance of CUDA's class of this name.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        record: Option<String>,
    },
    /// The `index`-th struct the adapter made (`AdapterArg::New`), returned as an instance
    /// of CUDA's class `record`.
    Made {
        index: usize,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        record: Option<String>,
    },
    /// The value the call wrote into the `index`-th `AdapterArg::Value`, typed as
    /// `attribute_types` says for the attribute the input at `attribute.0` (an enum
    /// `attribute.1`) gives.
    Value {
        index: usize,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        attribute: Option<(usize, String)>,
    },
}

/// A CUDA function without a HIP equivalent.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Stub {
    /// CUDA name.
    pub cuda: String,
    /// cuda-python module.
    pub module: String,
    /// CUDA's status type (`CUresult`).
    pub status_type: String,
    /// The status it returns (`CUDA_ERROR_NOT_SUPPORTED`).
    pub status: String,
    /// cuda-python's parameters.
    pub params: Vec<String>,
    /// How many outputs cuda-python returns (each `None` here).
    pub outputs: usize,
    /// Why HIP cannot run it.
    pub why: String,
}

/// A CUDA integer typedef with its own class in cuda-python.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct WrapperType {
    /// Typedef name (`CUdeviceptr`).
    pub name: String,
    /// Size in bytes.
    pub size: u8,
    /// Whether it is signed.
    pub signed: bool,
}
