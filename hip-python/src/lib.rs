//! The `hip._native` extension: the generated modules of the selected ROCm libraries plus
//! the runtime classes, each published in `sys.modules` as `hip.<name>`.
//!
//! The release is chosen at build time with `HIPGEN_RELEASE` (default 6.4.3); each library
//! is a cargo feature so wheels can carry any selection.

use pyo3::prelude::*;

// Generated code is kept byte for byte as hipgen writes it.
#[rustfmt::skip]
#[cfg(feature = "hip")]
#[path = "../../bindings/rocm-6.4.3/hip.rs"]
mod hip;

#[rustfmt::skip]
#[cfg(feature = "hiprtc")]
#[path = "../../bindings/rocm-6.4.3/hiprtc.rs"]
mod hiprtc;

/// Creates submodule `name`, fills it with `register`, and publishes it as `hip.<name>`.
fn add_submodule(
    parent: &Bound<'_, PyModule>,
    name: &str,
    register: fn(&Bound<'_, PyModule>) -> PyResult<()>,
) -> PyResult<()> {
    let m = PyModule::new(parent.py(), name)?;
    register(&m)?;
    hipgen_runtime::publish_module(&m, &format!("hip.{name}"))?;
    parent.add(name, &m)?;
    Ok(())
}

/// Symbols of the generated modules: `{module: {api name: symbol}}`, for diagnostics.
#[pyfunction]
fn symbols() -> Vec<(&'static str, Vec<(&'static str, &'static str)>)> {
    let mut out = Vec::new();
    #[cfg(feature = "hip")]
    out.push(("hip", hip::SYMBOLS.to_vec()));
    #[cfg(feature = "hiprtc")]
    out.push(("hiprtc", hiprtc::SYMBOLS.to_vec()));
    out
}

/// `(module, library, loaded, path or error)` for each generated module; loads the libraries.
#[pyfunction]
fn libraries(py: Python<'_>) -> Vec<(&'static str, &'static str, bool, String)> {
    let mut libs: Vec<(&'static str, &'static hipgen_runtime::Library)> = Vec::new();
    #[cfg(feature = "hip")]
    libs.push(("hip", hip::library()));
    #[cfg(feature = "hiprtc")]
    libs.push(("hiprtc", hiprtc::library()));
    libs.into_iter()
        .map(|(m, lib)| match lib.describe(py) {
            Ok(path) => (m, lib.spec.name, true, path),
            Err(e) => (m, lib.spec.name, false, e),
        })
        .collect()
}

/// The extension module.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    hipgen_runtime::add_runtime_classes(m)?;
    m.add_function(wrap_pyfunction!(symbols, m)?)?;
    m.add_function(wrap_pyfunction!(libraries, m)?)?;
    #[cfg(feature = "hip")]
    add_submodule(m, "hip", hip::register)?;
    #[cfg(feature = "hiprtc")]
    add_submodule(m, "hiprtc", hiprtc::register)?;
    Ok(())
}
