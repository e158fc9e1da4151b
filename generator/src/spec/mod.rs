//! The YAML spec of one library: what to parse, what to bind, and how pointers are used;
//! `release` reads the release files that say which specs make up a ROCm release.

pub mod release;

use crate::ir::Usage;
use anyhow::{Context, Result};
use regex::Regex;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::Path;

/// One library's spec, as read from `generator/specs/<name>.yaml`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Spec {
    /// `library`: what kind of spec this is (`aliases` specs are `aliases::AliasSpec`).
    pub kind: SpecKind,
    /// Short name, also the Rust module and file name (`hip` → `hip.rs`).
    pub name: String,
    /// The Python package (wheel) whose extension carries the module: `hip-python`,
    /// `rocm-llvm-python` (the manifest tells the build which modules each package gets).
    pub package: String,
    /// The Python module (default `hip.<name>`).
    #[serde(default)]
    pub python_module: Option<String>,
    /// The module's name in AMD's 10.0 layout (default `rocm.bindings.<name>`), published as
    /// an alias of the very same module object.
    #[serde(default)]
    pub bindings_module: Option<String>,
    /// The first release that has the library (`7.0`): older releases leave it out (see
    /// `release::SpecFile::belongs_to`, which reads it before the spec is parsed).
    #[serde(default)]
    #[allow(dead_code)]
    pub since: Option<String>,
    /// Where the headers are, relative to the include directory given to hipgen (or
    /// absolute); the first that exists wins. Default: the include directory itself. LLVM's
    /// `llvm-c` headers live in `../llvm/include` in a ROCm installation.
    #[serde(default)]
    pub include_dirs: Vec<String>,
    /// Python modules whose functions and types this module also exposes, as its header
    /// includes theirs (rocm-llvm-python's `rocm.llvm.c.lljit` has `orc`'s functions).
    #[serde(default)]
    pub reexports: Vec<String>,
    /// Headers to include, relative to the include directory.
    pub headers: Vec<String>,
    /// Regexes on header paths (relative to the include directory) whose declarations are bound.
    pub bind_files: Vec<String>,
    /// Preprocessor definitions.
    #[serde(default)]
    pub defines: Vec<String>,
    /// C source put before the includes (to supply types a header expects from elsewhere).
    #[serde(default)]
    pub prelude: String,
    /// `c` or `c++`.
    #[serde(default = "default_language")]
    pub language: String,
    /// The shared library the symbols come from.
    pub library: LibrarySpec,
    /// Functions the Python package adds to the module (the header's `static inline` helpers
    /// no library exports), by name with their return type, for the module's `.pyi` stub.
    #[serde(default)]
    pub python_helpers: BTreeMap<String, String>,
    /// Modules the Python package sets as attributes of the module (`hiprtc.ext`), by
    /// attribute, for the stub.
    #[serde(default)]
    pub python_submodules: BTreeMap<String, String>,
    /// Libraries whose types this one uses (`hip` for `hipStream_t`); generated first.
    #[serde(default)]
    pub imports: Vec<String>,
    /// The enum returned as status, if the library has one.
    #[serde(default)]
    pub status: Option<StatusSpec>,
    /// Which functions to bind.
    #[serde(default)]
    pub functions: Filter,
    /// Which enums to bind.
    #[serde(default)]
    pub enums: Filter,
    /// Which structs and unions to bind.
    #[serde(default)]
    pub records: Filter,
    /// Which macros become constants.
    #[serde(default)]
    pub constants: Filter,
    /// Functions (regexes) that never block, so the GIL stays held around them.
    #[serde(default)]
    pub keep_gil: Vec<String>,
    /// Functions (regexes) that destroy the handle given as their first parameter: after
    /// one returns success, the handle object passed (and its copies) is refused as an
    /// argument (`ValueError`), so C is never handed a dangling handle.
    #[serde(default)]
    pub destroys: Vec<String>,
    /// Untyped pointer parameters (`function.param` regexes: `void *dst`, `char *buf`) that C
    /// writes through and that must therefore refuse a read-only buffer (`bytes`) with a
    /// TypeError. Every other such parameter takes read-only buffers too, as hip-python does
    /// (its users pass `bytes(n)` to `hiprtcGetBitcode` and images to `hiprtcLinkAddData`).
    #[serde(default)]
    pub written: Vec<String>,
    /// Non-const arrays of handles (`function.param` regexes) that take a Python list, as
    /// rocm-llvm-python's do (`LLVMFunctionType(ret, [i32, i32], 2, 0)`): the list passes as a
    /// temporary C array. Elsewhere a list is refused where C may write into the array, since
    /// what C wrote would be lost.
    #[serde(default)]
    pub list_arrays: Vec<String>,
    /// `void *` typedefs that stand for memory, not for a handle (`hipDeviceptr_t`). Every
    /// other `void *` typedef (`hipsparseHandle_t`, `hipblasHandle_t`) is an opaque handle:
    /// passed by value it refuses structs, arrays and buffers.
    #[serde(default)]
    pub memory_typedefs: Vec<String>,
    /// C++ constructors the library's header gives records (read as C, the IR has none):
    /// record → each field's default. The `.pxd` declares them for C++ code, which builds
    /// such a record by value (`dim3(x, y, z)`).
    #[serde(default)]
    pub constructors: BTreeMap<String, i64>,
    /// Counts of lists beyond the rule that pairs a list with the count-named integer next to
    /// it: `function.param` regex of the list → the count parameter
    /// (`hiprtcCreateProgram.includeNames: numHeaders`), or, for an array of handles C fills,
    /// the library's function that says how many it writes, with the parameters passed to it
    /// (`LLVMGetParams.Params: LLVMCountParams(Fn)`).
    #[serde(default)]
    pub counts: BTreeMap<String, String>,
    /// Buffers C reads or writes a known size of: `function.param` regex → the parameter
    /// giving the size in bytes (its value, or the value it points at: comgr's in/out
    /// `size_t *size`), or `function()`, a function asked for it with the same leading
    /// arguments (`hiprtcGetCode.code: hiprtcGetCodeSize()`). A Python buffer smaller than
    /// that is refused before C runs.
    #[serde(default)]
    pub sizes: BTreeMap<String, String>,
    /// Handle parameters (`function.param` regexes) that the handles the function returns
    /// live in (an LLVM module in its context): destroying the parameter's handle ends them.
    #[serde(default)]
    pub results_depend: Vec<String>,
    /// Whether a returned handle lives in the outermost handle its handle arguments live in,
    /// where no `results_depend` parameter says otherwise (LLVM: whatever a function returns
    /// from a type, value or module of a context ends with that context).
    #[serde(default)]
    pub results_inherit: bool,
    /// Usage of non-const pointers to numbers, enums and pointers (`out` unless said
    /// otherwise): the math libraries take them as caller-provided buffers (`float *result`,
    /// `int *info`, batched `void *A[]`).
    #[serde(default = "default_scalar_pointers")]
    pub scalar_pointers: Usage,
    /// Usage of non-const pointers to handles (`out` unless said otherwise): LLVM passes
    /// arrays of handles that way (`LLVMTypeRef *ParamTypes`).
    #[serde(default = "default_scalar_pointers")]
    pub handle_pointers: Usage,
    /// Functions whose non-const `char *` results (returned, or through `char **` out
    /// parameters) the caller must free, and with what; the first entry that matches wins.
    #[serde(default)]
    pub owned_strings: Vec<OwnedStrings>,
    /// Imported types this module re-exports although none of its functions or fields use
    /// them, as hip-python does (`hipsparse.hipError_t`, `hiprand.uint4`).
    #[serde(default)]
    pub reexport_types: Vec<String>,
    /// Names bound to `Pointer` beyond the header's `void *` typedefs: typedefs the IR does
    /// not model, such as arrays, which hip-python exposes as pointer classes
    /// (`hiprandDirectionVectors32_t`, `unsigned int[32]`).
    #[serde(default)]
    pub pointer_classes: Vec<String>,
    /// Functions (regexes) whose `char *` result points at memory, not at a NUL-terminated
    /// string (`LLVMGetBufferStart`): returned as a host-memory `DeviceArray` the caller sizes
    /// with `configure(shape=(n,), _force=True)` and reads with `bytes()`, as rocm-llvm-python
    /// returns an `NDBuffer`.
    #[serde(default)]
    pub memory_results: Vec<String>,
    /// Return a single result as itself, and no result as None, instead of a tuple, as
    /// rocm-llvm-python's LLVM modules do (`LLVMInt32Type()` is the type).
    #[serde(default)]
    pub plain_results: bool,
    /// Whether an integer parameter takes a float, truncated (hip-python's conversion, which
    /// its users' programs rely on: `hipMalloc(n / 2)`). Where false, only `int` and objects
    /// with `__index__` convert, as in Python's own integer APIs (`TypeError` otherwise).
    #[serde(default = "yes")]
    pub floats_as_integers: bool,
    /// Functions (regexes) the library cannot run from two threads at once.
    #[serde(default)]
    pub serialize: Vec<String>,
    /// Per-parameter rules, keyed by a regex matched against `function.param`; the first
    /// key in the file that matches wins.
    #[serde(default)]
    pub params: ParamRules,
    /// Values the keyword constructor of a record starts from, per record and field.
    #[serde(default)]
    pub field_defaults: BTreeMap<String, BTreeMap<String, i64>>,
}

/// Non-const scalar pointers are outputs unless a spec says otherwise.
fn default_scalar_pointers() -> Usage {
    Usage::Out
}

/// Libraries live in `$ROCM_PATH/lib` unless a spec says otherwise.
fn yes() -> bool {
    true
}

fn default_rocm_dirs() -> Vec<String> {
    vec!["lib".into()]
}

/// Default parsing language.
fn default_language() -> String {
    "c".into()
}

/// Where the shared library is looked for.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LibrarySpec {
    /// Name used in messages and by `rocm_sdk.find_libraries` (`amdhip64`).
    pub name: String,
    /// Environment variable that overrides the path.
    pub env: String,
    /// File names tried in order, in a ROCm installation's `<dir>` and then by the system
    /// loader. Names with `{major}` stand for one name per version of `majors`, newest first.
    pub sonames: Vec<String>,
    /// The library's major versions to look for (newest, oldest), where its file names carry
    /// them (`libLLVM.so.{major}.1`).
    #[serde(default)]
    pub majors: Option<(u32, u32)>,
    /// What provides the library on the NVIDIA platform (none: not available there).
    #[serde(default)]
    pub nvidia: Option<NvidiaLibrarySpec>,
    /// Folders of a ROCm installation that hold the library (default `lib`).
    #[serde(default = "default_rocm_dirs")]
    pub rocm_dirs: Vec<String>,
    /// `int f(int *version)` reporting the library's version, and the divisor giving its
    /// major release; checked against the release of the headers when the library loads.
    #[serde(default)]
    pub version: Option<VersionSpec>,
    /// From which of the library's own releases its `serialize` functions may run from
    /// several threads at once, as its version function reports at load time (none: they
    /// always take the library's lock).
    #[serde(default)]
    pub parallel_from: Option<ParallelFromSpec>,
}

impl LibrarySpec {
    /// The file names tried, in order: `sonames` with each name carrying `{major}` written
    /// once per major version of `majors`, newest first, the group where its first such name
    /// stands (`libLLVM.so.22.1, libLLVM-22.so, libLLVM.so.21.1, ...`).
    pub fn file_names(&self) -> Vec<String> {
        let Some((newest, oldest)) = self.majors else {
            return self.sonames.clone();
        };
        let templated = |n: &String| n.contains("{major}");
        let mut group = Some((oldest..=newest).rev().flat_map(|major| {
            self.sonames
                .iter()
                .filter(|n| templated(n))
                .map(move |n| n.replace("{major}", &major.to_string()))
        }));
        let mut names = Vec::new();
        for name in &self.sonames {
            if !templated(name) {
                names.push(name.clone());
            } else if let Some(versions) = group.take() {
                names.extend(versions);
            }
        }
        names
    }
}

/// `int f(int *major, int *minor)` (`hiprtcVersion`) and the first major version whose
/// serialized functions are thread-safe.
#[derive(Debug, Clone, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct ParallelFromSpec {
    pub symbol: String,
    pub major: i64,
}

/// The library on the NVIDIA platform: our shim (HIP over CUDA) or an NVIDIA library.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NvidiaLibrarySpec {
    /// File name of our shim that provides it, in `hip/_nvidia/` (`libhip_nvidia.so`).
    #[serde(default)]
    pub shim: Option<String>,
    /// For a shim generated over a CUDA library (`hipgen cuda-shim`): that library.
    #[serde(default)]
    pub cuda: Option<CudaLibrarySpec>,
    /// For the functions HIP's NVIDIA headers lack: a second source generated over CUDA's
    /// own API as `cuda` is (`hipgen cuda-shim`), linked into the same shim. The loader
    /// loads CUDA's libraries for the shim already, so only `headers` and `status` count.
    #[serde(default)]
    pub fill: Option<CudaLibrarySpec>,
    /// Otherwise the NVIDIA library's file names (`libnccl.so.2`).
    #[serde(default)]
    pub sonames: Vec<String>,
    /// Python package of NVIDIA's wheel that holds it in `lib/` (`nvidia.nccl`).
    #[serde(default)]
    pub wheel: String,
    /// The library is not HIP's and serves any platform as it is (LLVM, comgr).
    #[serde(default)]
    pub same: bool,
}

/// The CUDA library a shim translates to (hipBLAS → cuBLAS), joined by HIPIFY's table.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CudaLibrarySpec {
    /// Headers declaring its API (`cublas_v2.h`).
    pub headers: Vec<String>,
    /// Its file names, tried in order (`libcublas.so.13`, `libcublas.so.12`).
    #[serde(default)]
    pub sonames: Vec<String>,
    /// Python packages of NVIDIA's wheels holding them in `lib/` (`nvidia.cublas`, `nvidia.cu13`).
    #[serde(default)]
    pub wheels: Vec<String>,
    /// Status the shim returns for what it cannot pass on.
    pub status: ShimStatusSpec,
    /// HIP member prefixes that stand for another library's members HIPIFY maps
    /// (`HIPSOLVER_: HIPBLAS_`: hipSOLVER's HIPSOLVER_OP_N is cuBLAS's CUBLAS_OP_N).
    #[serde(default)]
    pub member_prefixes: BTreeMap<String, String>,
    /// Member pairs of our own beside HIPIFY's (HIP member -> CUDA members), for CUDA enums
    /// HIPIFY pairs with no HIP enum: hiprtc's linker runs on the driver's (`cuLink*`), whose
    /// `CUresult` HIPIFY pairs with no `hiprtcResult`.
    #[serde(default)]
    pub member_pairs: BTreeMap<String, Vec<String>>,
    /// HIP functions that are another HIP function under a second name (`hipHostMalloc` is
    /// `hipHostAlloc`, whose CUDA name HIPIFY gives): their CUDA candidates follow HIPIFY's
    /// own for them.
    #[serde(default)]
    pub same_as: BTreeMap<String, String>,
    /// Further CUDA candidates of a HIP function, tried before HIPIFY's, that take parameters
    /// the HIP function lacks: HIP function -> CUDA function -> the CUDA parameter positions
    /// passed as zero, NULL for a pointer (CUDA 13's `cuCtxCreate` takes a
    /// `CUctxCreateParams *` second, its `cudaMemPrefetchAsync` flags before the stream).
    #[serde(default)]
    pub null_args: BTreeMap<String, BTreeMap<String, Vec<usize>>>,
    /// The CUDA function tried first for a HIP function HIPIFY maps several to: CUDA's
    /// driver `cuDeviceGetAttribute` answers every attribute its runtime's does, and more
    /// (virtual memory management, ...), under the same values.
    #[serde(default)]
    pub prefer: BTreeMap<String, String>,
    /// The HIP record a device ordinal becomes where CUDA takes a location struct instead
    /// (CUDA 13's `cudaMemAdvise` and `cudaMemPrefetchAsync` take a `cudaMemLocation`).
    #[serde(default)]
    pub device_location: Option<DeviceLocationSpec>,
}

/// How a device ordinal is written as a HIP location record, which then converts to CUDA's
/// struct member by member: `type` the device member, or the host member for `host_id`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DeviceLocationSpec {
    /// The HIP record (`hipMemLocation`), with fields `type` and `id`.
    pub record: String,
    /// The member of its `type` enum for a device (`hipMemLocationTypeDevice`).
    pub device: String,
    /// The member for the host (`hipMemLocationTypeHost`).
    pub host: String,
    /// The ordinal that names the host (`hipCpuDeviceId`, -1).
    pub host_id: i64,
}

/// Members of the library's status enum for the shim's own answers.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShimStatusSpec {
    /// The status enum, for a library whose spec names none (hiprtc returns its status as a
    /// plain value in Python; its C functions still return `hiprtcResult`).
    #[serde(default, rename = "enum")]
    pub enum_name: Option<String>,
    /// The CUDA library lacks the function (an older or newer release than the headers).
    pub unsupported: String,
    /// An argument has no CUDA equivalent (an enum value HIPIFY does not map).
    pub invalid: String,
    /// CUDA returned a status HIPIFY does not map.
    pub unknown: String,
}

/// Strings a library hands over, and the function that frees them.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OwnedStrings {
    /// The library's free function, of signature `void f(char *)`.
    pub free: String,
    /// Regexes on function names.
    pub functions: Vec<String>,
}

/// How to ask a library for its version.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VersionSpec {
    /// The function: `int f(int *version)`, or with `major_constant`
    /// `void f(size_t *major, size_t *minor)`.
    pub symbol: String,
    /// `version / divisor` is the major release.
    #[serde(default)]
    pub divisor: Option<i64>,
    /// The header constant holding the major version the bindings were generated for
    /// (`AMD_COMGR_INTERFACE_VERSION_MAJOR`, `LLVM_VERSION_MAJOR`): the function's major must
    /// equal it (`void f(size_t *major, size_t *minor)`), or, with `triple`, a package
    /// carrying several versions' bindings chooses by it.
    #[serde(default)]
    pub major_constant: Option<String>,
    /// The function is `void f(unsigned *major, unsigned *minor, unsigned *patch)`
    /// (`LLVMGetVersion`): its answer is recorded for the choice among bindings of several
    /// versions, not checked.
    #[serde(default)]
    pub triple: bool,
}

/// The status enum of a library.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StatusSpec {
    /// Enum name (`hipError_t`).
    #[serde(rename = "enum")]
    pub enum_name: String,
    /// Member put first in the result of functions that return a plain value
    /// (`hipGetErrorString` returns `(hipSuccess, text)`), as hip-python does.
    #[serde(default)]
    pub success_for_plain_returns: Option<String>,
    /// Whether a function returning nothing but outputs puts that member first too
    /// (`amd_comgr_get_version` returns `(AMD_COMGR_STATUS_SUCCESS, major, minor)`), as
    /// rocm-llvm-python does.
    #[serde(default)]
    pub success_for_void_outputs: bool,
    /// The member the C level (`.pxd`) answers where the library or the function cannot be
    /// loaded, for a status enum with no "not initialized" member (RCCL's `ncclSystemError`).
    #[serde(default)]
    pub unavailable: Option<String>,
}

/// Include and exclude regexes; an empty include list includes everything.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Filter {
    /// Names must match one of these (anchored by the author).
    #[serde(default)]
    pub include: Vec<String>,
    /// Names matching one of these are left out.
    #[serde(default)]
    pub exclude: Vec<String>,
}

/// An override of how one parameter is used.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ParamRule {
    /// Its usage.
    pub usage: Usage,
    /// For an out `void **`: the parameter holding its size in bytes.
    #[serde(default)]
    pub size_param: Option<String>,
}

/// What a spec file describes, said by its `kind:` key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SpecKind {
    /// A library to bind (`Spec`).
    Library,
    /// Other names of bound objects (`aliases::AliasSpec`: the CUDA names).
    Aliases,
}

impl SpecKind {
    /// The kind of a spec file's YAML (`origin` names it in errors).
    pub fn of_value(value: &serde_yaml::Value, origin: &str) -> Result<SpecKind> {
        let kind = value.get("kind").with_context(|| {
            format!("{origin}: say what the spec is with `kind: library` or `kind: aliases`")
        })?;
        serde_yaml::from_value(kind.clone()).with_context(|| format!("{origin}: kind"))
    }
}

/// A spec's `params:` in file order, each key compiled once into an anchored regex.
#[derive(Debug, Clone, Default)]
pub struct ParamRules(pub Vec<(Regex, ParamRule)>);

impl<'de> Deserialize<'de> for ParamRules {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        /// Reads the mapping entry by entry, which keeps the file's order.
        struct Rules;
        impl<'de> serde::de::Visitor<'de> for Rules {
            type Value = ParamRules;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a mapping from `function.param` regexes to rules")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> std::result::Result<ParamRules, A::Error> {
                let mut out = Vec::new();
                while let Some((key, rule)) = map.next_entry::<String, ParamRule>()? {
                    let re = Regex::new(&format!("^(?:{key})$")).map_err(|e| {
                        serde::de::Error::custom(format!("bad param rule {key:?}: {e}"))
                    })?;
                    out.push((re, rule));
                }
                Ok(ParamRules(out))
            }
        }
        d.deserialize_map(Rules)
    }
}

/// A filter compiled into regexes.
pub struct CompiledFilter {
    /// Compiled include patterns.
    include: Vec<Regex>,
    /// Compiled exclude patterns.
    exclude: Vec<Regex>,
}

impl CompiledFilter {
    /// Compiles a filter.
    pub fn new(f: &Filter) -> Result<Self> {
        Ok(Self {
            include: compile_all(&f.include)?,
            exclude: compile_all(&f.exclude)?,
        })
    }

    /// Whether a name passes.
    pub fn accepts(&self, name: &str) -> bool {
        (self.include.is_empty() || self.include.iter().any(|r| r.is_match(name)))
            && !self.exclude.iter().any(|r| r.is_match(name))
    }
}

/// Compiles a list of anchored regexes.
pub fn compile_all(patterns: &[String]) -> Result<Vec<Regex>> {
    patterns
        .iter()
        .map(|p| Regex::new(&format!("^(?:{p})$")).with_context(|| format!("bad regex {p:?}")))
        .collect()
}

impl Spec {
    /// Reads a library spec file (no release overlay; see `release::SpecFile`).
    pub fn load(path: &Path) -> Result<Spec> {
        let specs = Spec::load_all(path)?;
        match <[Spec; 1]>::try_from(specs) {
            Ok([spec]) => Ok(spec),
            Err(_) => anyhow::bail!("{} describes a family of modules", path.display()),
        }
    }

    /// Reads a spec file that may describe a family of modules (see `from_value`).
    pub fn load_all(path: &Path) -> Result<Vec<Spec>> {
        Spec::from_value(release::read_yaml(path)?, &path.display().to_string())
    }

    /// The spec itself if it is a library spec.
    fn check_kind(self, origin: &str) -> Result<Spec> {
        if self.kind != SpecKind::Library {
            anyhow::bail!("{origin} is not a library spec");
        }
        Ok(self)
    }

    /// The specs of a spec file's YAML (`origin` names it in errors). A file may describe a
    /// family of modules: a `modules:` mapping from module name to the keys that differ
    /// (`headers`, `bind_files`, `reexports`, ...), each merged over the file's other keys.
    /// Module `core` of family `llvm` becomes spec `llvm_core`; `{module}` in string values
    /// is replaced by the module name.
    pub fn from_value(value: serde_yaml::Value, origin: &str) -> Result<Vec<Spec>> {
        let serde_yaml::Value::Mapping(mut base) = value else {
            anyhow::bail!("{origin}: a spec is a mapping");
        };
        let Some(modules) = base.remove("modules") else {
            let spec: Spec = serde_yaml::from_value(serde_yaml::Value::Mapping(base))
                .with_context(|| format!("parsing {origin}"))?;
            return Ok(vec![spec.check_kind(origin)?]);
        };
        let serde_yaml::Value::Mapping(modules) = modules else {
            anyhow::bail!("{origin}: `modules` must be a mapping");
        };
        let family = base
            .get("name")
            .and_then(|v| v.as_str())
            .context("a family spec needs a name")?
            .to_string();
        let mut out = Vec::new();
        for (module, overrides) in modules {
            let module = module
                .as_str()
                .context("module names are strings")?
                .to_string();
            let mut merged = base.clone();
            if let serde_yaml::Value::Mapping(o) = overrides {
                for (k, v) in o {
                    merged.insert(k, v);
                }
            }
            merged.insert("name".into(), format!("{family}_{module}").into());
            let value = substitute(serde_yaml::Value::Mapping(merged), &module);
            let spec: Spec = serde_yaml::from_value(value)
                .with_context(|| format!("{origin}: module {module}"))?;
            out.push(spec.check_kind(origin)?);
        }
        Ok(out)
    }

    /// The Python module this spec renders.
    pub fn python_module(&self) -> String {
        self.python_module
            .clone()
            .unwrap_or_else(|| format!("hip.{}", self.name))
    }

    /// The module's name in AMD's 10.0 layout (`rocm.bindings.hip` for `hip.hip`).
    pub fn bindings_module(&self) -> String {
        self.bindings_module
            .clone()
            .unwrap_or_else(|| format!("rocm.bindings.{}", self.name))
    }

    /// The rule for a parameter: the first key in the file that, as a regex, matches
    /// `function.param`.
    pub fn param_rule(&self, function: &str, param: &str) -> Option<&ParamRule> {
        let target = format!("{function}.{param}");
        self.params
            .0
            .iter()
            .find(|(re, _)| re.is_match(&target))
            .map(|(_, rule)| rule)
    }
}

/// Replaces `{module}` in every string of a YAML value.
fn substitute(v: serde_yaml::Value, module: &str) -> serde_yaml::Value {
    use serde_yaml::Value;
    match v {
        Value::String(s) => Value::String(s.replace("{module}", module)),
        Value::Sequence(items) => {
            Value::Sequence(items.into_iter().map(|i| substitute(i, module)).collect())
        }
        Value::Mapping(m) => Value::Mapping(
            m.into_iter()
                .map(|(k, v)| (k, substitute(v, module)))
                .collect(),
        ),
        other => other,
    }
}

#[cfg(test)]
mod param_rule_tests {
    use super::*;

    #[test]
    fn the_first_rule_in_the_file_wins() {
        // Alphabetically `a.*` sorts first; the file puts `f.x` first, and it must win.
        let spec: Spec = serde_yaml::from_str(
            "kind: library\nname: t\npackage: p\nheaders: []\nbind_files: []\nlibrary: {name: t, env: T, sonames: []}\n\
             params:\n  f\\.x: {usage: pointer}\n  '.*\\.x': {usage: out}\n",
        )
        .unwrap();
        assert_eq!(spec.param_rule("f", "x").unwrap().usage, Usage::Pointer);
        assert_eq!(spec.param_rule("g", "x").unwrap().usage, Usage::Out);
        assert!(spec.param_rule("g", "y").is_none());
    }

    #[test]
    fn a_bad_rule_is_an_error_when_the_spec_is_read() {
        let r: std::result::Result<Spec, _> = serde_yaml::from_str(
            "kind: library\nname: t\npackage: p\nheaders: []\nbind_files: []\nlibrary: {name: t, env: T, sonames: []}\n\
             params:\n  'f(': {usage: out}\n",
        );
        assert!(r.unwrap_err().to_string().contains("bad param rule"));
    }
}

#[cfg(test)]
mod file_name_tests {
    use super::*;

    #[test]
    fn names_with_a_major_are_written_per_version_newest_first_in_place() {
        let spec: LibrarySpec = serde_yaml::from_str(
            "{name: LLVM, env: E, majors: [20, 19], \
             sonames: [libLLVM.so, 'libLLVM.so.{major}.1', 'libLLVM-{major}.so', last.so]}",
        )
        .unwrap();
        assert_eq!(
            spec.file_names(),
            [
                "libLLVM.so",
                "libLLVM.so.20.1",
                "libLLVM-20.so",
                "libLLVM.so.19.1",
                "libLLVM-19.so",
                "last.so"
            ]
        );
    }
}
