//! Functions and their parameters, with how each pointer parameter is used.

use super::{CType, Doc};
use serde::{Deserialize, Serialize};

/// A C function exported by the library.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Function {
    /// API name, also the Python name (`hipGetDeviceProperties`).
    pub name: String,
    /// Symbol looked up in the shared library (`hipGetDevicePropertiesR0600`).
    pub symbol: String,
    /// Parameters in C order.
    pub params: Vec<Param>,
    /// Return type.
    pub ret: CType,
    /// How C spells the return type (read where a C++ source calls the function: the
    /// NVIDIA shims).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub ret_spelling: String,
    /// The functions its body calls, where bodies were parsed (HIP's inline NVIDIA
    /// implementations).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub calls: Vec<String>,
    /// Whether the header marks it deprecated.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub deprecated: bool,
    /// Whether the GIL stays held (calls that never block, such as error-string lookups).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub keep_gil: bool,
    /// Whether calls are serialized by a per-library lock (the library is not thread-safe).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub serialize: bool,
    /// Whether a successful call destroys the handle given as the first parameter.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub destroys: bool,
    /// Documentation.
    #[serde(default, skip_serializing_if = "Doc::is_empty")]
    pub doc: Doc,
}

impl Function {
    /// Whether the function maps one enum value to a C string (error names and strings):
    /// a lookup whose answer for a value never changes, which the NVIDIA shims keep after
    /// the first call instead of asking CUDA's runtime again.
    pub fn is_enum_lookup(&self) -> bool {
        matches!(self.params.as_slice(), [p] if matches!(p.ty, CType::Enum { .. }))
            && matches!(&self.ret, CType::Pointer { pointee, .. } if pointee.is_char())
    }
}

/// One parameter.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Param {
    /// Name as in the header (`arg<N>` where the header has none).
    pub name: String,
    /// How C spells the type.
    pub spelling: String,
    /// The type.
    pub ty: CType,
    /// How the Python side passes it.
    pub usage: Usage,
    /// For an out `void **`: its size in bytes (making it a `DeviceArray`); for an
    /// `out_string`: the buffer's length.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size_param: Option<String>,
    /// An untyped pointer the spec says C writes through (`written`): read-only buffers are
    /// refused there and taken everywhere else.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub written: bool,
    /// A non-const array of handles that C reads and that takes a Python list: one paired
    /// with a count, or named by the spec's `list_arrays`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub list: bool,
    /// For a list or array argument: the integer parameter giving how many items C reads.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub count: Option<String>,
    /// For a buffer: what gives the bytes C accesses there, a parameter's name (its value,
    /// or the value it points at) or `function()` (the spec's `sizes`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sized_by: Option<String>,
    /// For a handle: the handles the function returns live in it (the spec's
    /// `results_depend`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub results_depend: bool,
}

/// How a parameter travels between Python and C.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case")]
pub enum Usage {
    /// Passed by value from Python (numbers, enums, handles, structs by value).
    In,
    /// A pointer the C function writes through; not a Python argument, returned instead.
    Out,
    /// Any pointer-like Python object (buffers, arrays, structs, `Pointer`s).
    Pointer,
    /// A NUL-terminated input string (`bytes`, `str` or pointer-like).
    String,
    /// An array of input strings (`list` of `bytes`/`str`, or pointer-like).
    StringArray,
    /// `hipModuleLaunchKernel`'s `extra`: a tuple of `ctypes` values and pointers, packed.
    KernelExtra,
    /// A `char *` buffer of `size_param` bytes the C function fills; returned as `bytes`.
    OutString,
    /// A handle passed by reference (`hiprtcProgram *`), an input: the Python argument is the
    /// handle object (its value is passed by address and written back) or an address.
    ByRef,
}
