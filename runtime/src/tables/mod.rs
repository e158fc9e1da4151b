//! The static tables generated code fills: what each library is and where it is found, and
//! the enums, records and handles of each module. Plain data with no Python in it, so that
//! the generated modules depend on one door of the runtime.

pub mod aliases;

use std::ffi::CStr;

/// Where a library is looked for, in the order given by the fields.
pub struct LibrarySpec {
    /// Name in messages and for `rocm_sdk.find_libraries` (`amdhip64`).
    pub name: &'static str,
    /// Environment variable holding an explicit path (`HIP_PYTHON_LIBAMDHIP64`).
    pub env: &'static str,
    /// File names tried in `$ROCM_PATH/<dir>` for each of `rocm_dirs`, then by the system
    /// loader.
    pub sonames: &'static [&'static str],
    /// Folders of a ROCm installation holding the library (`lib`; LLVM's is `llvm/lib`).
    pub rocm_dirs: &'static [&'static str],
    /// How to check that the library belongs to the release the bindings were made for.
    pub version_check: Option<VersionCheck>,
    /// What provides the library on the NVIDIA platform, if anything.
    pub nvidia: Option<NvidiaSpec>,
    /// From which release on the library runs its serialized functions (the spec's
    /// `serialize`) from several threads at once; None: they always take its lock.
    pub parallel_from: Option<ParallelFrom>,
}

/// The release from which a library's serialized functions may run in parallel: the major
/// version of the file that holds `symbol`, read from its name (`libhiprtc.so.7` is ROCm 7's;
/// ROCm 5 keeps hiprtc inside `libamdhip64.so.5`). hiprtc's own `hiprtcVersion` says 9.0 in
/// every release, so it cannot tell.
pub struct ParallelFrom {
    pub symbol: &'static CStr,
    /// The first major version whose calls are thread-safe.
    pub major: i64,
}

/// What stands for a library on the NVIDIA platform.
pub struct NvidiaSpec {
    /// File name of our shim in `hip/_nvidia/` that provides it (`libhip_nvidia.so`: HIP
    /// over CUDA; `libhipblas_nvidia.so`: hipBLAS over cuBLAS).
    pub shim: Option<&'static str>,
    /// The CUDA library a shim passes calls on to, loaded globally before the shim.
    pub cuda: Option<CudaLibrary>,
    /// Otherwise, the NVIDIA library's file names (RCCL's API is NCCL's: `libnccl.so.2`).
    pub sonames: &'static [&'static str],
    /// Python package of NVIDIA's wheel holding it in `lib/` (`nvidia.nccl`).
    pub wheel: &'static str,
    /// Whether the library is not HIP's at all and serves any platform as it is (LLVM,
    /// comgr): it is loaded the same way everywhere, and the platform is never probed for it.
    pub same: bool,
}

/// A CUDA library a shim calls (cuBLAS for hipBLAS): looked up in NVIDIA's wheels, then by
/// the system loader.
pub struct CudaLibrary {
    /// File names, in order (`libcublas.so.13`, `libcublas.so.12`).
    pub sonames: &'static [&'static str],
    /// Python packages whose `lib/` may hold them (`nvidia.cu13`, `nvidia.cublas`).
    pub wheels: &'static [&'static str],
}

/// A library's version function and what the bindings expect of it.
pub enum VersionCheck {
    /// `int f(int *version)`; `version / divisor` is the major release (`hipRuntimeGetVersion`).
    Release {
        symbol: &'static CStr,
        divisor: i64,
        expected: i64,
    },
    /// `void f(size_t *major, size_t *minor)` reporting an interface version
    /// (`amd_comgr_get_version`), whose major must equal the header's.
    Interface {
        symbol: &'static CStr,
        expected: i64,
    },
    /// `void f(unsigned *major, unsigned *minor, unsigned *patch)` (`LLVMGetVersion`):
    /// recorded, not checked. A package that carries bindings of several versions chooses
    /// among them by it (rocm-llvm-python's LLVM), and LLVM's C API keeps what these bind.
    Triple { symbol: &'static CStr },
}

/// A C enum.
pub struct EnumDef {
    /// API name.
    pub name: &'static str,
    /// Other names bound to the same class.
    pub aliases: &'static [&'static str],
    /// Members in declaration order.
    pub members: &'static [(&'static str, i64)],
}

/// A struct or union.
pub struct RecordDef {
    /// API name.
    pub name: &'static str,
    /// Other names bound to the same class.
    pub aliases: &'static [&'static str],
    /// `sizeof`.
    pub size: usize,
    /// Fields in declaration order.
    pub fields: &'static [FieldDef],
    /// Docstring.
    pub doc: &'static str,
}

/// An opaque handle class (subclass of `Pointer`).
pub struct HandleDef {
    /// Class name.
    pub name: &'static str,
    /// Other names bound to the same class.
    pub aliases: &'static [&'static str],
}

/// One field of a record.
pub struct FieldDef {
    /// Field name.
    pub name: &'static str,
    /// Offset in bytes (for bitfields, of the byte holding the first bit).
    pub offset: usize,
    /// Bit offset within that byte and width, for bitfields.
    pub bits: Option<(u8, u8)>,
    /// What the field holds.
    pub kind: FieldKind,
    /// Value the keyword constructor starts from.
    pub default: Option<i64>,
}

/// What a field holds; other types are referred to by their index in the registry.
pub enum FieldKind {
    /// Integer of `size` bytes.
    Int {
        /// Size in bytes.
        size: u8,
        /// Signedness.
        signed: bool,
    },
    /// `bool`.
    Bool,
    /// `float` (4) or `double` (8).
    Float {
        /// Size in bytes.
        size: u8,
    },
    /// An enum stored as an integer.
    Enum {
        /// Registry index of the enum.
        ty: usize,
        /// Size in bytes.
        size: u8,
        /// Signedness.
        signed: bool,
    },
    /// A nested record, by registry index.
    Record(usize),
    /// A handle, by registry index of its class.
    Handle(usize),
    /// Any other pointer.
    Pointer,
    /// `char[N]`, shown as `bytes`.
    Chars(usize),
    /// `char[N]` as cuda-python shows it: the text before a NUL where only NULs follow it,
    /// else all `N` bytes (a UUID, a LUID); set from bytes, a str, or integers in -128..255.
    Text(usize),
    /// `unsigned char[N]` as cuda-python shows it: all `N` bytes (reserved bytes, a handle's
    /// data); set from bytes or integers in 0..=255, zero-filled past what is given.
    Bytes(usize),
    /// A pointer shown as an integer address; where `elem` is given (a `T *` field), a list
    /// or tuple of values sets it to a C array of them, which the record keeps.
    Address {
        /// What one element of the array is.
        elem: Option<&'static FieldKind>,
    },
    /// A `void **` set in any of cuda-python's `kernelParams` forms (`KernelParams`), shown as
    /// an integer address; the record keeps what the arguments were packed into.
    KernelParams,
    /// `T[N]`, shown as a list.
    Array {
        /// Element kind.
        elem: &'static FieldKind,
        /// Number of elements.
        len: usize,
        /// Size of one element in bytes.
        stride: usize,
    },
}

/// One entry of a registry.
pub enum TypeDef {
    /// An enum.
    Enum(EnumDef),
    /// A struct or union.
    Record(RecordDef),
    /// An opaque handle.
    Handle(HandleDef),
}

impl TypeDef {
    /// The class name.
    pub fn name(&self) -> &'static str {
        match self {
            TypeDef::Enum(e) => e.name,
            TypeDef::Record(r) => r.name,
            TypeDef::Handle(h) => h.name,
        }
    }

    /// Other names of the class.
    pub fn aliases(&self) -> &'static [&'static str] {
        match self {
            TypeDef::Enum(e) => e.aliases,
            TypeDef::Record(r) => r.aliases,
            TypeDef::Handle(h) => h.aliases,
        }
    }
}
