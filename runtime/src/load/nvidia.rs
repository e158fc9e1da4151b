//! The NVIDIA platform's loading policy: HIP's libraries there are our shims (HIP over CUDA,
//! in the `hip` package's `_nvidia/`) or NVIDIA's own libraries (NCCL for RCCL, from its
//! wheel or the system), and the shims find CUDA's libraries (driver, runtime, NVRTC, cuBLAS
//! and the others) loaded globally before them, from NVIDIA's wheels or the system, so that
//! one build serves CUDA 12 and 13. Nothing else in the runtime knows of CUDA.

use super::{package_dirs, LoadError, Tried};
use crate::tables::{CudaLibrary, LibrarySpec};
use pyo3::prelude::*;
use std::sync::OnceLock;

/// `HIP_LAUNCH_PARAM_END` on AMD; CUDA's `CU_LAUNCH_PARAM_END` is 0.
const AMD_LAUNCH_PARAM_END: usize = 0x03;

/// The end marker of a kernel launch's `extra` array on the platform HIP runs on.
pub fn launch_param_end() -> usize {
    match super::platform() {
        super::Platform::Amd => AMD_LAUNCH_PARAM_END,
        super::Platform::Nvidia => 0x00,
    }
}

/// What must be loaded before the library itself on NVIDIA: for our shims, the driver and
/// CUDA's runtime and NVRTC, and the CUDA library a shim runs over.
pub(super) fn prepare(py: Python<'_>, spec: &LibrarySpec) -> Result<(), LoadError> {
    match &spec.nvidia {
        None => Err(LoadError::NoNvidiaForm { library: spec.name }),
        Some(nv) if nv.shim.is_some() => {
            cuda_driver()?;
            preload_cuda_libraries(py);
            if let Some(cuda) = &nv.cuda {
                preload_math_library(py, spec.name, cuda)?;
            }
            Ok(())
        }
        Some(_) => Ok(()),
    }
}

/// Candidates on the NVIDIA platform: the override, then our shim beside the `hip`
/// package (HIP over CUDA) or the NVIDIA library (from its wheel, then the system).
pub(super) fn candidates(py: Python<'_>, spec: &LibrarySpec) -> Vec<(String, String)> {
    let Some(nv) = &spec.nvidia else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let (env, names): (&str, Vec<String>) = match nv.shim {
        // hip's shim keeps the variable it always had; with CUDA 13's runtime it is the
        // build over CUDA 13's API.
        Some(shim) if nv.cuda.is_none() => (
            "HIP_PYTHON_NVIDIA_SHIM",
            vec![shim_for_runtime(shim, cuda_runtime_major(py))],
        ),
        Some(shim) => (spec.env, vec![shim.to_string()]),
        None => (spec.env, nv.sonames.iter().map(|s| s.to_string()).collect()),
    };
    if let Ok(path) = std::env::var(env) {
        if !path.is_empty() {
            return vec![(path, format!("${env}"))];
        }
    }
    let (package, sub) = match nv.shim {
        Some(_) => ("hip", "_nvidia"),
        None => (nv.wheel, "lib"),
    };
    for dir in package_dirs(py, package) {
        for n in &names {
            out.push((format!("{dir}/{sub}/{n}"), format!("{package} package")));
        }
    }
    if nv.shim.is_none() {
        for n in names {
            out.push((n, "system loader".to_string()));
        }
    }
    out
}

/// Opens a library with its symbols bound now and made visible to later libraries (the
/// shim names none of CUDA's libraries; it finds their symbols this way).
fn open_global(path: &str) -> Result<libloading::os::unix::Library, libloading::Error> {
    // SAFETY: loading NVIDIA's CUDA libraries runs their initialisers, as CUDA itself would.
    unsafe {
        libloading::os::unix::Library::open(
            Some(path),
            libloading::os::unix::RTLD_NOW | libloading::os::unix::RTLD_GLOBAL,
        )
    }
}

/// Loads the CUDA driver (`libcuda.so.1`) once, globally: the shim calls the driver API
/// (`cuModuleLoadData`), which no other library it links provides.
fn cuda_driver() -> Result<(), LoadError> {
    static DRIVER: OnceLock<Result<libloading::os::unix::Library, LoadError>> = OnceLock::new();
    DRIVER
        .get_or_init(|| {
            open_global("libcuda.so.1").map_err(|e| LoadError::CudaDriver {
                error: e.to_string(),
            })
        })
        .as_ref()
        .map(|_| ())
        .map_err(Clone::clone)
}

/// The file of the HIP shim for CUDA runtime `major`: the shim built over CUDA 12 (HIP's
/// NVIDIA headers and CUDA 12's API) is `shim`; the one built over CUDA 13's API alone is
/// `shim` with `_cu13` before `.so` (`libhip_nvidia_cu13.so`).
fn shim_for_runtime(shim: &str, major: Option<u32>) -> String {
    match (major, shim.strip_suffix(".so")) {
        (Some(13), Some(stem)) => format!("{stem}_cu13.so"),
        _ => shim.to_string(),
    }
}

/// CUDA's runtime and NVRTC, loaded globally once, and the runtime's major version.
struct CudaLibraries {
    _kept: Vec<libloading::os::unix::Library>,
    runtime_major: Option<u32>,
}

static CUDA_LIBRARIES: OnceLock<CudaLibraries> = OnceLock::new();

/// Loads CUDA's runtime (12, else 13) and NVRTC (the same major first) globally, from
/// NVIDIA's wheels (`nvidia.cuda_runtime`/`nvidia.cuda_nvrtc` of CUDA 12, `nvidia.cu13` of
/// CUDA 13) or the system: the shims name neither. The runtime found picks the HIP shim
/// (`shim_for_runtime`); what does not load shows up as the shim's load error, naming the
/// missing symbol.
fn preload_cuda_libraries(py: Python<'_>) -> &'static CudaLibraries {
    CUDA_LIBRARIES.get_or_init(|| {
        let mut kept = Vec::new();
        let mut runtime_major = None;
        for major in [12u32, 13] {
            let packages: &[&str] = if major == 12 {
                &["nvidia.cuda_runtime"]
            } else {
                &["nvidia.cu13"]
            };
            let soname = format!("libcudart.so.{major}");
            let found = wheel_candidates(py, packages, &[soname.as_str()])
                .iter()
                .find_map(|(p, _)| open_global(p).ok());
            if let Some(lib) = found {
                kept.push(lib);
                runtime_major = Some(major);
                break;
            }
        }
        // NVRTC of the runtime's major first: a CUDA 13 machine may well have no 12.
        let nvrtc: &[&str] = if runtime_major == Some(13) {
            &["libnvrtc.so.13", "libnvrtc.so.12"]
        } else {
            &["libnvrtc.so.12", "libnvrtc.so.13"]
        };
        let candidates = wheel_candidates(py, &["nvidia.cuda_nvrtc", "nvidia.cu13"], nvrtc);
        if let Some(lib) = candidates.iter().find_map(|(p, _)| open_global(p).ok()) {
            kept.push(lib);
        }
        CudaLibraries {
            _kept: kept,
            runtime_major,
        }
    })
}

/// The major version of the CUDA runtime the shims run over (None: none loads).
pub fn cuda_runtime_major(py: Python<'_>) -> Option<u32> {
    preload_cuda_libraries(py).runtime_major
}

/// Loads the CUDA library a shim calls (cuBLAS for hipBLAS) globally, once per library:
/// the shim finds its functions by name at their first call, so one build serves CUDA 12
/// and 13. A library that does not load is the shim's load error, listing every path tried.
fn preload_math_library(
    py: Python<'_>,
    library: &'static str,
    cuda: &CudaLibrary,
) -> Result<(), LoadError> {
    let mut tried = Vec::new();
    for (path, origin) in wheel_candidates(py, cuda.wheels, cuda.sonames) {
        match open_global(&path) {
            // Kept loaded for the life of the process, as the shim's calls need it.
            Ok(lib) => {
                std::mem::forget(lib);
                return Ok(());
            }
            Err(e) => tried.push(Tried {
                path,
                origin,
                error: e.to_string(),
            }),
        }
    }
    Err(LoadError::CudaLibrary {
        library,
        sonames: cuda.sonames,
        wheels: cuda.wheels,
        tried,
    })
}

/// Where an NVIDIA library may be, in order, with where each came from: for each file name,
/// the `lib/` of each of NVIDIA's wheel packages, then the system loader.
fn wheel_candidates(py: Python<'_>, packages: &[&str], sonames: &[&str]) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for so in sonames {
        for package in packages {
            for dir in package_dirs(py, package) {
                out.push((format!("{dir}/lib/{so}"), format!("{package} package")));
            }
        }
        out.push((so.to_string(), "system loader".to_string()));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::shim_for_runtime;

    #[test]
    fn cuda_13_runtimes_get_the_cu13_shim() {
        assert_eq!(
            shim_for_runtime("libhip_nvidia.so", Some(13)),
            "libhip_nvidia_cu13.so"
        );
        assert_eq!(
            shim_for_runtime("libhip_nvidia.so", Some(12)),
            "libhip_nvidia.so"
        );
        assert_eq!(
            shim_for_runtime("libhip_nvidia.so", None),
            "libhip_nvidia.so"
        );
    }
}
