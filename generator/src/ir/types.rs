//! C types as the renderer needs them: typedefs resolved, named types kept by name.

use serde::{Deserialize, Serialize};

/// A C type, with typedefs looked through but enums, records and handles kept by name.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum CType {
    /// `void`.
    Void,
    /// `bool`.
    Bool,
    /// A signed or unsigned integer of `size` bytes (`char` included).
    Int {
        /// Size in bytes.
        size: u8,
        /// Whether it is signed.
        signed: bool,
        /// Whether it was spelled `char` (so arrays of it are text).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        is_char: bool,
    },
    /// `float` (4) or `double` (8).
    Float {
        /// Size in bytes.
        size: u8,
    },
    /// An enum, by its API name.
    Enum {
        /// API name of the enum.
        name: String,
        /// Size of its underlying integer in bytes.
        size: u8,
        /// Whether its underlying integer is signed.
        signed: bool,
    },
    /// A struct or union, by its API name.
    Record {
        /// API name of the record.
        name: String,
    },
    /// An opaque handle (`hipStream_t`), by the name of its Python class.
    Handle {
        /// Python class name of the handle.
        name: String,
    },
    /// A pointer.
    Pointer {
        /// What it points at.
        pointee: Box<CType>,
        /// Whether the pointee is `const`.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        is_const: bool,
    },
    /// A fixed-size array.
    Array {
        /// Element type.
        elem: Box<CType>,
        /// Number of elements.
        len: u64,
    },
    /// A type hipgen cannot bind (long double, vectors, ...).
    Unsupported {
        /// How C spells it.
        spelling: String,
    },
}

impl CType {
    /// Whether this is `char` (signed or not).
    pub fn is_char(&self) -> bool {
        matches!(self, CType::Int { is_char: true, .. })
    }

    /// Whether this is a pointer to `char` (`char *`, `const char *`).
    pub fn points_at_char(&self) -> bool {
        matches!(self, CType::Pointer { pointee, .. } if pointee.is_char())
    }

    /// Whether a value of this type is a plain number (integer, float, bool or enum).
    pub fn is_scalar(&self) -> bool {
        matches!(
            self,
            CType::Bool | CType::Int { .. } | CType::Float { .. } | CType::Enum { .. }
        )
    }

    /// Whether the type is usable by the generated code.
    pub fn is_supported(&self) -> bool {
        match self {
            CType::Unsupported { .. } => false,
            CType::Pointer { pointee, .. } => pointee.is_supported(),
            CType::Array { elem, .. } => elem.is_supported(),
            _ => true,
        }
    }
}

/// The name a C spelling gives its type (`const enum cudaMemoryType` → `cudaMemoryType`):
/// how the IR's `spelling` fields say which typedef or tag was written.
pub fn spelled_name(spelling: &str) -> String {
    let s = spelling.trim().trim_start_matches("const ").trim();
    let s = s.strip_suffix(" const").unwrap_or(s);
    ["enum ", "struct ", "union "]
        .iter()
        .fold(s, |s, p| s.trim_start_matches(p))
        .trim()
        .to_string()
}

/// The spelling of what a pointer's spelling points at (`const CUdevice *` → `const
/// CUdevice`); unchanged where no `*` was written (a typedef of a pointer).
pub fn spelled_pointee(spelling: &str) -> &str {
    let s = spelling.trim_end();
    let s = s.strip_suffix("const").unwrap_or(s).trim_end();
    s.strip_suffix('*').unwrap_or(s).trim_end()
}
