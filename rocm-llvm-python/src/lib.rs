//! The `rocm._native` extension: the generated amd_comgr and LLVM C API modules plus the
//! runtime classes, each published in `sys.modules` under its Python name
//! (`rocm.amd_comgr.amd_comgr`, `rocm.llvm.c.core`, ...).

use pyo3::prelude::*;

/// The extension module: what every extension of the bindings is (`extension::init`).
#[pymodule(gil_used = false)]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    // Modules are named by their Python names (`rocm.llvm.c.core`) in what it reports.
    hip_bindings::extension::init(
        m,
        hip_bindings::packages::ROCM_LLVM_PYTHON,
        |g| g.python_module,
        "rocm.llvm._util.types",
        env!("PACKAGE_VERSION"),
    )
}
