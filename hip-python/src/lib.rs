//! The `hip._native` extension: the generated modules of the selected ROCm libraries plus
//! the runtime classes, each published in `sys.modules` as `hip.<name>`.
//!
//! The release is the bindings folder's (see hip-bindings' build.rs); the modules are those
//! its manifest gives hip-python, narrowed by `HIPGEN_LIBS` at build time.

use pyo3::prelude::*;

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

/// `hipModuleLaunchKernel`'s C signature.
type LaunchFn = unsafe extern "C" fn(
    usize,
    u32,
    u32,
    u32,
    u32,
    u32,
    u32,
    u32,
    usize,
    *mut *mut std::ffi::c_void,
    *mut *mut std::ffi::c_void,
) -> i32;

/// cuda.core's `launch`, natively: `args` packed by the runtime's kernel-argument rules and
/// kernel `function` queued on `stream` with `hipModuleLaunchKernel` (GIL released: a full
/// queue blocks). Returns HIP's status as an int; the caller raises.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
fn launch_kernel(
    py: Python<'_>,
    function: &Bound<'_, PyAny>,
    grid: (u32, u32, u32),
    block: (u32, u32, u32),
    shared_memory: u32,
    stream: &Bound<'_, PyAny>,
    args: &Bound<'_, pyo3::types::PyTuple>,
) -> PyResult<i32> {
    static LAUNCH: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    let launch = match LAUNCH.get() {
        Some(address) => *address,
        None => {
            let hip = hip_bindings::packages::HIP_PYTHON
                .iter()
                .find(|m| m.name == "hip")
                .ok_or_else(|| pyo3::exceptions::PyRuntimeError::new_err("hip is not built in"))?;
            let address = (hip.library)().address(py, c"hipModuleLaunchKernel")?;
            *LAUNCH.get_or_init(|| address)
        }
    };
    let function = hipgen_runtime::PtrArg::convert(function, false)?.addr();
    let stream = hipgen_runtime::PtrArg::convert(stream, false)?.addr();
    let packed = hipgen_runtime::KernelArgs::pack(args)?;
    let parameters = packed.parameters() as usize;
    // SAFETY: the address is the loaded library's `hipModuleLaunchKernel`, called with its C
    // signature; the parameters live in `packed` until the call returns.
    let call: LaunchFn = unsafe { std::mem::transmute::<usize, LaunchFn>(launch) };
    let (g, b) = (grid, block);
    Ok(py.allow_threads(move || unsafe {
        call(
            function,
            g.0,
            g.1,
            g.2,
            b.0,
            b.1,
            b.2,
            shared_memory,
            stream,
            parameters as *mut *mut std::ffi::c_void,
            std::ptr::null_mut(),
        )
    }))
}

/// The extension module: what every extension of the bindings is (`extension::init`), plus
/// the CUDA adapters and record tables the cuda package reads.
#[pymodule(gil_used = false)]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(cuda_adapter, m)?)?;
    m.add_function(wrap_pyfunction!(cuda_adapters, m)?)?;
    m.add_function(wrap_pyfunction!(cuda_conventions, m)?)?;
    m.add_function(wrap_pyfunction!(cuda_types, m)?)?;
    m.add_function(wrap_pyfunction!(_kernel_param_values, m)?)?;
    m.add_function(wrap_pyfunction!(launch_kernel, m)?)?;
    // Modules are named by their short names (`hip` for `hip.hip`) in what it reports.
    hip_bindings::extension::init(
        m,
        hip_bindings::packages::HIP_PYTHON,
        |g| g.name,
        "hip._util.types",
        env!("PACKAGE_VERSION"),
    )
}
