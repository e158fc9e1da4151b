//! The modules hipgen generated, one per library, each behind a feature. The files are
//! `rocm-6.4.3/<lib>.rs` (checked in) or those of the release in `HIPGEN_BINDINGS`; see
//! `build.rs`. Nothing here is written by hand except this file and `build.rs`.

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
