//! CUDA names of HIP objects: which CUDA function, type, enum member or constant each HIP
//! name stands for, read from an authoritative CUDA→HIP table and checked against the IRs of
//! the HIP modules, so only names that exist in the bindings are kept.

use serde::{Deserialize, Serialize};

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
