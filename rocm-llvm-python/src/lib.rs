//! The `rocm._native` extension: the generated amd_comgr and LLVM C API modules plus the
//! runtime classes, each published in `sys.modules` under its Python name
//! (`rocm.amd_comgr.amd_comgr`, `rocm.llvm.c.core`, ...).

use hip_bindings::Module;
use pyo3::prelude::*;

/// The modules selected by cargo features, in generation order (imports first).
fn modules() -> Vec<&'static Module> {
    let mut out: Vec<&'static Module> = Vec::new();
    #[cfg(feature = "amd_comgr")]
    {
        static COMGR: Module = hip_bindings::module_entry!(amd_comgr);
        out.push(&COMGR);
    }
    #[cfg(feature = "llvm")]
    out.extend(hip_bindings::FAMILY_LLVM.iter());
    out
}

/// `[(python module, [(api name, symbol)])]`, for diagnostics and tests.
#[pyfunction]
fn symbols() -> Vec<(&'static str, &'static [(&'static str, &'static str)])> {
    modules()
        .iter()
        .map(|g| (g.python_module, g.symbols))
        .collect()
}

/// `(python module, library, loaded, path or error)` per module; loads the libraries.
#[pyfunction]
fn libraries(py: Python<'_>) -> Vec<(&'static str, &'static str, bool, String)> {
    modules()
        .iter()
        .map(|g| {
            let lib = (g.library)();
            match lib.describe(py) {
                Ok(path) => (g.python_module, lib.spec.name, true, path),
                Err(e) => (g.python_module, lib.spec.name, false, e),
            }
        })
        .collect()
}

/// `(python module, [symbols that do not resolve])` for each module whose library loads.
#[pyfunction]
fn unresolved_symbols(py: Python<'_>) -> Vec<(&'static str, Vec<&'static str>)> {
    modules()
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
            (g.python_module, missing)
        })
        .collect()
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    hipgen_runtime::add_runtime_classes(m)?;
    m.add_function(wrap_pyfunction!(symbols, m)?)?;
    m.add_function(wrap_pyfunction!(libraries, m)?)?;
    m.add_function(wrap_pyfunction!(unresolved_symbols, m)?)?;
    let mut published = Vec::new();
    for g in modules() {
        let sub = PyModule::new(m.py(), g.name)?;
        (g.register)(&sub)?;
        hipgen_runtime::publish_module(&sub, g.python_module)?;
        m.add(g.name, &sub)?;
        published.push((sub, g.reexports));
    }
    // Re-exports once every module is in sys.modules.
    for (sub, reexports) in &published {
        hipgen_runtime::reexport::reexport(sub, reexports)?;
    }
    Ok(())
}
