//! The `hip._native` extension: the generated modules of the selected ROCm libraries plus
//! the runtime classes, each published in `sys.modules` as `hip.<name>`.
//!
//! The release is the bindings folder's (see hip-bindings' build.rs); the modules are those
//! its manifest gives hip-python, narrowed by `HIPGEN_LIBS` at build time.

use hip_bindings::{diagnostics, Module};
use pyo3::prelude::*;
use pyo3::types::PyTuple;

fn modules() -> Vec<&'static Module> {
    hip_bindings::packages::HIP_PYTHON.iter().collect()
}

/// Modules are named by their short names (`hip` for `hip.hip`) in what the extension reports.
fn short_name(g: &Module) -> &'static str {
    g.name
}

/// `[(module, [(api name, symbol)])]` of the generated modules, for diagnostics and tests.
#[pyfunction]
fn symbols() -> Vec<(&'static str, &'static [(&'static str, &'static str)])> {
    diagnostics::symbols(&modules(), short_name)
}

/// `(module, library, loaded, path or error)` for each generated module; loads the libraries.
#[pyfunction]
fn libraries(py: Python<'_>) -> Vec<(&'static str, &'static str, bool, String)> {
    diagnostics::libraries(py, &modules(), short_name)
}

/// `(module, [symbols that do not resolve])` for each module whose library loads.
#[pyfunction]
fn unresolved_symbols(py: Python<'_>) -> Vec<(&'static str, Vec<&'static str>)> {
    diagnostics::unresolved_symbols(py, &modules(), short_name)
}

/// The platform the libraries load for: `amd` or `nvidia` (`HIP_PLATFORM`, else by the GPUs
/// present; see `platform_reason`).
#[pyfunction]
fn platform() -> &'static str {
    hipgen_runtime::platform().name()
}

/// Why `platform()` chose what it did (`HIP_PLATFORM`, the GPUs found, or which runtime loads).
#[pyfunction]
fn platform_reason() -> &'static str {
    hipgen_runtime::platform_reason()
}

/// The native adapter of CUDA function `name` of cuda-python module `module` in
/// cuda-bindings `version`'s conventions (hip-python-as-cuda asks), or None.
#[pyfunction]
fn cuda_adapter(
    py: Python<'_>,
    version: &str,
    module: &str,
    name: &str,
) -> PyResult<Option<PyObject>> {
    hip_bindings::cuda_adapters::make(py, version, module, name)
}

/// (cuda-bindings version, CUDA name) of every native CUDA adapter.
#[pyfunction]
fn cuda_adapters() -> Vec<(&'static str, &'static str)> {
    hip_bindings::cuda_adapters::adapters()
}

/// The calling conventions of cuda-bindings `version` the CUDA adapters were made from (JSON),
/// or None: the plan of this extension's release, which the cuda package reads.
#[pyfunction]
fn cuda_conventions(version: &str) -> Option<&'static str> {
    hip_bindings::cuda_adapters::CONVENTIONS
        .iter()
        .find(|(v, _)| *v == version)
        .map(|(_, json)| *json)
}

/// The table of CUDA's records of cuda-bindings `version` whose type names resolve in
/// `layout` (`cuda`, or `hip`: the classes HIP's functions take), or None.
#[pyfunction]
fn cuda_types(version: &str, layout: &str) -> Option<hipgen_runtime::TypeTable> {
    hip_bindings::cuda_adapters::types(version, layout)
        .map(|table| hipgen_runtime::TypeTable { table })
}

/// The C values cuda-python's `kernelParams` form `obj` stands for, 8 bytes per argument as
/// the native adapters pack them (for tests).
#[pyfunction]
fn _kernel_param_values(obj: &Bound<'_, PyAny>) -> PyResult<Vec<u64>> {
    hipgen_runtime::kernel_params::packed_values(obj)
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
    m.add_function(wrap_pyfunction!(platform_reason, m)?)?;
    m.add_function(wrap_pyfunction!(cuda_adapter, m)?)?;
    m.add_function(wrap_pyfunction!(cuda_adapters, m)?)?;
    m.add_function(wrap_pyfunction!(cuda_conventions, m)?)?;
    m.add_function(wrap_pyfunction!(cuda_types, m)?)?;
    m.add_function(wrap_pyfunction!(_kernel_param_values, m)?)?;
    m.add("__version__", env!("PACKAGE_VERSION"))?;
    m.add("ROCM_RELEASE", hip_bindings::ROCM_RELEASE)?;
    let names: Vec<&str> = modules().iter().map(|g| short_name(g)).collect();
    m.add("MODULES", PyTuple::new(m.py(), names)?)?;
    diagnostics::publish(m, &modules(), short_name, env!("PACKAGE_VERSION"))
}
