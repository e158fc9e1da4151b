//! C enums, named by their API (typedef) name.

use super::Doc;
use serde::{Deserialize, Serialize};

/// An enum with its members in declaration order (aliases of a value included).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Enum {
    /// API name (the typedef name for `typedef enum {..} X;`).
    pub name: String,
    /// Other names of the same enum (tag or typedef).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub aliases: Vec<String>,
    /// Size of the underlying integer in bytes.
    pub size: u8,
    /// Whether the underlying integer is signed.
    pub signed: bool,
    /// Members: name and value.
    pub members: Vec<(String, i64)>,
    /// Documentation.
    #[serde(default, skip_serializing_if = "Doc::is_empty")]
    pub doc: Doc,
}
