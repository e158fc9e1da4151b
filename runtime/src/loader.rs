//! Lazy loading of shared libraries and symbols, with errors that say where we looked.
//!
//! One handle per library, opened on first use; one pointer per symbol, resolved on first
//! use and cached in an atomic, so the hot path is a single load.

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::sync::GILOnceCell;
use std::ffi::CStr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard, OnceLock};

pyo3::create_exception!(
    hip,
    HipLoadError,
    PyRuntimeError,
    "A ROCm library or one of its symbols could not be loaded."
);

/// Where a library is looked for, in the order given by the fields.
pub struct LibrarySpec {
    /// Name in messages and for `rocm_sdk.find_libraries` (`amdhip64`).
    pub name: &'static str,
    /// Environment variable holding an explicit path (`HIP_PYTHON_LIBAMDHIP64`).
    pub env: &'static str,
    /// File names tried in `$ROCM_PATH/<dir>` for each of `rocm_dirs`, then by the system
    /// loader.
    pub sonames: &'static [&'static str],
    /// Folders of a ROCm installation holding the library (`lib`; LLVM's is `llvm/lib`).
    pub rocm_dirs: &'static [&'static str],
    /// How to check that the library belongs to the release the bindings were made for.
    pub version_check: Option<VersionCheck>,
}

/// A library's version function and what the bindings expect of it.
pub enum VersionCheck {
    /// `int f(int *version)`; `version / divisor` is the major release (`hipRuntimeGetVersion`).
    Release {
        symbol: &'static CStr,
        divisor: i64,
        expected: i64,
    },
    /// `void f(size_t *major, size_t *minor)` reporting an interface version
    /// (`amd_comgr_get_version`), whose major must equal the header's.
    Interface {
        symbol: &'static CStr,
        expected: i64,
    },
}

/// A lazily opened shared library.
pub struct Library {
    /// Where to look.
    pub spec: LibrarySpec,
    /// The handle, or the message explaining why there is none.
    handle: GILOnceCell<Result<(libloading::Library, String), String>>,
    /// Serializes calls that the library cannot run concurrently (see `serial_guard`).
    serial: Mutex<()>,
}

/// Whether `HIP_PYTHON_PARALLEL_COMPILE=1` lifts the serialization of compiler calls.
fn parallel_compile() -> bool {
    static FLAG: OnceLock<bool> = OnceLock::new();
    *FLAG.get_or_init(|| std::env::var("HIP_PYTHON_PARALLEL_COMPILE").is_ok_and(|v| v == "1"))
}

impl Library {
    /// A library that is opened on first use.
    pub const fn new(spec: LibrarySpec) -> Self {
        Library {
            spec,
            handle: GILOnceCell::new(),
            serial: Mutex::new(()),
        }
    }

    /// Held around calls that run the compiler: HIP 5.2's in-process comgr/LLVM aborts or
    /// crashes when two threads compile at once. Taken with the GIL released, so other
    /// Python threads keep running; `HIP_PYTHON_PARALLEL_COMPILE=1` skips it.
    pub fn serial_guard(&self) -> Option<MutexGuard<'_, ()>> {
        if parallel_compile() {
            return None;
        }
        Some(self.serial.lock().unwrap_or_else(|e| e.into_inner()))
    }

    /// The open library, opening it (and checking its release) if needed.
    fn get(&self, py: Python<'_>) -> PyResult<&libloading::Library> {
        let mut opened_now = false;
        let result = self.handle.get_or_init(py, || {
            opened_now = true;
            self.open(py)
        });
        match result {
            Ok((lib, path)) => {
                if opened_now {
                    self.check_release(py, lib, path)?;
                }
                Ok(lib)
            }
            Err(msg) => Err(HipLoadError::new_err(msg.clone())),
        }
    }

    /// Warns when the loaded library belongs to another major release than the bindings:
    /// enums renumbered between releases (hipDeviceAttribute_t in 6.0) would then ask the
    /// library for something else.
    fn check_release(&self, py: Python<'_>, lib: &libloading::Library, path: &str) -> PyResult<()> {
        let msg = match self.spec.version_check {
            None => return Ok(()),
            Some(VersionCheck::Release {
                symbol,
                divisor,
                expected,
            }) => {
                // SAFETY: the spec names a function of signature `int f(int *)`.
                let Ok(f) = (unsafe {
                    lib.get::<unsafe extern "C" fn(*mut i32) -> i32>(symbol.to_bytes_with_nul())
                }) else {
                    return Ok(());
                };
                let mut version = 0i32;
                // SAFETY: `version` outlives the call.
                let status = py.allow_threads(|| unsafe { f(&mut version) });
                let major = i64::from(version) / divisor.max(1);
                if status != 0 || version <= 0 || major == expected {
                    return Ok(());
                }
                format!(
                    "{path} is a ROCm {major}.x library; these bindings were generated for ROCm \
                     {expected}.x. Functions keep their signatures, but enum values renumbered \
                     between releases may mean something else to this library: build bindings \
                     for your release (see README, HIPGEN_BINDINGS)."
                )
            }
            Some(VersionCheck::Interface { symbol, expected }) => {
                // SAFETY: the spec names a function of signature `void f(size_t *, size_t *)`.
                let Ok(f) = (unsafe {
                    lib.get::<unsafe extern "C" fn(*mut usize, *mut usize)>(
                        symbol.to_bytes_with_nul(),
                    )
                }) else {
                    return Ok(());
                };
                let (mut major, mut minor) = (0usize, 0usize);
                // SAFETY: both outlive the call.
                py.allow_threads(|| unsafe { f(&mut major, &mut minor) });
                if major as i64 == expected {
                    return Ok(());
                }
                format!(
                    "{path} implements interface {major}.{minor}; these bindings were generated \
                     for interface {expected}.x. Functions keep their signatures, but enum \
                     values (action kinds, languages) renumbered between interfaces would ask \
                     this library for something else: build bindings for your release (see \
                     README, HIPGEN_BINDINGS)."
                )
            }
        };
        let category = py.get_type::<pyo3::exceptions::PyRuntimeWarning>();
        PyErr::warn(
            py,
            &category,
            &std::ffi::CString::new(msg).unwrap_or_default(),
            1,
        )
    }

    /// The path the library was loaded from, or the error text; opens it (with the release
    /// check) if needed.
    pub fn describe(&self, py: Python<'_>) -> Result<String, String> {
        // A release warning turned into an error (`-W error`) is not a load failure here.
        let _ = self.get(py);
        match self.handle.get(py) {
            Some(Ok((_, path))) => Ok(path.clone()),
            Some(Err(msg)) => Err(msg.clone()),
            None => Err(format!("library '{}' was not opened", self.spec.name)),
        }
    }

    /// Whether the library is loaded (or loads) and exports `symbol`; never raises.
    pub fn resolves(&self, py: Python<'_>, symbol: &str) -> bool {
        let Ok(lib) = self.get(py) else { return false };
        let mut name = symbol.as_bytes().to_vec();
        name.push(0);
        // SAFETY: only the symbol's presence is checked; nothing is called.
        unsafe { lib.get::<*const ()>(&name) }.is_ok_and(|s| !(*s).is_null())
    }

    /// Candidates in search order: (path or soname, where it came from).
    fn candidates(&self, py: Python<'_>) -> Vec<(String, String)> {
        let spec = &self.spec;
        let mut out = Vec::new();
        if let Ok(path) = std::env::var(spec.env) {
            if !path.is_empty() {
                // An explicit override is the only candidate: silently falling back would
                // hide a typo in the path.
                return vec![(path, format!("${}", spec.env))];
            }
        }
        for path in rocm_sdk_paths(py, spec.name) {
            out.push((path, "rocm_sdk.find_libraries".to_string()));
        }
        if let Ok(root) = std::env::var("ROCM_PATH") {
            for dir in spec.rocm_dirs {
                for so in spec.sonames {
                    out.push((format!("{root}/{dir}/{so}"), format!("$ROCM_PATH/{dir}")));
                }
            }
        }
        for so in spec.sonames {
            out.push((so.to_string(), "system loader".to_string()));
        }
        out
    }

    /// Tries every candidate in order.
    fn open(&self, py: Python<'_>) -> Result<(libloading::Library, String), String> {
        let mut tried = Vec::new();
        for (path, origin) in self.candidates(py) {
            // SAFETY: loading a ROCm library runs its initialisers, which is what the user
            // asked for by calling into it.
            match unsafe { libloading::Library::new(&path) } {
                Ok(lib) => return Ok((lib, path)),
                Err(e) => tried.push(format!("  {path} ({origin}): {e}")),
            }
        }
        Err(format!(
            "could not load library '{name}'. Tried:\n{tried}\n\
             Install ROCm (or the library's package), set ROCM_PATH to its root, \
             or set {env} to the library's full path.",
            name = self.spec.name,
            tried = tried.join("\n"),
            env = self.spec.env,
        ))
    }
}

/// Paths that TheRock's `rocm_sdk` reports for a library, when it is installed.
fn rocm_sdk_paths(py: Python<'_>, name: &str) -> Vec<String> {
    let Ok(sdk) = py.import("rocm_sdk") else {
        // Not installed: the import error is expected and discarded.
        return Vec::new();
    };
    sdk.call_method1("find_libraries", (name,))
        .and_then(|r| r.try_iter()?.map(|p| p?.str()?.extract()).collect())
        .unwrap_or_default()
}

/// A lazily resolved function pointer.
pub struct Symbol {
    /// The library that exports it.
    library: &'static Library,
    /// Its name, NUL-terminated.
    name: &'static CStr,
    /// The address once resolved; 0 before.
    addr: AtomicUsize,
}

impl Symbol {
    /// A symbol resolved on first use.
    pub const fn new(library: &'static Library, name: &'static CStr) -> Self {
        Symbol {
            library,
            name,
            addr: AtomicUsize::new(0),
        }
    }

    /// The symbol's address, resolving it on first call.
    #[inline]
    pub fn get(&self, py: Python<'_>) -> PyResult<usize> {
        let a = self.addr.load(Ordering::Acquire);
        if a != 0 {
            return Ok(a);
        }
        self.resolve(py)
    }

    /// Looks the symbol up and caches it.
    #[cold]
    fn resolve(&self, py: Python<'_>) -> PyResult<usize> {
        let lib = self.library.get(py)?;
        // SAFETY: only the address is taken; the caller casts it to the C signature the
        // generator read from the header.
        let found = unsafe { lib.get::<*const ()>(self.name.to_bytes_with_nul()) };
        match found {
            Ok(sym) if !(*sym).is_null() => {
                let a = *sym as usize;
                self.addr.store(a, Ordering::Release);
                Ok(a)
            }
            _ => {
                let path = self.library.describe(py).unwrap_or_default();
                Err(HipLoadError::new_err(format!(
                    "symbol '{sym}' not found in library '{lib}' (loaded from {path}). \
                     The installed ROCm release is older or newer than the one these bindings \
                     were generated for; install a matching ROCm or set {env} to another \
                     build of the library.",
                    sym = self.name.to_string_lossy(),
                    lib = self.library.spec.name,
                    env = self.library.spec.env,
                )))
            }
        }
    }
}
