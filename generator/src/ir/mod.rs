//! The language-neutral model of one C library: parsing produces it, rendering consumes it.
//! It is plain serde data, so `hipgen ir` can dump it and `hipgen diff` can compare releases.

pub mod alias;
pub mod comment;
pub mod constant;
pub mod enum_ty;
pub mod function;
pub mod record;
pub mod types;

pub use alias::{
    Adapter, AdapterArg, AdapterResult, Alias, AliasKind, AliasModule, AliasSet, ApiConventions,
    CudaConstant, CudaEnumDecl, CudaField, CudaFieldType, CudaHandle, CudaParam, CudaRecord,
    CudaTypes, DirectArg, DirectCall, DirectResult, EnumMembers, HandleConstant, LocationType,
    NvrtcOption, PythonModule, Stub, WrapperType,
};
pub use comment::Doc;
pub use constant::{ConstValue, Constant, TypedConstant};
pub use enum_ty::Enum;
pub use function::{Function, Param, Usage};
pub use record::{Field, Handle, Record};
pub use types::CType;

use serde::{Deserialize, Serialize};

/// Everything hipgen knows about one library of one ROCm release.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Library {
    /// Spec name, e.g. `hip`.
    pub name: String,
    /// ROCm release the headers came from, e.g. `6.4.3`.
    pub release: String,
    /// Headers parsed, relative to the include directory.
    pub headers: Vec<String>,
    /// Functions in header order.
    pub functions: Vec<Function>,
    /// Enums in header order.
    pub enums: Vec<Enum>,
    /// Structs and unions, nested ones after their parents.
    pub records: Vec<Record>,
    /// Opaque handle types (typedefs of pointers to records, function pointers).
    pub handles: Vec<Handle>,
    /// Typedef names of `void *` (Python aliases of `Pointer`).
    pub pointer_aliases: Vec<String>,
    /// Those of them that are opaque handles, not memory (set by binding, from the spec's
    /// `memory_typedefs`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub opaque_pointers: Vec<String>,
    /// Integer macro constants and anonymous enumerators.
    pub constants: Vec<Constant>,
    /// Macros casting an integer to a named type (handle constants).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub typed_constants: Vec<TypedConstant>,
    /// Declarations seen but left out, with the reason (reported, never silent).
    pub skipped: Vec<Skipped>,
}

/// A declaration the generator could not bind, and why.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Skipped {
    /// Its name.
    pub name: String,
    /// Why it was left out.
    pub reason: String,
}
