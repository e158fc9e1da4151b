//! Why a library or symbol did not load: one type, every message in its `Display`, each
//! naming the library or symbol, every place tried and what the user can do.

use std::fmt;

/// One place a library was looked for, and why it did not load from there.
#[derive(Debug, Clone)]
pub struct Tried {
    /// Path or file name handed to the loader.
    pub path: String,
    /// Where the candidate came from (`$ROCM_PATH/lib`, `system loader`, ...).
    pub origin: String,
    /// The loader's error.
    pub error: String,
}

/// A load failure; raised to Python as `HipLoadError` with this text.
#[derive(Debug, Clone)]
pub enum LoadError {
    /// No candidate of a ROCm library loaded.
    NotFound {
        library: &'static str,
        env: &'static str,
        tried: Vec<Tried>,
    },
    /// No candidate of a library loaded for the NVIDIA platform.
    NvidiaNotFound {
        library: &'static str,
        tried: Vec<Tried>,
    },
    /// The library has no NVIDIA form.
    NoNvidiaForm { library: &'static str },
    /// NVIDIA's driver library does not load.
    CudaDriver { error: String },
    /// The CUDA library a shim runs over (cuBLAS for hipBLAS) does not load.
    CudaLibrary {
        library: &'static str,
        sonames: &'static [&'static str],
        wheels: &'static [&'static str],
        tried: Vec<Tried>,
    },
    /// The library loaded but does not export the symbol.
    SymbolMissing {
        symbol: String,
        library: &'static str,
        path: String,
        env: &'static str,
    },
    /// The NVIDIA shim does not export the symbol.
    NotOnNvidia { symbol: String, path: String },
    /// Asked of a library never opened.
    NotOpened { library: &'static str },
    /// The library belongs to another release than the bindings in use, whose enums it
    /// may number differently (`found`/`expected`: `ROCm 5.x`, `interface 2.x`).
    ReleaseMismatch {
        library: &'static str,
        path: String,
        found: String,
        expected: String,
    },
}

/// The tried candidates, one per line.
fn list(tried: &[Tried]) -> String {
    tried
        .iter()
        .map(|t| format!("  {} ({}): {}", t.path, t.origin, t.error))
        .collect::<Vec<_>>()
        .join("\n")
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::NotFound {
                library,
                env,
                tried,
            } => write!(
                f,
                "could not load library '{library}'. Tried:\n{}\nInstall ROCm (or the library's \
                 package), set ROCM_PATH to its root, or set {env} to the library's full path.",
                list(tried)
            ),
            LoadError::NvidiaNotFound { library, tried } => write!(
                f,
                "could not load library '{library}' for the NVIDIA platform. Tried:\n{}\n\
                 Install hip-python built with `./build_pkgs.sh --platform nvidia` and the \
                 CUDA 12 runtime (`pip install hip-python[nvidia]`), or set HIP_PLATFORM=amd.",
                list(tried)
            ),
            LoadError::NoNvidiaForm { library } => write!(
                f,
                "library '{library}' is not available on the NVIDIA platform \
                 (HIP_PLATFORM=nvidia or no AMD runtime found): it has no CUDA counterpart."
            ),
            LoadError::CudaDriver { error } => write!(
                f,
                "the NVIDIA platform needs NVIDIA's driver library libcuda.so.1, which does \
                 not load: {error}. Install the NVIDIA driver, or set HIP_PLATFORM=amd."
            ),
            LoadError::CudaLibrary {
                library,
                sonames,
                wheels,
                tried,
            } => write!(
                f,
                "library '{library}' on the NVIDIA platform runs over NVIDIA's {}, which does \
                 not load. Tried:\n{}\nInstall NVIDIA's wheel ({}) or the CUDA toolkit, or set \
                 HIP_PLATFORM=amd.",
                sonames.join(" or "),
                list(tried),
                wheels.join(", ")
            ),
            LoadError::SymbolMissing {
                symbol,
                library,
                path,
                env,
            } => write!(
                f,
                "symbol '{symbol}' not found in library '{library}' (loaded from {path}). The \
                 installed ROCm release is older or newer than the one these bindings were \
                 generated for; install a matching ROCm or set {env} to another build of the \
                 library."
            ),
            LoadError::NotOnNvidia { symbol, path } => write!(
                f,
                "{symbol} is not available on the NVIDIA platform: neither HIP's NVIDIA headers \
                 (with this release's ABI) nor CUDA's API through HIPIFY's table implement it, \
                 so the shim ({path}) does not export it."
            ),
            LoadError::NotOpened { library } => write!(f, "library '{library}' was not opened"),
            LoadError::ReleaseMismatch {
                library,
                path,
                found,
                expected,
            } => write!(
                f,
                "library '{library}' ({path}) is {found}, but the bindings in use are of \
                 {expected}: enum values renumbered between releases would ask it for something \
                 else. Use bindings of its release (a wheel that carries them picks them by \
                 itself), or set HIP_PYTHON_ROCM_RELEASE to use these anyway (a warning then)."
            ),
        }
    }
}

impl std::error::Error for LoadError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_load_error_names_the_library_every_place_tried_and_the_way_out() {
        let e = LoadError::NotFound {
            library: "hipblas",
            env: "HIP_PYTHON_LIBHIPBLAS",
            tried: vec![
                Tried {
                    path: "/opt/rocm/lib/libhipblas.so.2".into(),
                    origin: "$ROCM_PATH/lib".into(),
                    error: "no such file".into(),
                },
                Tried {
                    path: "libhipblas.so".into(),
                    origin: "system loader".into(),
                    error: "not found".into(),
                },
            ],
        }
        .to_string();
        assert!(
            e.starts_with("could not load library 'hipblas'. Tried:\n"),
            "{e}"
        );
        assert!(e.contains("  /opt/rocm/lib/libhipblas.so.2 ($ROCM_PATH/lib): no such file\n"));
        assert!(e.contains("  libhipblas.so (system loader): not found\n"));
        assert!(e.ends_with("or set HIP_PYTHON_LIBHIPBLAS to the library's full path."));
    }

    #[test]
    fn a_missing_symbol_names_it_its_library_and_the_override() {
        let e = LoadError::SymbolMissing {
            symbol: "hipNew".into(),
            library: "hip",
            path: "/x/libamdhip64.so.6".into(),
            env: "HIP_PYTHON_LIBAMDHIP64",
        }
        .to_string();
        assert!(e.contains("'hipNew' not found in library 'hip' (loaded from /x/libamdhip64.so.6)"));
        assert!(e.contains("set HIP_PYTHON_LIBAMDHIP64"));
    }

    #[test]
    fn a_release_mismatch_names_both_releases_and_the_override() {
        let e = LoadError::ReleaseMismatch {
            library: "amdhip64",
            path: "libamdhip64.so".into(),
            found: "ROCm 8.x".into(),
            expected: "ROCm 7.x".into(),
        }
        .to_string();
        assert!(e.starts_with("library 'amdhip64' (libamdhip64.so) is ROCm 8.x, but the bindings"));
        assert!(
            e.contains("are of ROCm 7.x") && e.contains("HIP_PYTHON_ROCM_RELEASE"),
            "{e}"
        );
    }
}
