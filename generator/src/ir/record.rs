//! Structs, unions and opaque handles, with the layout the C compiler gives them.

use super::{CType, Doc};
use serde::{Deserialize, Serialize};

/// A struct or union with a complete definition.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Record {
    /// API name: the typedef or tag name; nested anonymous records are named after their
    /// parent (`hipArrayMapInfo_union_0`).
    pub name: String,
    /// Other names of the record (its tag or typedefs).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub aliases: Vec<String>,
    /// `union` rather than `struct`.
    pub is_union: bool,
    /// A struct or union with no name of its own, declared inside another (named here
    /// after its parent).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub anonymous: bool,
    /// `sizeof`.
    pub size: u64,
    /// `alignof`.
    pub align: u64,
    /// Fields in declaration order.
    pub fields: Vec<Field>,
    /// Documentation.
    #[serde(default, skip_serializing_if = "Doc::is_empty")]
    pub doc: Doc,
}

/// One field of a record.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Field {
    /// Field name (anonymous members get `union_0`/`struct_0`-style names).
    pub name: String,
    /// Its type.
    pub ty: CType,
    /// How C spells the type.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub spelling: String,
    /// Offset from the start of the record, in bits.
    pub offset_bits: u64,
    /// Width of a bitfield.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bit_width: Option<u32>,
    /// Default value set by the keyword constructor (from the spec, e.g. `dim3`'s 1s).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default: Option<i64>,
}

/// An opaque pointer type with a Python class of its own (`ihipStream_t`, alias `hipStream_t`).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Handle {
    /// Python class name (the pointee's tag name, or the typedef for function pointers).
    pub name: String,
    /// Typedef names that are aliases of the class.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub aliases: Vec<String>,
    /// Whether it is a function pointer (a callback's type), not a pointer to a struct.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub callback: bool,
}
