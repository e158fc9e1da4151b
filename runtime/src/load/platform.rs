//! Which platform HIP runs on, chosen by the GPUs present rather than by which runtime loads.
//!
//! A machine may have an AMD runtime installed with no AMD GPU (a distribution package pulled
//! it in) next to NVIDIA GPUs: loading that runtime to ask it would pick the wrong platform,
//! and can abort the process (two LLVMs registering the same options). So AMD GPUs are counted
//! from the kernel driver's topology in sysfs, which loads nothing, and NVIDIA GPUs by the CUDA
//! driver (`libcuda.so.1`), which the NVIDIA platform loads anyway. Only where neither finds a
//! GPU does the old rule decide (AMD when its runtime loads, else NVIDIA when the CUDA driver
//! does, else AMD, whose errors then say what is missing).

use std::path::Path;
use std::sync::OnceLock;

/// The platform HIP runs on.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Platform {
    /// ROCm on AMD GPUs.
    Amd,
    /// HIP over CUDA on NVIDIA GPUs.
    Nvidia,
}

impl Platform {
    /// `amd` or `nvidia`.
    pub fn name(self) -> &'static str {
        match self {
            Platform::Amd => "amd",
            Platform::Nvidia => "nvidia",
        }
    }
}

/// What the choice looks at; each probe runs only if the ones before did not decide.
pub struct Probes<'a> {
    /// `HIP_PLATFORM`.
    pub env: Option<&'a str>,
    /// AMD GPUs present.
    pub amd_gpus: &'a dyn Fn() -> usize,
    /// NVIDIA GPUs present.
    pub nvidia_gpus: &'a dyn Fn() -> usize,
    /// Whether the AMD runtime loads.
    pub amd_runtime_loads: &'a dyn Fn() -> bool,
    /// Whether the CUDA driver loads.
    pub cuda_driver_loads: &'a dyn Fn() -> bool,
}

/// The platform and why it was chosen.
pub fn choose(p: &Probes<'_>) -> (Platform, String) {
    match p.env {
        Some("nvidia") | Some("nvcc") => return (Platform::Nvidia, "HIP_PLATFORM=nvidia".into()),
        Some("amd") | Some("hcc") => return (Platform::Amd, "HIP_PLATFORM=amd".into()),
        _ => {}
    }
    let amd = (p.amd_gpus)();
    if amd > 0 {
        return (
            Platform::Amd,
            format!("{amd} AMD GPU(s) in the amdgpu driver's topology"),
        );
    }
    let nvidia = (p.nvidia_gpus)();
    if nvidia > 0 {
        return (
            Platform::Nvidia,
            format!("{nvidia} NVIDIA GPU(s) reported by the CUDA driver"),
        );
    }
    if (p.amd_runtime_loads)() {
        (
            Platform::Amd,
            "no GPU found; the AMD runtime (libamdhip64) loads".into(),
        )
    } else if (p.cuda_driver_loads)() {
        (
            Platform::Nvidia,
            "no GPU found; no AMD runtime, but the CUDA driver loads".into(),
        )
    } else {
        (
            Platform::Amd,
            "no GPU found and neither runtime loads".into(),
        )
    }
}

/// GPU nodes (those with SIMD units) in the amdgpu kernel driver's topology under `root`
/// (`/sys/class/kfd/kfd/topology/nodes`); CPU nodes have none.
pub fn kfd_gpus(root: &Path) -> usize {
    let Ok(nodes) = std::fs::read_dir(root) else {
        return 0;
    };
    nodes
        .filter_map(|n| std::fs::read_to_string(n.ok()?.path().join("properties")).ok())
        .filter(|props| {
            props.lines().any(|l| {
                let mut words = l.split_whitespace();
                words.next() == Some("simd_count")
                    && words
                        .next()
                        .and_then(|v| v.parse::<u64>().ok())
                        .unwrap_or(0)
                        > 0
            })
        })
        .count()
}

/// NVIDIA GPUs the CUDA driver reports (0 where it does not load or fails). The driver stays
/// loaded: the NVIDIA platform uses it next.
fn nvidia_gpus() -> usize {
    // SAFETY: loading NVIDIA's driver library runs its initialisers, as using it would.
    let Ok(lib) = (unsafe { libloading::Library::new("libcuda.so.1") }) else {
        return 0;
    };
    let lib = Box::leak(Box::new(lib));
    // SAFETY: the driver API's C signatures: `CUresult cuInit(unsigned)`,
    // `CUresult cuDeviceGetCount(int *)`.
    unsafe {
        let (Ok(init), Ok(count)) = (
            lib.get::<unsafe extern "C" fn(u32) -> i32>(b"cuInit\0"),
            lib.get::<unsafe extern "C" fn(*mut i32) -> i32>(b"cuDeviceGetCount\0"),
        ) else {
            return 0;
        };
        let mut n = 0i32;
        if init(0) != 0 || count(&mut n) != 0 {
            return 0;
        }
        n.max(0) as usize
    }
}

fn loads(names: &[&str]) -> bool {
    names.iter().any(|n| {
        // SAFETY: probing whether a runtime is installed; its initialisers run, as they would
        // on first use.
        unsafe { libloading::Library::new(n) }.is_ok()
    })
}

fn chosen() -> &'static (Platform, String) {
    static CHOSEN: OnceLock<(Platform, String)> = OnceLock::new();
    CHOSEN.get_or_init(|| {
        let env = std::env::var("HIP_PLATFORM").ok();
        let rocm = std::env::var("ROCM_PATH")
            .map(|r| format!("{r}/lib/libamdhip64.so"))
            .unwrap_or_default();
        choose(&Probes {
            env: env.as_deref(),
            amd_gpus: &|| kfd_gpus(Path::new("/sys/class/kfd/kfd/topology/nodes")),
            nvidia_gpus: &nvidia_gpus,
            amd_runtime_loads: &|| {
                loads(&[
                    "libamdhip64.so.7",
                    "libamdhip64.so.6",
                    "libamdhip64.so.5",
                    "libamdhip64.so",
                    &rocm,
                ])
            },
            cuda_driver_loads: &|| loads(&["libcuda.so.1"]),
        })
    })
}

/// The platform, chosen once (see the module's documentation).
pub fn platform() -> Platform {
    chosen().0
}

/// Why `platform()` is what it is, for the doctor.
pub fn platform_reason() -> &'static str {
    &chosen().1
}

#[cfg(test)]
mod tests {
    use super::*;

    fn probes<'a>(
        env: Option<&'a str>,
        amd: &'a dyn Fn() -> usize,
        nvidia: &'a dyn Fn() -> usize,
        amd_loads: &'a dyn Fn() -> bool,
    ) -> Probes<'a> {
        Probes {
            env,
            amd_gpus: amd,
            nvidia_gpus: nvidia,
            amd_runtime_loads: amd_loads,
            cuda_driver_loads: &|| true,
        }
    }

    #[test]
    fn gpus_decide_before_any_runtime_is_loaded() {
        let never = || -> bool { panic!("the AMD runtime must not be loaded to decide") };
        // An AMD runtime installed, no AMD GPU, NVIDIA GPUs: NVIDIA, without loading it.
        let (p, why) = choose(&probes(None, &|| 0, &|| 2, &never));
        assert_eq!(p, Platform::Nvidia);
        assert!(why.contains("2 NVIDIA"), "{why}");
        let (p, _) = choose(&probes(None, &|| 1, &|| panic!("not asked"), &never));
        assert_eq!(p, Platform::Amd);
        // HIP_PLATFORM wins over everything.
        let (p, why) = choose(&probes(Some("amd"), &|| 0, &|| 4, &never));
        assert_eq!((p, why.as_str()), (Platform::Amd, "HIP_PLATFORM=amd"));
        // No GPU at all: the runtime that loads.
        assert_eq!(
            choose(&probes(None, &|| 0, &|| 0, &|| true)).0,
            Platform::Amd
        );
        assert_eq!(
            choose(&probes(None, &|| 0, &|| 0, &|| false)).0,
            Platform::Nvidia
        );
    }

    #[test]
    fn kfd_topology_counts_gpu_nodes() {
        let root = std::env::temp_dir().join(format!("hipgen-kfd-{}", std::process::id()));
        for (node, simd) in [("0", 0), ("1", 304), ("2", 120)] {
            let dir = root.join(node);
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(
                dir.join("properties"),
                format!("cpu_cores_count 0\nsimd_count {simd}\nmem_banks_count 1\n"),
            )
            .unwrap();
        }
        assert_eq!(kfd_gpus(&root), 2);
        assert_eq!(kfd_gpus(&root.join("missing")), 0);
        std::fs::remove_dir_all(&root).unwrap();
    }
}
