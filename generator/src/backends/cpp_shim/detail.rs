//! The NVIDIA shim: a C++ source that exports every HIP function of the bindings as an
//! `extern "C"` symbol implemented over CUDA.
//!
//! HIP's `hip/nvidia_detail/*.h` define the HIP API as `static inline` C++ functions that call
//! CUDA. Nothing exports them, so the shim defines one wrapper per function, named by an asm
//! label after the symbol the bindings look up (`hipMalloc`), which calls the inline function.
//! nvidia_detail declares its functions inside `extern "C"`, so an out-of-line copy of one
//! would carry the symbol's own name: each wrapper is `flatten`ed, inlining the function
//! whole, so no copy is emitted.
//! Each wrapper is checked with libclang against the CUDA headers; those that do not compile
//! are left out (and listed), so the bindings' call raises "not available on this platform".

use crate::ir::Library;
use crate::parse::{parse_headers, Filters, HeaderSet, Part};
use anyhow::{bail, Context, Result};
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::fmt::Write;
use std::path::{Path, PathBuf};

/// One HIP function as nvidia_detail defines it.
struct Inline {
    /// Function name.
    name: String,
    /// Return type as C++ spells it.
    ret: String,
    /// Parameter types as C++ spells them.
    params: Vec<String>,
    /// Whether it calls the CUDA driver API (`cu*`), which needs a current context.
    driver: bool,
}

/// What `generate` produced.
pub struct Shim {
    /// The C++ source.
    pub source: String,
    /// Functions of the bindings exported.
    pub exported: Vec<String>,
    /// The symbols the source exports (`hipMalloc`, `hipMemcpy_spt`), one per function.
    pub symbols: Vec<String>,
    /// Functions of the bindings left out, with the reason.
    pub left_out: Vec<(String, String)>,
}

/// Compiler arguments for the NVIDIA platform headers.
fn args(include: &Path, cuda_includes: &[PathBuf]) -> Vec<String> {
    let mut a = vec![
        "-x".to_string(),
        "c++".to_string(),
        "-std=c++17".to_string(),
        "-D__HIP_PLATFORM_NVIDIA__".to_string(),
        format!("-I{}", include.display()),
    ];
    a.extend(cuda_includes.iter().map(|d| format!("-I{}", d.display())));
    a
}

const HEADERS: &str =
    "#include <hip/hip_runtime_api.h>\n#include <hip/hiprtc.h>\n#include <type_traits>\n";

/// The lookup wrappers' helper: a function of one enum returning a C string (error names and
/// strings) keeps each value's string after its first call, so a repeated call reads an array
/// instead of asking CUDA's runtime again (`cudaGetErrorString` costs ~28 ns on an H200's
/// host, as much as the rest of the Python call). Shared with `templates/cuda_shim.cpp.j2`.
pub const LOOKUP: &str = "#include <atomic>\n\
#define HIPGEN_LOOKUP 4096\n\
template <class E, class F>\n\
static inline const char *hipgen_lookup(std::atomic<const char *> *seen, E e, F make) {\n\
  const auto i = static_cast<unsigned long long>(e);\n\
  if (i >= HIPGEN_LOOKUP) return make();\n\
  if (const char *s = seen[i].load(std::memory_order_relaxed)) return s;\n\
  const char *s = make();\n\
  if (s) seen[i].store(s, std::memory_order_relaxed);\n\
  return s;\n\
}\n";

/// Enum constants as compiled for the NVIDIA platform, by name.
type Constants = HashMap<String, i64>;

/// The inline HIP functions of nvidia_detail, by name (the first definition of a name), and
/// the enum constants of the headers as they compile for NVIDIA (nvidia_detail defines some
/// of HIP's enums anew, numbered otherwise than the bindings' release): the headers read
/// through the parser, bodies included, as one IR of nvidia_detail's functions and one of
/// everything's enums.
fn inlines(
    include: &Path,
    cuda_includes: &[PathBuf],
) -> Result<(BTreeMap<String, Inline>, Constants)> {
    let headers: Vec<String> = HEADERS
        .lines()
        .filter_map(|l| l.strip_prefix("#include <")?.strip_suffix('>'))
        .map(String::from)
        .collect();
    let mut include_dirs = vec![include.to_path_buf()];
    include_dirs.extend(cuda_includes.iter().cloned());
    let set = HeaderSet {
        name: "hip-nvidia",
        headers: &headers,
        prelude: "",
        language: "c++",
        defines: &["__HIP_PLATFORM_NVIDIA__".to_string()],
        include_dirs,
        bodies: true,
        inline_functions: true,
        type_renames: false,
        filters: Filters::all(),
    };
    let detail_files = ["(.*/)?nvidia_detail/.*".to_string()];
    let all_files = [".*".to_string()];
    let parts = [
        Part {
            name: "nvidia_detail",
            bind_files: &detail_files,
        },
        Part {
            name: "all",
            bind_files: &all_files,
        },
    ];
    let libs = parse_headers(&set, &parts, "nvidia")
        .context("parsing HIP's NVIDIA headers (are the CUDA 12 headers given?)")?;
    let out = libs[0]
        .functions
        .iter()
        .map(|f| {
            let inline = Inline {
                name: f.symbol.clone(),
                ret: f.ret_spelling.clone(),
                params: f.params.iter().map(|p| p.spelling.clone()).collect(),
                driver: f.calls.iter().any(|n| is_driver_api(n)),
            };
            (f.symbol.clone(), inline)
        })
        .collect();
    // Every enum's constants, the first value of a name kept.
    let mut constants = Constants::new();
    for e in &libs[1].enums {
        for (name, value) in &e.members {
            constants.entry(name.clone()).or_insert(*value);
        }
    }
    for c in &libs[1].constants {
        if let crate::ir::ConstValue::Int(v) = c.value {
            constants.entry(c.name.clone()).or_insert(v);
        }
    }
    Ok((out, constants))
}

/// Whether a CUDA function belongs to the driver API (`cuModuleLoadData`), not the
/// runtime (`cudaMalloc`).
fn is_driver_api(name: &str) -> bool {
    name.strip_prefix("cu")
        .and_then(|rest| rest.chars().next())
        .is_some_and(|c| c.is_ascii_uppercase())
}

/// The source for the given wrappers; `lines` gets the first line of each wrapper.
fn render(wrappers: &[(&Inline, &str, bool)], lines: &mut Vec<(u32, String)>) -> String {
    let mut s = String::from(
        "// Generated by hipgen (hipgen shim) from HIP's nvidia_detail headers. Do not edit.\n\
         // Each HIP function, exported under the symbol the bindings look up, calls HIP's\n\
         // inline implementation over CUDA.\n",
    );
    s.push_str("#ifndef __HIP_PLATFORM_NVIDIA__\n#define __HIP_PLATFORM_NVIDIA__\n#endif\n");
    s.push_str(HEADERS);
    s.push_str("template <class T> using hipgen_t = T;\n");
    // Driver-API calls need a current context, which runtime-API calls create on first use
    // and HIP on AMD never asks for: the current device's primary context is made current.
    // A call returning a status is made first and again where it answered that there was no
    // context (hipErrorInvalidContext, hipErrorNotInitialized: it did nothing), so a call with
    // one pays nothing; asking first cost every call a cuCtxGetCurrent.
    s.push_str(
        "static inline void hipgen_context() {\n  CUcontext c = nullptr;\n  \
         if (cuCtxGetCurrent(&c) != CUDA_SUCCESS || c == nullptr) cudaFree(0);\n}\n\
         template <bool Init = false, class C> static inline auto hipgen_with_context(C call) {\n  \
         if constexpr (std::is_same_v<decltype(call()), hipError_t>) {\n    \
         auto r = call();\n    \
         if (r == hipErrorInvalidContext || r == hipErrorNotInitialized) {\n      \
         hipgen_context();\n      r = call();\n    } else if (Init && r == hipSuccess) {\n      \
         hipgen_context();\n    }\n    return r;\n  } else {\n    \
         hipgen_context();\n    return call();\n  }\n}\n",
    );
    s.push_str("#define HIPGEN_EXPORT extern \"C\" __attribute__((visibility(\"default\")))\n");
    s.push_str(LOOKUP);
    for (f, symbol, lookup) in wrappers {
        let params: Vec<String> = f
            .params
            .iter()
            .enumerate()
            .map(|(i, t)| format!("hipgen_t<{t}> a{i}"))
            .collect();
        let call: Vec<String> = (0..f.params.len()).map(|i| format!("a{i}")).collect();
        let line = s.lines().count() as u32 + 1;
        lines.push((line, f.name.clone()));
        let ret = format!("hipgen_t<{}>", f.ret);
        let call = format!("{}({})", f.name, call.join(", "));
        // A lookup (`Function::is_enum_lookup`) keeps each value's answer.
        let call = if *lookup {
            format!("hipgen_lookup(hipgen_seen, a0, [&] {{ return {call}; }})")
        } else {
            call
        };
        // Context management itself is left alone.
        let call = if f.driver && !f.name.starts_with("hipCtx") && !f.name.contains("PrimaryCtx") {
            // `hipInit` leaves the context current, as HIP on AMD does.
            let init = if f.name == "hipInit" { "<true>" } else { "" };
            format!("hipgen_with_context{init}([&] {{ return {call}; }})")
        } else {
            call
        };
        let seen = if *lookup {
            "static std::atomic<const char *> hipgen_seen[HIPGEN_LOOKUP]; "
        } else {
            ""
        };
        let _ = writeln!(
            s,
            "HIPGEN_EXPORT {ret} hipgen_{name}({p}) __asm__(\"{symbol}\");\n\
             __attribute__((flatten)) {ret} hipgen_{name}({p}) {{ {seen}return {call}; }}",
            name = f.name,
            p = params.join(", "),
        );
    }
    s
}

/// Generates the shim for the functions of `libs` (the bindings' IRs of hip and hiprtc).
/// `detail` holds the IRs of the release whose nvidia_detail headers `include` has, when
/// that is not the bindings' release: a function whose ABI differs there is left out.
pub fn generate(
    include: &Path,
    cuda_includes: &[PathBuf],
    libs: &[Library],
    detail: &[Library],
    to_fill: &BTreeSet<String>,
) -> Result<Shim> {
    let (inline, constants) = inlines(include, cuda_includes)?;
    if inline.is_empty() {
        bail!(
            "no inline HIP functions found in {}/hip/nvidia_detail",
            include.display()
        );
    }
    let mut left_out = Vec::new();
    let mut wanted: Vec<(&Inline, &str, bool)> = Vec::new();
    let mut seen = HashSet::new();
    for lib in libs {
        for f in &lib.functions {
            if !seen.insert(f.symbol.clone()) {
                continue;
            }
            if to_fill.contains(&f.name) {
                left_out.push((
                    f.name.clone(),
                    "over CUDA in the fill (spec's prefer)".into(),
                ));
                continue;
            }
            // The older release's ABI where its headers serve, and always the enum values
            // as the NVIDIA headers compile them.
            let old = detail.iter().find(|d| d.name == lib.name).unwrap_or(lib);
            if let Err(why) = crate::backends::cpp_shim::abi::same(old, lib, f, Some(&constants)) {
                left_out.push((f.name.clone(), why));
                continue;
            }
            match inline.get(&f.name) {
                Some(i) => wanted.push((i, f.symbol.as_str(), f.is_enum_lookup())),
                None => left_out.push((f.name.clone(), "not in HIP's NVIDIA headers".to_string())),
            }
        }
    }
    // Check with libclang; drop wrappers that do not compile, until all do.
    let path = std::env::temp_dir().join(format!("hipgen-shim-check-{}.cpp", std::process::id()));
    for _round in 0..8 {
        let mut lines = Vec::new();
        let source = render(&wanted, &mut lines);
        std::fs::write(&path, &source)?;
        let errors = crate::parse::error_lines(&path, &args(include, cuda_includes))?;
        if errors.is_empty() {
            let _ = std::fs::remove_file(&path);
            left_out.sort();
            return Ok(Shim {
                source,
                exported: wanted.iter().map(|(f, _, _)| f.name.clone()).collect(),
                symbols: wanted.iter().map(|(_, s, _)| s.to_string()).collect(),
                left_out,
            });
        }
        let mut bad = HashSet::new();
        for (line, text) in errors {
            // The wrapper whose first line is the last one at or before the error.
            if let Some((_, name)) = lines.iter().rev().find(|(l, _)| *l <= line) {
                if bad.insert(name.clone()) {
                    let first = text.lines().next().unwrap_or_default().to_string();
                    left_out.push((name.clone(), format!("does not compile: {first}")));
                }
            }
        }
        wanted.retain(|(f, _, _)| !bad.contains(&f.name));
    }
    bail!("the shim still has errors after dropping the wrappers that failed")
}
