//! The typed model the Rust templates render: what each generated item is, never how it is
//! spelled. `templates/rust.j2` turns every type here into Rust source; the renderer only
//! decides which variant applies.

use serde::Serialize;

/// A type registry a generated module reaches: its own (`TYPES`) or an imported module's
/// (`<prefix><module>::TYPES`), and a type's index in it.
#[derive(Serialize, Clone, Debug, PartialEq)]
pub(crate) struct TypeRef {
    /// Imported module (spec name), None for the module's own registry.
    pub(crate) module: Option<String>,
    /// Path from the generated code to the imported module (`super::`, `crate::`).
    pub(crate) prefix: String,
    /// Index in the registry.
    pub(crate) index: usize,
}

/// The Rust type of a C value crossing the FFI boundary: a base type in `dims` arrays
/// (outermost first: `float a[3][4]` is `[[f32; 4]; 3]`).
#[derive(Serialize, Clone, Debug)]
pub(crate) struct FfiType {
    pub(crate) base: FfiBase,
    pub(crate) dims: Vec<u64>,
}

/// The element type of an [`FfiType`].
#[derive(Serialize, Clone, Debug)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub(crate) enum FfiBase {
    /// `()`: a function returning nothing.
    Unit,
    Bool,
    Int {
        size: u8,
        signed: bool,
    },
    Float {
        size: u8,
    },
    /// The `#[repr(C)]` mirror of a record passed by value.
    Mirror {
        record: String,
    },
    /// `usize`: handles and pointers.
    Address,
    /// A `#[repr(C)]` union inside a mirror (the members of an anonymous union).
    Union {
        name: String,
    },
}

impl FfiType {
    /// The union type `name` of a mirror.
    pub(crate) fn union_of(name: &str) -> FfiType {
        FfiType::scalar(FfiBase::Union {
            name: name.to_string(),
        })
    }

    /// A type of no array.
    pub(crate) fn scalar(base: FfiBase) -> FfiType {
        FfiType {
            base,
            dims: Vec::new(),
        }
    }
}

/// The Rust type a generated function takes a Python argument as.
#[derive(Serialize, Clone, Debug, PartialEq)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub(crate) enum ArgType {
    /// `rt::CStrArg`: bytes, str or an address.
    CStr,
    /// `rt::CStrArrayArg`.
    CStrArray,
    /// `rt::KernelExtra`: a launch's `extra`.
    KernelExtra,
    /// `rt::CInt<i32>`: a C integer, range-checked; `rt::CIndex<i32>` where `exact` (no
    /// float converts).
    CInt { size: u8, signed: bool, exact: bool },
    /// `bool`.
    Bool,
    /// `f32`/`f64`.
    Float { size: u8 },
    /// `&Bound<'_, PyAny>`: converted in the body (enums, records, typed pointers).
    Any,
    /// `rt::PtrArg`: anything pointer-like.
    Ptr,
    /// `rt::PtrArgMut`: anything pointer-like, which C may write through.
    PtrMut,
    /// `rt::PtrArgWritten`: anything pointer-like and writable (the spec's `written`).
    PtrWritten,
}

/// A Python parameter of a generated function.
#[derive(Serialize, Clone, Debug)]
pub(crate) struct Param {
    /// Rust identifier.
    pub(crate) name: String,
    /// Python name (the C name, unless it is a Python keyword).
    pub(crate) py_name: String,
    pub(crate) ty: ArgType,
    /// Whether None stands for a default (`Option<...>`).
    pub(crate) optional: bool,
}

/// One statement run before the C call, with the GIL held. `c` is the C parameter's name:
/// its C value is `a_<c>`, its output storage `o_<c>`; `arg` is the Rust parameter.
#[derive(Serialize, Clone, Debug)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub(crate) enum Prep {
    /// `a_<c>` from the argument's conversion.
    Let { c: String, value: InValue },
    /// A new instance of an output struct, `o_<c>`.
    NewRecord { c: String, ty: TypeRef },
    /// `a_<c>`: the address of the struct `o_<c>`.
    RecordAddress { c: String },
    /// Zeroed storage `o_<c>` of an output value.
    OutStorage { c: String, storage: FfiType },
    /// `a_<c>`: the address of `o_<c>`.
    StorageAddress { c: String, storage: FfiType },
    /// A byte buffer `o_<c>` for a string of `len` (an argument) bytes.
    OutStringBuffer { c: String, len: String },
    /// `a_<c>`: the buffer's address.
    BufferAddress { c: String },
    /// `h_<c>`: a handle passed by reference (updated in place if `writable`).
    HandleRef {
        c: String,
        arg: String,
        ty: TypeRef,
        writable: bool,
        /// One handle (`by_ref`), or what a destroying function frees (`LLVMOrcDisposeSymbols`):
        /// buffers are refused.
        single: bool,
    },
    /// `p_<c>`: a struct or a buffer large enough for one.
    RecordPtr {
        c: String,
        arg: String,
        ty: TypeRef,
        writable: bool,
    },
    /// `p_<c>`: a buffer of at least one number of `size` bytes.
    TypedPtr {
        c: String,
        arg: String,
        size: u64,
        writable: bool,
    },
    /// `p_<c>`: any pointer-like argument, converted from the Python object `arg` (kept, so
    /// that a destroy can mark it).
    PtrArgOf {
        c: String,
        arg: String,
        writable: bool,
    },
    /// `a_<c>`: the address held by `<holder>_<c>` (`h`, `p`).
    HolderAddress { c: String, holder: String },
    /// `p_<c>`: the string given to a library's free function, from the Python object `arg`;
    /// returns None at once for one of our `CStr` copies (its C string was freed when it was
    /// made), refuses other Python buffers.
    FreedString { c: String, arg: String },
    /// Refuses a negative `count` (the C parameter `count`, named `count_name` in Python) or
    /// one beyond the items of the list argument.
    CheckCount {
        count: String,
        count_name: String,
        list: ListLen,
        list_name: String,
    },
    /// Refuses a buffer of handles `h_<c>` smaller than the count C fills in, which the
    /// library's function `symbol` answers when asked with the C values `args` (`ffi`, `ret`:
    /// its signature): `LLVMGetParams` writes `LLVMCountParams(Fn)` handles.
    CheckRoom {
        c: String,
        symbol: String,
        args: Vec<String>,
        ffi: Vec<FfiType>,
        ret: FfiType,
        /// The arguments that are addresses, asked only when not NULL.
        pointers: Vec<String>,
        /// The count as the spec writes it, for the message.
        count_text: String,
        list_name: String,
    },
    /// Refuses a buffer (the C parameter `c`, Rust argument `arg`) smaller than what C
    /// accesses there.
    CheckSize {
        c: String,
        arg: String,
        need: SizeNeed,
        buf_name: String,
        size_name: String,
    },
}

/// How many items a list argument holds.
#[derive(Serialize, Clone, Debug)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub(crate) enum ListLen {
    /// An `rt::CStrArrayArg` argument.
    StrArray { arg: String },
    /// A handle array converted into `h_<c>`.
    Handles { c: String },
}

/// Where the size C accesses in a buffer comes from.
#[derive(Serialize, Clone, Debug)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub(crate) enum SizeNeed {
    /// An integer argument's C value `a_<c>`.
    Value { c: String },
    /// The `size_t` a pointer argument `a_<c>` points at.
    At { c: String },
    /// A function of the library asked with the C values `args` and a `size_t *` last,
    /// returning `success` when it answers.
    Query {
        symbol: String,
        args: Vec<String>,
        ffi: Vec<FfiType>,
        ret: FfiType,
        success: Option<i64>,
    },
}

/// The C value of an input argument.
#[derive(Serialize, Clone, Debug)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub(crate) enum InValue {
    /// The address a pointer-like argument holds.
    Address { arg: String },
    /// The value of an `rt::CInt`.
    Int { arg: String },
    /// The argument itself (bool, float).
    Plain { arg: String },
    /// An enum member or integer, narrowed to the C type.
    Enum {
        arg: String,
        ty: TypeRef,
        size: u8,
        signed: bool,
    },
    /// A handle by value: an object of its class (`ty`; None for a `void *` typedef, whose
    /// handles are plain `Pointer`s), or an address; never a struct, array or buffer.
    Handle {
        arg: String,
        ty: Option<TypeRef>,
        name: String,
    },
    /// A struct by value, copied into its mirror.
    Record {
        arg: String,
        ty: TypeRef,
        record: String,
    },
}

impl InValue {
    /// The Rust parameter the value is converted from.
    pub(crate) fn arg(&self) -> &str {
        match self {
            InValue::Address { arg }
            | InValue::Int { arg }
            | InValue::Plain { arg }
            | InValue::Enum { arg, .. }
            | InValue::Handle { arg, .. }
            | InValue::Record { arg, .. } => arg,
        }
    }
}

/// Where a C value is held after the call.
#[derive(Serialize, Clone, Debug, PartialEq)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub(crate) enum Var {
    /// `__r`: the function's return value.
    Ret,
    /// `o_<c>`: an output parameter's storage.
    Out { c: String },
}

/// How a C value becomes a Python object.
#[derive(Serialize, Clone, Debug)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub(crate) enum Conversion {
    Bool,
    /// Integers.
    Integer,
    /// Floating-point numbers.
    Number,
    Enum {
        ty: TypeRef,
    },
    /// A handle or a struct pointer: an instance at the address, living in the handle
    /// argument `parent` if the spec says so (`results_depend`).
    Instance {
        ty: TypeRef,
        parent: Option<String>,
        /// Otherwise, the handle arguments whose outermost owner it lives in.
        inherit: Vec<String>,
    },
    /// A NUL-terminated string the library keeps.
    CStr,
    /// A string the library hands over, freed by `free` after the copy.
    OwnedCStr {
        free: String,
    },
    /// A device allocation of `size` (an argument) bytes.
    DeviceArray {
        size: String,
    },
    /// Host memory of a size the caller learns elsewhere (`LLVMGetBufferStart`).
    HostBuffer,
    Pointer,
    /// A struct returned by value.
    RecordCopy {
        ty: TypeRef,
    },
}

/// One item of a function's result.
#[derive(Serialize, Clone, Debug)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub(crate) enum Output {
    /// The status enum member of the return value.
    Status { ty: TypeRef },
    /// The success member, first in the result of a function returning a value.
    Success { ty: TypeRef, value: i64 },
    /// A C value converted.
    Value { var: Var, conversion: Conversion },
    /// An output struct, `o_<c>`.
    Record { c: String },
    /// The bytes of an output string buffer, `o_<c>`, up to its NUL.
    Bytes { c: String },
}

impl Output {
    /// Whether this is the C return value as an enum member (a status, whether or not the
    /// spec names the library's status enum).
    pub(crate) fn is_returned_enum(&self) -> bool {
        matches!(
            self,
            Output::Status { .. }
                | Output::Value {
                    var: Var::Ret,
                    conversion: Conversion::Enum { .. },
                }
        )
    }

    /// Whether the Python object may be one the runtime or CPython shares between calls (an
    /// enum member, a cached C string, a bool, a small int), so that a result tuple of such
    /// objects can be reused (`rt::shared_tuple`, which keeps none around a fresh object).
    pub(crate) fn may_be_shared(&self) -> bool {
        matches!(
            self,
            Output::Status { .. }
                | Output::Success { .. }
                | Output::Value {
                    conversion: Conversion::Enum { .. }
                        | Conversion::CStr
                        | Conversion::Bool
                        | Conversion::Integer,
                    ..
                }
        )
    }
}

/// A function as the templates see it.
#[derive(Serialize, Clone, Debug)]
pub(crate) struct FunctionModel {
    /// API (Python) name.
    pub(crate) name: String,
    /// Symbol in the library.
    pub(crate) symbol: String,
    /// Docstring lines.
    pub(crate) doc: Vec<String>,
    /// Python parameters, in order.
    pub(crate) params: Vec<Param>,
    /// Statements run before the call, with the GIL held.
    pub(crate) prep: Vec<Prep>,
    /// FFI parameter types.
    pub(crate) ffi_params: Vec<FfiType>,
    /// FFI return type.
    pub(crate) ffi_ret: FfiType,
    /// C names of the call's arguments (`a_<name>`: plain values captured by the closure).
    pub(crate) call_args: Vec<String>,
    /// Whether the GIL stays held.
    pub(crate) keep_gil: bool,
    /// Whether the call takes the library's lock.
    pub(crate) serialize: bool,
    /// The result items.
    pub(crate) results: Vec<Output>,
    /// Whether the results are returned without a tuple (one value, or None for none).
    pub(crate) plain: bool,
    /// Whether the result is a tuple of objects that may be shared ([`Output::may_be_shared`]),
    /// kept and reused while they are the same.
    pub(crate) shared: bool,
    /// `name: type` of each Python parameter, for the stub.
    pub(crate) stub_params: Vec<String>,
    /// The return type, for the stub.
    pub(crate) stub_ret: String,
    /// The docstring as a Python literal, for the stub.
    pub(crate) stub_doc: String,
    /// Per item of `results`: where its C value is held, when it is a plain value (an
    /// integer or an address) that a caller may present otherwise (CUDA adapters).
    #[serde(skip)]
    pub(crate) raw_outs: Vec<Option<Var>>,
    /// The handle a successful call destroys, if it destroys one.
    pub(crate) destroy: Option<Destroy>,
}

/// The handle argument a function destroys.
#[derive(Serialize, Debug, Clone)]
pub(crate) struct Destroy {
    /// The Python argument (a `&Bound<PyAny>`).
    pub(crate) arg: String,
    /// Whether C takes a pointer to the handle (`hiprtcProgram *`).
    pub(crate) by_ref: bool,
    /// The status value of success; None when the function returns no status.
    pub(crate) success: Option<i64>,
}

/// A field of a record mirror.
#[derive(Serialize, Debug)]
pub(crate) struct MirrorField {
    /// Rust identifier.
    pub(crate) name: String,
    pub(crate) ty: FfiType,
}

/// Members sharing an offset in a mirror: a `#[repr(C)]` union.
#[derive(Serialize, Debug)]
pub(crate) struct MirrorUnion {
    /// Rust type name.
    pub(crate) name: String,
    pub(crate) fields: Vec<MirrorField>,
}

/// A record passed by value: a `#[repr(C)]` mirror named `R_<name>`.
#[derive(Serialize, Debug)]
pub(crate) struct MirrorModel {
    /// The record's C name.
    pub(crate) name: String,
    pub(crate) fields: Vec<MirrorField>,
    /// The unions its fields use (`U_<record>_<n>`).
    pub(crate) unions: Vec<MirrorUnion>,
    /// `sizeof`, checked at compile time.
    pub(crate) size: u64,
}

/// An entry of a module's type table.
#[derive(Serialize, Debug)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub(crate) enum TypeDefModel {
    Enum {
        name: String,
        aliases: Vec<String>,
        members: Vec<(String, i64)>,
    },
    Record {
        name: String,
        aliases: Vec<String>,
        size: u64,
        fields: Vec<FieldModel>,
        doc: String,
    },
    Handle {
        name: String,
        aliases: Vec<String>,
    },
}

/// A field of a record's type-table entry.
#[derive(Serialize, Debug, Clone)]
pub(crate) struct FieldModel {
    pub(crate) name: String,
    /// Byte offset.
    pub(crate) offset: u64,
    /// (bit offset in the byte, width) of a bitfield.
    pub(crate) bits: Option<(u64, u32)>,
    pub(crate) kind: FieldKindModel,
    pub(crate) default: Option<i64>,
}

/// How a field is read and written: `base` inside `arrays` (outermost first).
#[derive(Serialize, Debug, Clone)]
pub(crate) struct FieldKindModel {
    pub(crate) arrays: Vec<ArrayLevel>,
    pub(crate) base: FieldBase,
}

/// One array dimension of a field.
#[derive(Serialize, Debug, Clone)]
pub(crate) struct ArrayLevel {
    pub(crate) len: u64,
    /// Bytes per element.
    pub(crate) stride: u64,
}

/// The innermost kind of a field.
#[derive(Serialize, Debug, Clone)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub(crate) enum FieldBase {
    Bool,
    Int {
        size: u8,
        signed: bool,
    },
    Float {
        size: u8,
    },
    /// An enum of this module's registry.
    Enum {
        index: usize,
        size: u8,
        signed: bool,
    },
    /// A struct of this module's registry.
    Record {
        index: usize,
    },
    /// A handle of this module's registry.
    Handle {
        index: usize,
    },
    /// A char array, read as bytes.
    Chars {
        len: u64,
    },
    /// A char array as cuda-python reads it (`rt::FieldKind::Text`).
    Text {
        len: u64,
    },
    /// An `unsigned char` array as cuda-python reads it: all its bytes (`rt::FieldKind::Bytes`).
    Bytes {
        len: u64,
    },
    Pointer,
    /// A pointer read as an integer; a list sets a `T *` one (`rt::FieldKind::Address`).
    Address {
        elem: Option<Box<FieldBase>>,
    },
    /// A `void **` set in any of cuda-python's `kernelParams` forms
    /// (`rt::FieldKind::KernelParams`).
    KernelParams,
}

/// The NVIDIA platform's provider of a library.
#[derive(Serialize, Debug)]
pub(crate) struct NvidiaModel {
    pub(crate) shim: Option<String>,
    /// (sonames, wheels) of the CUDA library a generated shim loads.
    pub(crate) cuda: Option<(Vec<String>, Vec<String>)>,
    pub(crate) sonames: Vec<String>,
    pub(crate) wheel: String,
    pub(crate) same: bool,
}

/// The loader's check that a library is of the release the bindings were made from.
#[derive(Serialize, Debug)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub(crate) enum VersionCheckModel {
    /// `void f(size_t *major, size_t *minor)` against a header constant.
    Interface { symbol: String, expected: i64 },
    /// `int f(int *)`, divided, against the release major.
    Release {
        symbol: String,
        divisor: i64,
        expected: i64,
    },
    /// `void f(unsigned *, unsigned *, unsigned *)`, recorded for the choice of bindings.
    Triple { symbol: String },
}

/// An imported type this module's functions use, re-exported by name.
#[derive(Serialize, Debug)]
pub(crate) struct ForeignModel {
    pub(crate) name: String,
    pub(crate) ty: TypeRef,
}
