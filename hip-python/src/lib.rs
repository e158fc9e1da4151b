//! The `hip._native` extension: the generated modules of the selected ROCm libraries plus
//! the runtime classes, each published in `sys.modules` as `hip.<name>`.
//!
//! The release is chosen at build time with `HIPGEN_RELEASE` (default 6.4.3); each library
//! is a cargo feature so wheels can carry any selection.

use pyo3::prelude::*;

#[cfg(feature = "hip")]
use hip_bindings::hip;
#[cfg(feature = "hipblas")]
use hip_bindings::hipblas;
#[cfg(feature = "hipfft")]
use hip_bindings::hipfft;
#[cfg(feature = "hiprand")]
use hip_bindings::hiprand;
#[cfg(feature = "hiprtc")]
use hip_bindings::hiprtc;
#[cfg(feature = "hipsolver")]
use hip_bindings::hipsolver;
#[cfg(feature = "hipsparse")]
use hip_bindings::hipsparse;
#[cfg(feature = "rccl")]
use hip_bindings::rccl;
#[cfg(feature = "roctx")]
use hip_bindings::roctx;

/// One generated module compiled into this build.
struct Generated {
    /// Submodule name (`hip` → `hip.hip`).
    name: &'static str,
    /// Adds the module's functions, constants and types.
    register: fn(&Bound<'_, PyModule>) -> PyResult<()>,
    /// API name → symbol of each function.
    symbols: &'static [(&'static str, &'static str)],
    /// The library the module loads.
    library: fn() -> &'static hipgen_runtime::Library,
}

/// The modules selected by cargo features.
const MODULES: &[Generated] = &[
    #[cfg(feature = "hip")]
    Generated {
        name: "hip",
        register: hip::register,
        symbols: hip::SYMBOLS,
        library: hip::library,
    },
    #[cfg(feature = "hiprtc")]
    Generated {
        name: "hiprtc",
        register: hiprtc::register,
        symbols: hiprtc::SYMBOLS,
        library: hiprtc::library,
    },
    #[cfg(feature = "hipblas")]
    Generated {
        name: "hipblas",
        register: hipblas::register,
        symbols: hipblas::SYMBOLS,
        library: hipblas::library,
    },
    #[cfg(feature = "hipsparse")]
    Generated {
        name: "hipsparse",
        register: hipsparse::register,
        symbols: hipsparse::SYMBOLS,
        library: hipsparse::library,
    },
    #[cfg(feature = "rccl")]
    Generated {
        name: "rccl",
        register: rccl::register,
        symbols: rccl::SYMBOLS,
        library: rccl::library,
    },
    #[cfg(feature = "hiprand")]
    Generated {
        name: "hiprand",
        register: hiprand::register,
        symbols: hiprand::SYMBOLS,
        library: hiprand::library,
    },
    #[cfg(feature = "hipfft")]
    Generated {
        name: "hipfft",
        register: hipfft::register,
        symbols: hipfft::SYMBOLS,
        library: hipfft::library,
    },
    #[cfg(feature = "hipsolver")]
    Generated {
        name: "hipsolver",
        register: hipsolver::register,
        symbols: hipsolver::SYMBOLS,
        library: hipsolver::library,
    },
    #[cfg(feature = "roctx")]
    Generated {
        name: "roctx",
        register: roctx::register,
        symbols: roctx::SYMBOLS,
        library: roctx::library,
    },
];

/// `[(module, [(api name, symbol)])]` of the generated modules, for diagnostics and tests.
#[pyfunction]
fn symbols() -> Vec<(&'static str, &'static [(&'static str, &'static str)])> {
    MODULES.iter().map(|g| (g.name, g.symbols)).collect()
}

/// `(module, library, loaded, path or error)` for each generated module; loads the libraries.
#[pyfunction]
fn libraries(py: Python<'_>) -> Vec<(&'static str, &'static str, bool, String)> {
    MODULES
        .iter()
        .map(|g| {
            let lib = (g.library)();
            match lib.describe(py) {
                Ok(path) => (g.name, lib.spec.name, true, path),
                Err(e) => (g.name, lib.spec.name, false, e),
            }
        })
        .collect()
}

/// `(module, [symbols that do not resolve])` for each module whose library loads.
#[pyfunction]
fn unresolved_symbols(py: Python<'_>) -> Vec<(&'static str, Vec<&'static str>)> {
    MODULES
        .iter()
        .filter(|g| (g.library)().describe(py).is_ok())
        .map(|g| {
            let lib = (g.library)();
            let missing = g
                .symbols
                .iter()
                .filter(|(_, sym)| !lib.resolves(py, sym))
                .map(|(_, sym)| *sym)
                .collect();
            (g.name, missing)
        })
        .collect()
}

/// The platform the libraries load for: `amd` or `nvidia` (`HIP_PLATFORM`, else AMD when its
/// runtime loads, else NVIDIA when a CUDA driver does).
#[pyfunction]
fn platform() -> &'static str {
    hipgen_runtime::platform().name()
}

/// The extension module: runtime classes, then each generated module published as
/// `hip.<name>` in `sys.modules`.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    hipgen_runtime::add_runtime_classes(m)?;
    m.add_function(wrap_pyfunction!(symbols, m)?)?;
    m.add_function(wrap_pyfunction!(libraries, m)?)?;
    m.add_function(wrap_pyfunction!(unresolved_symbols, m)?)?;
    m.add_function(wrap_pyfunction!(platform, m)?)?;
    for g in MODULES {
        let sub = PyModule::new(m.py(), g.name)?;
        (g.register)(&sub)?;
        hipgen_runtime::publish_module(&sub, &format!("hip.{}", g.name))?;
        m.add(g.name, &sub)?;
    }
    Ok(())
}
