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

/// What both extension modules of the bindings are (`hip._native`, `rocm._native`): the
/// runtime's classes, the diagnostics functions, and the package's generated modules, each
/// published under its Python name. A package's crate calls [`extension::init`] and adds what
/// is its own.
pub mod extension {
    use super::Module;
    use pyo3::prelude::*;
    use pyo3::types::PyTuple;
    use std::sync::OnceLock;

    /// The package this extension is: its modules and how a module is named in reports.
    struct Package {
        modules: &'static [Module],
        key: fn(&Module) -> &'static str,
    }

    /// Set once by `init` (each extension is a library of its own, with its own statics).
    static PACKAGE: OnceLock<Package> = OnceLock::new();

    fn package() -> &'static Package {
        PACKAGE.get().expect("extension::init ran")
    }

    /// The generated modules of this extension (none before `init`).
    pub(crate) fn package_modules() -> &'static [Module] {
        PACKAGE.get().map_or(&[], |p| p.modules)
    }

    /// `[(module, [(api name, symbol)])]` of the generated modules.
    #[pyfunction]
    fn symbols() -> Vec<(&'static str, &'static [(&'static str, &'static str)])> {
        let p = package();
        p.modules.iter().map(|g| ((p.key)(g), g.symbols)).collect()
    }

    /// `(module, library, loaded, path or error)` for each generated module; loads the
    /// libraries.
    #[pyfunction]
    fn libraries(py: Python<'_>) -> Vec<(&'static str, &'static str, bool, String)> {
        let p = package();
        p.modules
            .iter()
            .map(|g| {
                let lib = (g.library)();
                match lib.describe(py) {
                    Ok(path) => ((p.key)(g), lib.spec.name, true, path),
                    Err(e) => ((p.key)(g), lib.spec.name, false, e),
                }
            })
            .collect()
    }

    /// `(path, major, minor)` of library `name` (`LLVM`, `amd_comgr`, `amdhip64`), the version
    /// as its version function reports it (None, None where it reports none), loading it;
    /// found even where the version does not fit these bindings. `sonames`: look for it under
    /// these file names instead (another release's), by the same search. None where no module
    /// loads it or it does not load.
    #[pyfunction]
    #[pyo3(signature = (name, sonames=None))]
    fn library_version(
        py: Python<'_>,
        name: &str,
        sonames: Option<Vec<String>>,
    ) -> Option<(String, Option<i64>, Option<i64>)> {
        let lib = package()
            .modules
            .iter()
            .map(|g| (g.library)())
            .find(|lib| lib.spec.name == name)?;
        let found = match &sonames {
            Some(names) => lib.probe(py, &names.iter().map(String::as_str).collect::<Vec<_>>()),
            None => lib.found_version(py),
        };
        found.map(|(path, version)| (path, version.map(|v| v.0), version.map(|v| v.1)))
    }

    /// Makes library `name` load from `path` (found by another extension of the package, whose
    /// version chose these bindings) instead of searching; the number of modules it serves
    /// that will, 0 where it is loaded already or no module loads it.
    #[pyfunction]
    fn load_library_from(py: Python<'_>, name: &str, path: &str) -> usize {
        package()
            .modules
            .iter()
            .map(|g| (g.library)())
            .filter(|lib| lib.spec.name == name && lib.load_from(py, path))
            .count()
    }

    /// `(module, [symbols that do not resolve])` for each module whose library loads.
    #[pyfunction]
    fn unresolved_symbols(py: Python<'_>) -> Vec<(&'static str, Vec<&'static str>)> {
        let p = package();
        p.modules
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
                ((p.key)(g), missing)
            })
            .collect()
    }

    /// `(module, whether the calls its spec serializes take the library's lock)` for each
    /// module whose library loads: the lock is taken where the loaded library's release cannot
    /// run them from two threads at once (hiprtc before ROCm 6; `LibrarySpec::parallel_from`).
    #[pyfunction]
    fn serialized_calls(py: Python<'_>) -> Vec<(&'static str, bool)> {
        let p = package();
        p.modules
            .iter()
            .filter_map(|g| Some(((p.key)(g), (g.library)().serializes(py)?)))
            .collect()
    }

    /// The platform the libraries load for: `amd` or `nvidia` (`HIP_PLATFORM`, else by the
    /// GPUs present; see `platform_reason`).
    #[pyfunction]
    fn platform() -> &'static str {
        hipgen_runtime::platform().name()
    }

    /// Why `platform()` chose what it did (`HIP_PLATFORM`, the GPUs found, or which runtime
    /// loads).
    #[pyfunction]
    fn platform_reason() -> &'static str {
        hipgen_runtime::platform_reason()
    }

    /// Makes `m` the extension of the package whose generated modules are `modules`: the
    /// runtime's classes (named as classes of `types_module`, the package's `_util.types`),
    /// the functions above (which name a module by its `key`), `__version__` (`version`, the
    /// package's), `ROCM_RELEASE`, `MODULES` (the modules' Rust names); then each module,
    /// registered, published in `sys.modules` under its Python name and as the attribute of
    /// `m` of its Rust name (`hip`, `llvm_core`), with its re-exports set up once every module
    /// is published.
    pub fn init(
        m: &Bound<'_, PyModule>,
        modules: &'static [Module],
        key: fn(&Module) -> &'static str,
        types_module: &str,
        version: &str,
    ) -> PyResult<()> {
        let _ = PACKAGE.set(Package { modules, key });
        hipgen_runtime::add_runtime_classes(m, types_module)?;
        m.add_function(wrap_pyfunction!(symbols, m)?)?;
        m.add_function(wrap_pyfunction!(libraries, m)?)?;
        m.add_function(wrap_pyfunction!(library_version, m)?)?;
        m.add_function(wrap_pyfunction!(load_library_from, m)?)?;
        m.add_function(wrap_pyfunction!(unresolved_symbols, m)?)?;
        m.add_function(wrap_pyfunction!(serialized_calls, m)?)?;
        m.add_function(wrap_pyfunction!(platform, m)?)?;
        m.add_function(wrap_pyfunction!(platform_reason, m)?)?;
        m.add("__version__", version)?;
        m.add("ROCM_RELEASE", super::ROCM_RELEASE)?;
        m.add("_c_lookup", super::capi::capsule(m.py(), modules)?)?;
        let names: Vec<&str> = modules.iter().map(|g| g.name).collect();
        m.add("MODULES", PyTuple::new(m.py(), names)?)?;
        let mut published = Vec::new();
        for g in modules {
            let sub = PyModule::new(m.py(), g.name)?;
            (g.register)(&sub)?;
            sub.add("__version__", version)?;
            hipgen_runtime::publish_module(&sub, g.python_module)?;
            m.add(g.name, &sub)?;
            published.push((sub, g.reexports));
        }
        for (sub, reexports) in &published {
            hipgen_runtime::reexport::reexport(sub, reexports)?;
        }
        Ok(())
    }
}

/// The C level's loader (`hipgen_lookup_fn` of templates/pxd.j2), which the `.pxd`
/// trampolines of a Cython extension call on a function's first call.
mod capi {
    use super::extension::package_modules;
    use pyo3::prelude::*;
    use std::ffi::{c_char, c_void, CStr, CString};
    use std::ptr::null_mut;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::OnceLock;

    /// The address of `symbol` in the library of generated module `library`, as the Python
    /// bindings load it (the same search, the same NVIDIA shim), or NULL where the `.pxd` is
    /// of another release than this extension (its types are laid out for that one), the
    /// module is not built in, or the library or symbol is missing (that load error is
    /// reported as unraisable, as the Python bindings would raise it).
    unsafe extern "C" fn c_lookup(
        release: *const c_char,
        library: *const c_char,
        symbol: *const c_char,
    ) -> *mut c_void {
        if release.is_null() || library.is_null() || symbol.is_null() {
            return null_mut();
        }
        // SAFETY: the trampolines pass NUL-terminated literals.
        let (release, library, symbol) = unsafe {
            (
                CStr::from_ptr(release),
                CStr::from_ptr(library),
                CStr::from_ptr(symbol),
            )
        };
        if release.to_bytes() != super::ROCM_RELEASE.as_bytes() {
            // Said once: every function of that `.pxd` answers its error status here.
            static SAID: AtomicBool = AtomicBool::new(false);
            if !SAID.swap(true, Ordering::Relaxed) {
                Python::with_gil(|py| {
                    let e = pyo3::exceptions::PyRuntimeError::new_err(format!(
                        "Cython declarations of ROCm {} called, but this process uses the bindings \
                         of ROCm {} (the installed runtime's, or HIP_PYTHON_ROCM_RELEASE): their \
                         functions return the library's error status",
                        release.to_string_lossy(),
                        super::ROCM_RELEASE
                    ));
                    e.write_unraisable(py, None);
                });
            }
            return null_mut();
        }
        let Some(m) = package_modules()
            .iter()
            .find(|g| g.name.as_bytes() == library.to_bytes())
        else {
            return null_mut();
        };
        Python::with_gil(|py| match (m.library)().address(py, symbol) {
            Ok(a) => a as *mut c_void,
            Err(e) => {
                e.write_unraisable(py, None);
                null_mut()
            }
        })
    }

    /// A capsule named `<package>._c_lookup` (the package of the extension's modules) holding
    /// `c_lookup`.
    pub fn capsule<'py>(py: Python<'py>, modules: &[super::Module]) -> PyResult<Bound<'py, PyAny>> {
        static NAME: OnceLock<CString> = OnceLock::new();
        let package = modules.first().map_or("hip", |g| {
            g.python_module.split('.').next().unwrap_or("hip")
        });
        let name = NAME.get_or_init(|| {
            CString::new(format!("{package}._c_lookup")).expect("no NUL in a module name")
        });
        let f: unsafe extern "C" fn(*const c_char, *const c_char, *const c_char) -> *mut c_void =
            c_lookup;
        // SAFETY: a function pointer lives forever; the name is static.
        unsafe {
            let cap = pyo3::ffi::PyCapsule_New(f as *mut c_void, name.as_ptr(), None);
            Bound::from_owned_ptr_or_err(py, cap)
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
