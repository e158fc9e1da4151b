//! The `rocm._native` extension: the generated amd_comgr and LLVM C API modules plus the
//! runtime classes, each published in `sys.modules` under its Python name
//! (`rocm.amd_comgr.amd_comgr`, `rocm.llvm.c.core`, ...).

use hip_bindings::{diagnostics, Module};
use pyo3::prelude::*;

/// The modules the release's manifest gives rocm-llvm-python (imports first).
fn modules() -> Vec<&'static Module> {
    hip_bindings::packages::ROCM_LLVM_PYTHON.iter().collect()
}

/// Modules are named by their Python names in what the extension reports.
fn python_name(g: &Module) -> &'static str {
    g.python_module
}

/// `[(python module, [(api name, symbol)])]`, for diagnostics and tests.
#[pyfunction]
fn symbols() -> Vec<(&'static str, &'static [(&'static str, &'static str)])> {
    diagnostics::symbols(&modules(), python_name)
}

/// `(python module, library, loaded, path or error)` per module; loads the libraries.
#[pyfunction]
fn libraries(py: Python<'_>) -> Vec<(&'static str, &'static str, bool, String)> {
    diagnostics::libraries(py, &modules(), python_name)
}

/// `(python module, [symbols that do not resolve])` for each module whose library loads.
#[pyfunction]
fn unresolved_symbols(py: Python<'_>) -> Vec<(&'static str, Vec<&'static str>)> {
    diagnostics::unresolved_symbols(py, &modules(), python_name)
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    hipgen_runtime::add_runtime_classes(m)?;
    m.add_function(wrap_pyfunction!(symbols, m)?)?;
    m.add_function(wrap_pyfunction!(libraries, m)?)?;
    m.add_function(wrap_pyfunction!(unresolved_symbols, m)?)?;
    // Each module also as an attribute named like its Rust module (`llvm_core`).
    m.add("__version__", env!("PACKAGE_VERSION"))?;
    m.add("ROCM_RELEASE", hip_bindings::ROCM_RELEASE)?;
    diagnostics::publish(m, &modules(), |g| g.name, env!("PACKAGE_VERSION"))
}
