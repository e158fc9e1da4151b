//! Constants from `#define`s and from enumerators of anonymous enums.

use serde::{Deserialize, Serialize};

/// A module-level constant.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct Constant {
    /// Its name.
    pub name: String,
    /// Its value.
    pub value: ConstValue,
}

/// The value of a constant: an integer or a string literal.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(untagged)]
pub enum ConstValue {
    /// An integer expression's value.
    Int(i64),
    /// A string literal.
    Str(String),
}

/// A macro casting an integer to a named type (`#define hipStreamPerThread ((hipStream_t)2)`):
/// a constant of a handle or typedef.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct TypedConstant {
    /// Macro name.
    pub name: String,
    /// The type cast to.
    pub ty: String,
    /// The integer (negative ones as two's complement of 64 bits, as a pointer holds them).
    pub value: u64,
}
