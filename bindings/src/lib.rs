//! The modules hipgen generated for one release: the checked-in default release's
//! (`rocm-<release>/`, whose manifest.json says `default`) or the folder in
//! `HIPGEN_BINDINGS`, as its manifest lists them (see `build.rs`), with a table of each
//! package's modules in `packages`. Nothing here is written by hand except this file and
//! `build.rs`.

use pyo3::prelude::*;

/// One generated module, as an extension registers and publishes it.
pub struct Module {
    /// Rust module (spec) name, e.g. `llvm_core`.
    pub name: &'static str,
    /// Python module it is published as, e.g. `rocm.llvm.c.core`.
    pub python_module: &'static str,
    /// Adds the module's functions, constants and types.
    pub register: fn(&Bound<'_, PyModule>) -> PyResult<()>,
    /// API name → symbol of each function.
    pub symbols: &'static [(&'static str, &'static str)],
    /// The library the module loads.
    pub library: fn() -> &'static hipgen_runtime::Library,
    /// Python modules whose names this one also exposes.
    pub reexports: &'static [&'static str],
}

impl Module {
    /// The table entry of generated module `m`.
    #[doc(hidden)]
    #[allow(non_snake_case)]
    pub const fn of(
        name: &'static str,
        python_module: &'static str,
        register: fn(&Bound<'_, PyModule>) -> PyResult<()>,
        symbols: &'static [(&'static str, &'static str)],
        library: fn() -> &'static hipgen_runtime::Library,
        reexports: &'static [&'static str],
    ) -> Self {
        Module {
            name,
            python_module,
            register,
            symbols,
            library,
            reexports,
        }
    }
}

/// Diagnostics and publishing shared by the extensions (`hip._native`, `rocm._native`).
/// `key` names a module in what they report (`hip` or `rocm.llvm.c.core`).
pub mod diagnostics {
    use super::Module;
    use pyo3::prelude::*;

    /// `[(module, [(api name, symbol)])]`.
    pub fn symbols(
        modules: &[&'static Module],
        key: fn(&Module) -> &'static str,
    ) -> Vec<(&'static str, &'static [(&'static str, &'static str)])> {
        modules.iter().map(|g| (key(g), g.symbols)).collect()
    }

    /// `(module, library, loaded, path or error)` per module; loads the libraries.
    pub fn libraries(
        py: Python<'_>,
        modules: &[&'static Module],
        key: fn(&Module) -> &'static str,
    ) -> Vec<(&'static str, &'static str, bool, String)> {
        modules
            .iter()
            .map(|g| {
                let lib = (g.library)();
                match lib.describe(py) {
                    Ok(path) => (key(g), lib.spec.name, true, path),
                    Err(e) => (key(g), lib.spec.name, false, e),
                }
            })
            .collect()
    }

    /// `(module, [symbols that do not resolve])` for each module whose library loads.
    pub fn unresolved_symbols(
        py: Python<'_>,
        modules: &[&'static Module],
        key: fn(&Module) -> &'static str,
    ) -> Vec<(&'static str, Vec<&'static str>)> {
        modules
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
                (key(g), missing)
            })
            .collect()
    }

    /// Registers each module, publishes it in `sys.modules` under its Python name and as
    /// attribute `key` of `m`, then sets up re-exports (once every module is published).
    /// `version` (the package's) becomes each module's `__version__`.
    pub fn publish(
        m: &Bound<'_, PyModule>,
        modules: &[&'static Module],
        key: fn(&Module) -> &'static str,
        version: &str,
    ) -> PyResult<()> {
        let mut published = Vec::new();
        for g in modules {
            let sub = PyModule::new(m.py(), g.name)?;
            (g.register)(&sub)?;
            sub.add("__version__", version)?;
            hipgen_runtime::publish_module(&sub, g.python_module)?;
            m.add(key(g), &sub)?;
            published.push((sub, g.reexports));
        }
        for (sub, reexports) in &published {
            hipgen_runtime::reexport::reexport(sub, reexports)?;
        }
        Ok(())
    }
}

/// The `Module` entry of a generated module.
#[macro_export]
macro_rules! module_entry {
    ($m:ident) => {
        $crate::Module::of(
            stringify!($m),
            $crate::$m::PYTHON_MODULE,
            $crate::$m::register,
            $crate::$m::SYMBOLS,
            $crate::$m::library,
            $crate::$m::REEXPORTS,
        )
    };
}

// The generated modules (and family tables), after the macro they use.
include!(concat!(env!("OUT_DIR"), "/modules.rs"));
