//! Lazy loading of shared libraries and symbols, with errors that say where we looked.
//!
//! One handle per library, opened on first use; one pointer per symbol, resolved on first
//! use and cached in an atomic, so the hot path is a single load.

use crate::tables::{LibrarySpec, VersionCheck};
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

/// The class this extension raises for load failures: its own `HipLoadError` unless the
/// package gave it another extension's (`share_load_error`).
static LOAD_ERROR: GILOnceCell<Py<pyo3::types::PyType>> = GILOnceCell::new();

/// The class raised for load failures (`HipLoadError`).
pub fn load_error_type(py: Python<'_>) -> &Bound<'_, pyo3::types::PyType> {
    LOAD_ERROR
        .get_or_init(py, || py.get_type::<HipLoadError>().unbind())
        .bind(py)
}

/// A load failure with `message`, of the class `load_error_type` gives.
fn load_error(py: Python<'_>, message: String) -> PyErr {
    PyErr::from_type(load_error_type(py).clone(), message)
}

/// Makes this extension raise `class` for load failures: a package that loads the
/// extensions of several bindings (rocm-llvm-python's LLVM and comgr versions) gives each
/// the first one's, so that one `except HipLoadError` catches what any of them raises. False
/// where this extension has raised or handed out its own already.
#[pyfunction]
pub fn share_load_error(class: Bound<'_, pyo3::types::PyType>) -> bool {
    let py = class.py();
    LOAD_ERROR.set(py, class.unbind()).is_ok()
}

mod error;
pub mod nvidia;
pub mod platform;

pub use error::{LoadError, Tried};
pub use platform::{platform, platform_reason, Platform};

/// A lazily opened shared library.
pub struct Library {
    /// Where to look.
    pub spec: LibrarySpec,
    /// The handle and the path it came from, or why there is none.
    handle: GILOnceCell<Result<(libloading::Library, String), LoadError>>,
    /// Serializes calls that the library cannot run concurrently (see `serial_guard`).
    serial: Mutex<()>,
    /// Whether the loaded library runs those calls in parallel (`LibrarySpec::parallel_from`),
    /// decided when it is opened.
    parallel: OnceLock<bool>,
    /// (major, minor) as the library's version function (`LibrarySpec::version_check`)
    /// reported it when it was opened, whether or not it fits the bindings.
    found_version: OnceLock<(i64, i64)>,
    /// The file to load instead of searching, where the package chose it (`load_from`).
    chosen: OnceLock<String>,
}

/// `dladdr`'s answer: the file holding an address.
#[repr(C)]
struct DlInfo {
    dli_fname: *const std::ffi::c_char,
    dli_fbase: *mut std::ffi::c_void,
    dli_sname: *const std::ffi::c_char,
    dli_saddr: *mut std::ffi::c_void,
}

extern "C" {
    fn dladdr(addr: *const std::ffi::c_void, info: *mut DlInfo) -> std::ffi::c_int;
}

/// The major version of the shared library holding `addr`, from its file's name
/// (`libhiprtc.so.7` → 7; an unversioned link is followed to the file it names).
fn file_major(addr: *const std::ffi::c_void) -> Option<i64> {
    // SAFETY: dladdr only reads the loader's tables; `info` outlives the call.
    let mut info: DlInfo = unsafe { std::mem::zeroed() };
    if unsafe { dladdr(addr, &mut info) } == 0 || info.dli_fname.is_null() {
        return None;
    }
    // SAFETY: the loader's NUL-terminated path of a loaded object.
    let path = unsafe { CStr::from_ptr(info.dli_fname) }
        .to_string_lossy()
        .into_owned();
    soname_major(&path)
        .or_else(|| soname_major(&std::fs::canonicalize(&path).ok()?.to_string_lossy()))
}

/// The number after `.so.` in a library file's name (`/usr/lib/libamdhip64.so.5.2.21153` → 5).
fn soname_major(path: &str) -> Option<i64> {
    let name = path.rsplit('/').next()?;
    let (_, version) = name.split_once(".so.")?;
    version.split('.').next()?.parse().ok()
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
            parallel: OnceLock::new(),
            found_version: OnceLock::new(),
            chosen: OnceLock::new(),
        }
    }

    /// Held around calls that run the compiler where the loaded library's release cannot run
    /// two at once (HIP 5's in-process comgr/LLVM aborts or crashes then); nothing where it
    /// can (`LibrarySpec::parallel_from`: ROCm 6's hiprtc on). Taken with the GIL released, so
    /// other Python threads keep running; `HIP_PYTHON_PARALLEL_COMPILE=1` skips it anyway.
    /// Called after the function's symbol was resolved, so the library is open.
    pub fn serial_guard(&self) -> Option<MutexGuard<'_, ()>> {
        if parallel_compile() || self.parallel.get().copied().unwrap_or(false) {
            return None;
        }
        Some(self.serial.lock().unwrap_or_else(|e| e.into_inner()))
    }

    /// Whether the library's serialized calls take its lock (loading it), for a library whose
    /// spec says from which release they need not (`parallel_from`); None for another, or
    /// where it cannot load.
    pub fn serializes(&self, py: Python<'_>) -> Option<bool> {
        self.spec.parallel_from.as_ref()?;
        self.get(py).ok()?;
        Some(!parallel_compile() && !self.parallel.get().copied().unwrap_or(false))
    }

    /// Records whether the opened library's serialized calls may run in parallel: on NVIDIA
    /// (the shim passes them to NVRTC, which is thread-safe), or where the file holding
    /// `parallel_from`'s symbol is of that major version or later. Unknown is serial.
    fn decide_parallel(&self, lib: &libloading::Library) {
        let parallel = self.spec.parallel_from.as_ref().is_some_and(|from| {
            if self.on_nvidia() {
                return true;
            }
            // SAFETY: only the symbol's address is taken.
            let Ok(sym) = (unsafe { lib.get::<*const ()>(from.symbol.to_bytes_with_nul()) }) else {
                return false;
            };
            file_major(*sym as *const std::ffi::c_void).is_some_and(|major| major >= from.major)
        });
        let _ = self.parallel.set(parallel);
    }

    /// The open library, opening it (and checking its release) if needed.
    fn get(&self, py: Python<'_>) -> PyResult<&libloading::Library> {
        let result = self.handle.get_or_init(py, || {
            let (lib, path) = self.open(py)?;
            if let Err(e) = self.check_release(py, &lib, &path) {
                // Kept loaded: threads racing here each open it, and a library unloaded then
                // loaded again reruns its static constructors (comgr's LLVM registers its
                // command-line options twice and aborts).
                std::mem::forget(lib);
                return Err(e);
            }
            self.decide_parallel(&lib);
            Ok((lib, path))
        });
        match result {
            Ok((lib, _)) => Ok(lib),
            Err(e) => Err(load_error(py, e.to_string())),
        }
    }

    /// The (major, minor) version the library's version function reports, or None where
    /// its spec names none or the library lacks it.
    fn ask_version(&self, py: Python<'_>, lib: &libloading::Library) -> Option<(i64, i64)> {
        match self.spec.version_check.as_ref()? {
            VersionCheck::Release {
                symbol, divisor, ..
            } => {
                // SAFETY: the spec names a function of signature `int f(int *)`.
                let f = unsafe {
                    lib.get::<unsafe extern "C" fn(*mut i32) -> i32>(symbol.to_bytes_with_nul())
                }
                .ok()?;
                let mut version = 0i32;
                // SAFETY: `version` outlives the call.
                let status = py.allow_threads(|| unsafe { f(&mut version) });
                let divisor = (*divisor).max(1);
                (status == 0 && version > 0)
                    .then(|| (i64::from(version) / divisor, i64::from(version) % divisor))
            }
            VersionCheck::Interface { symbol, .. } => {
                // SAFETY: the spec names a function of signature `void f(size_t *, size_t *)`.
                let f = unsafe {
                    lib.get::<unsafe extern "C" fn(*mut usize, *mut usize)>(
                        symbol.to_bytes_with_nul(),
                    )
                }
                .ok()?;
                let (mut major, mut minor) = (0usize, 0usize);
                // SAFETY: both outlive the call.
                py.allow_threads(|| unsafe { f(&mut major, &mut minor) });
                Some((major as i64, minor as i64))
            }
            VersionCheck::Triple { symbol } => {
                type Triple = unsafe extern "C" fn(*mut u32, *mut u32, *mut u32);
                // SAFETY: the spec names a function of signature `void f(unsigned *, ...)`.
                let f = unsafe { lib.get::<Triple>(symbol.to_bytes_with_nul()) }.ok()?;
                let (mut major, mut minor, mut patch) = (0u32, 0u32, 0u32);
                // SAFETY: all three outlive the call.
                py.allow_threads(|| unsafe { f(&mut major, &mut minor, &mut patch) });
                Some((i64::from(major), i64::from(minor)))
            }
        }
    }

    /// Whether the loaded library belongs to the release of the bindings: enums renumbered
    /// between releases (hipDeviceAttribute_t in 6.0, comgr's action kinds in interface 3)
    /// would ask another release's library for something else. A mismatch is an error,
    /// kept as the library's load result; with `HIP_PYTHON_ROCM_RELEASE` set (the user
    /// chose these bindings) it is a warning. The version found is recorded either way.
    fn check_release(
        &self,
        py: Python<'_>,
        lib: &libloading::Library,
        path: &str,
    ) -> Result<(), LoadError> {
        if self.on_nvidia() {
            // The shim reports CUDA's versions, not a ROCm release.
            return Ok(());
        }
        let Some((major, minor)) = self.ask_version(py, lib) else {
            return Ok(());
        };
        let _ = self.found_version.set((major, minor));
        let (found, expected) = match self.spec.version_check {
            Some(VersionCheck::Release { expected, .. }) if major != expected => {
                (format!("ROCm {major}.x"), format!("ROCm {expected}.x"))
            }
            Some(VersionCheck::Interface { expected, .. }) if major != expected => (
                format!("interface {major}.{minor}"),
                format!("interface {expected}.x"),
            ),
            _ => return Ok(()),
        };
        let mismatch = LoadError::ReleaseMismatch {
            library: self.spec.name,
            path: path.to_string(),
            found,
            expected,
        };
        if std::env::var_os("HIP_PYTHON_ROCM_RELEASE").is_none_or(|v| v.is_empty()) {
            return Err(mismatch);
        }
        let category = py.get_type::<pyo3::exceptions::PyRuntimeWarning>();
        let msg = std::ffi::CString::new(mismatch.to_string()).unwrap_or_default();
        // A warning filter that turns warnings into errors (`-W error`) makes it one.
        match PyErr::warn(py, &category, &msg, 1) {
            Ok(()) => Ok(()),
            Err(_) => Err(mismatch),
        }
    }

    /// The path the library loads from and (major, minor) as its version function reports
    /// them (None where it reports none: LLVM before 16 has no `LLVMGetVersion`), opening it
    /// if needed; found even where the version does not fit the bindings. None where it does
    /// not load.
    pub fn found_version(&self, py: Python<'_>) -> Option<(String, Option<(i64, i64)>)> {
        match self.handle.get(py) {
            Some(Ok((lib, path))) => Some((path.clone(), self.ask_version(py, lib))),
            Some(Err(LoadError::ReleaseMismatch { path, .. })) => {
                Some((path.clone(), self.found_version.get().copied()))
            }
            Some(Err(_)) => None,
            // Searched and asked, not opened for these bindings: no release check, no warning
            // where they do not fit the version found (the package then uses others).
            None => {
                let (lib, path) = self.open(py).ok()?;
                let version = self.ask_version(py, &lib);
                // Kept loaded: a library unloaded and loaded again reruns its initialisers.
                std::mem::forget(lib);
                Some((path, version))
            }
        }
    }

    /// Where the library is found under other file names (another release's `sonames`), by
    /// the same search, and (major, minor) as its version function reports them: for a package
    /// that carries bindings of several releases and must choose before loading any. The file
    /// found stays loaded (unloading reruns its initialisers); these bindings do not use it.
    pub fn probe(&self, py: Python<'_>, sonames: &[&str]) -> Option<(String, Option<(i64, i64)>)> {
        search_order(py, &self.spec, sonames)
            .into_iter()
            .find_map(|(path, _)| {
                // SAFETY: as in `open`: loading runs the library's initialisers.
                let lib = unsafe { libloading::Library::new(&path) }.ok()?;
                let version = self.ask_version(py, &lib);
                std::mem::forget(lib);
                Some((path, version))
            })
    }

    /// The path the library was loaded from, or the error text; opens it (with the release
    /// check) if needed.
    pub fn describe(&self, py: Python<'_>) -> Result<String, String> {
        let _ = self.get(py);
        match self.handle.get(py) {
            Some(Ok((_, path))) => Ok(path.clone()),
            Some(Err(e)) => Err(e.to_string()),
            None => Err(LoadError::NotOpened {
                library: self.spec.name,
            }
            .to_string()),
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

    /// The address of `symbol` (the library is opened if needed), or an error naming the
    /// symbol and where the library was loaded from.
    pub fn address(&self, py: Python<'_>, symbol: &CStr) -> PyResult<usize> {
        let lib = self.get(py)?;
        // SAFETY: only the address is taken; the caller casts it to the C signature the
        // generator read from the header.
        let found = unsafe { lib.get::<*const ()>(symbol.to_bytes_with_nul()) };
        let symbol = symbol.to_string_lossy().into_owned();
        let path = || self.describe(py).unwrap_or_default();
        let missing = match found {
            Ok(sym) if !(*sym).is_null() => return Ok(*sym as usize),
            _ if self.on_nvidia() => LoadError::NotOnNvidia {
                symbol,
                path: path(),
            },
            _ => LoadError::SymbolMissing {
                symbol,
                library: self.spec.name,
                path: path(),
                env: self.spec.env,
            },
        };
        Err(load_error(py, missing.to_string()))
    }

    /// Whether the library loads for the NVIDIA platform (asks for the platform only for
    /// libraries that depend on it).
    fn on_nvidia(&self) -> bool {
        !matches!(&self.spec.nvidia, Some(nv) if nv.same) && platform() == Platform::Nvidia
    }

    /// Makes the library load from `path` alone, where it was not opened yet: a package that
    /// found it through another extension's search (rocm-llvm-python, choosing the bindings
    /// of the version found) opens that same file. False where it is open already.
    pub fn load_from(&self, py: Python<'_>, path: &str) -> bool {
        self.handle.get(py).is_none() && self.chosen.set(path.to_string()).is_ok()
    }

    /// Candidates in search order: (path or soname, where it came from).
    fn candidates(&self, py: Python<'_>) -> Vec<(String, String)> {
        if self.on_nvidia() {
            return nvidia::candidates(py, &self.spec);
        }
        if let Some(path) = self.chosen.get() {
            return vec![(
                path.clone(),
                "the version found chose these bindings".into(),
            )];
        }
        search_order(py, &self.spec, self.spec.sonames)
    }

    /// Tries every candidate in order.
    fn open(&self, py: Python<'_>) -> Result<(libloading::Library, String), LoadError> {
        let nvidia = self.on_nvidia();
        if nvidia {
            nvidia::prepare(py, &self.spec)?;
        }
        let mut tried = Vec::new();
        for (path, origin) in self.candidates(py) {
            // SAFETY: loading a ROCm library runs its initialisers, which is what the user
            // asked for by calling into it. The shim is bound now, so a missing CUDA symbol
            // is a load error here rather than a crash at its first call.
            let opened = if nvidia {
                unsafe {
                    libloading::os::unix::Library::open(
                        Some(&path),
                        libloading::os::unix::RTLD_NOW | libloading::os::unix::RTLD_LOCAL,
                    )
                }
                .map(libloading::Library::from)
            } else {
                unsafe { libloading::Library::new(&path) }
            };
            match opened {
                Ok(lib) => return Ok((lib, path)),
                Err(e) => tried.push(Tried {
                    path,
                    origin,
                    error: e.to_string(),
                }),
            }
        }
        let library = self.spec.name;
        Err(if nvidia {
            LoadError::NvidiaNotFound { library, tried }
        } else {
            LoadError::NotFound {
                library,
                env: self.spec.env,
                tried,
            }
        })
    }
}

/// Where a library of `spec` is looked for under file names `sonames`, in order: (path or
/// soname, where it came from). `$<env>` alone where set (silently falling back would hide a
/// typo in the path), else TheRock's `rocm_sdk`, each ROCm installation's folders, then the
/// system loader.
fn search_order(py: Python<'_>, spec: &LibrarySpec, sonames: &[&str]) -> Vec<(String, String)> {
    if let Ok(path) = std::env::var(spec.env) {
        if !path.is_empty() {
            return vec![(path, format!("${}", spec.env))];
        }
    }
    let mut out: Vec<(String, String)> = rocm_sdk_paths(py, spec.name)
        .into_iter()
        .map(|path| (path, "rocm_sdk.find_libraries".to_string()))
        .collect();
    for (root, origin) in rocm_roots() {
        for dir in spec.rocm_dirs {
            for so in sonames.iter().filter(|so| !so.starts_with('/')) {
                out.push((format!("{root}/{dir}/{so}"), format!("{origin}/{dir}")));
            }
        }
    }
    out.extend(
        sonames
            .iter()
            .map(|so| (so.to_string(), "system loader".to_string())),
    );
    out
}

/// The ROCm installations searched, with how each is named in messages: `$ROCM_PATH` where
/// it is set; else AMD's default places, `/opt/rocm` and then each `/opt/rocm-<version>`,
/// newest first (ROCm's own LLVM is found there, outside the loader's path).
fn rocm_roots() -> Vec<(String, String)> {
    if let Some(root) = std::env::var_os("ROCM_PATH").filter(|r| !r.is_empty()) {
        return vec![(root.to_string_lossy().into_owned(), "$ROCM_PATH".into())];
    }
    let mut versioned: Vec<(Vec<u64>, String)> = std::fs::read_dir("/opt")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|entry| {
            let name = entry.file_name().to_string_lossy().into_owned();
            let version = name.strip_prefix("rocm-")?;
            let key = version.split('.').map(|p| p.parse().unwrap_or(0)).collect();
            Some((key, format!("/opt/{name}")))
        })
        .collect();
    versioned.sort_by(|a, b| b.0.cmp(&a.0));
    std::iter::once("/opt/rocm".to_string())
        .chain(versioned.into_iter().map(|(_, dir)| dir))
        .filter(|dir| std::path::Path::new(dir).is_dir())
        .map(|dir| (dir.clone(), dir))
        .collect()
}

/// The folders of an installed Python package (`hip`, `nvidia.nccl`); none if absent.
pub(crate) fn package_dirs(py: Python<'_>, package: &str) -> Vec<String> {
    py.import("importlib.util")
        .and_then(|u| u.call_method1("find_spec", (package,)))
        .and_then(|spec| spec.getattr("submodule_search_locations"))
        .and_then(|locs| locs.try_iter()?.map(|p| p?.str()?.extract()).collect())
        .unwrap_or_default()
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
        let a = self.library.address(py, self.name)?;
        self.addr.store(a, Ordering::Release);
        Ok(a)
    }
}

#[cfg(test)]
mod tests {
    use super::soname_major;

    #[test]
    fn the_major_version_is_read_from_the_file_name() {
        assert_eq!(
            soname_major("/usr/lib/x86_64-linux-gnu/libamdhip64.so.5.2.21153"),
            Some(5)
        );
        assert_eq!(soname_major("libhiprtc.so.7"), Some(7));
        assert_eq!(soname_major("/opt/rocm/lib/libhiprtc.so"), None);
        assert_eq!(soname_major("libhip_nvidia.so"), None);
    }
}
