//! The NVRTC calls that need more than a new name to work on HIP (the spec's `overrides`,
//! reached through `cuda._nvrtc`). Everything else in `cuda.bindings.nvrtc` is the hiprtc
//! function itself.
//!
//! - `nvrtcCompileProgram` translates NVRTC's options to hiprtc's (the spec's
//!   `nvrtc_options`): CUDA code asks for `--gpu-architecture=compute_80` or `--fmad=false`,
//!   which hiprtc does not know. The architecture becomes `--offload-arch=<gfx target>` (the
//!   current device's, or `HIP_PYTHON_OFFLOAD_ARCH`); options with no hiprtc meaning are
//!   dropped with an `NvrtcOptionWarning`; anything else (clang's, `-I`, `-D`) passes through.
//!   On NVIDIA hiprtc is NVRTC, and the options pass as they are.
//! - `nvrtcGetCUBIN`/`nvrtcGetCUBINSize` give the code object, as `nvrtcGetPTX` does: HIPIFY
//!   maps them to hiprtc's bitcode calls, which give bitcode only for `-fgpu-rdc` programs.
//! - `nvrtcGetPTX`, `nvrtcGetCUBIN` and `nvrtcGetProgramLog` also take a `bytes` object of the
//!   result's size as the buffer, and write into it, as cuda-python's examples expect
//!   (`ptx = b" " * size`).
//! - `nvrtcGetErrorString` returns `(NVRTC_SUCCESS, text)`; hiprtc's returns the text alone.

use hip_bindings::cuda::{MODULES, NVRTC_OPTIONS};
use hipgen_runtime::convert::arrays::{int_of, items};
use pyo3::exceptions::{PyTypeError, PyUserWarning, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyList, PyString, PyTuple};

pyo3::create_exception!(
    cuda.bindings,
    NvrtcOptionWarning,
    PyUserWarning,
    "An NVRTC option was dropped because hiprtc has no equivalent."
);

/// Environment variable naming the AMD GPU target CUDA's architecture options become.
const ARCH_VARIABLE: &str = "HIP_PYTHON_OFFLOAD_ARCH";

fn env_arch() -> Option<String> {
    let arch = std::env::var(ARCH_VARIABLE).ok()?;
    let arch = arch.trim();
    (!arch.is_empty()).then(|| arch.to_string())
}

/// An option's text: NVRTC takes bytes (cuda-python also str).
fn option_text(option: &Bound<'_, PyAny>) -> PyResult<String> {
    if let Ok(b) = option.downcast::<PyBytes>() {
        return Ok(String::from_utf8_lossy(b.as_bytes()).into_owned());
    }
    if let Ok(b) = option.downcast::<PyByteArray>() {
        return Ok(String::from_utf8_lossy(&b.to_vec()).into_owned());
    }
    if let Ok(s) = option.downcast::<PyString>() {
        return Ok(s.to_str()?.to_string());
    }
    Err(PyTypeError::new_err(format!(
        "NVRTC options must be bytes or str, got {}",
        option.get_type().name()?
    )))
}

/// The spec's row of option spelling `name`: (kind, becomes, becomes when false).
fn row(
    name: &str,
) -> Option<(
    &'static str,
    &'static [&'static str],
    &'static [&'static str],
)> {
    NVRTC_OPTIONS
        .iter()
        .find(|(n, ..)| *n == name)
        .map(|(_, kind, to, off)| (*kind, *to, *off))
}

/// What hiprtc is given for `options`, the options dropped, and whether an architecture
/// option was dropped (no target known).
fn translate(options: &[String], arch: Option<&str>) -> (Vec<String>, Vec<String>, bool) {
    let (mut out, mut dropped, mut saw_arch, mut arch_dropped) = (vec![], vec![], false, false);
    let mut it = options.iter();
    while let Some(opt) = it.next() {
        let (name, value) = match opt.split_once('=') {
            Some((n, v)) => (n, Some(v)),
            None => (opt.as_str(), None),
        };
        match row(name) {
            Some(("arch", ..)) => {
                saw_arch = true;
                // `-arch compute_80`: the value is the next option.
                let (value, opt) = match value {
                    Some(v) => (v.to_string(), opt.clone()),
                    None => {
                        let v = it.next().cloned().unwrap_or_default();
                        (v.clone(), format!("{opt} {v}"))
                    }
                };
                let target = if value.starts_with("gfx") {
                    Some(value.as_str())
                } else {
                    arch
                };
                match target {
                    Some(t) => out.push(format!("--offload-arch={t}")),
                    None => {
                        dropped.push(opt);
                        arch_dropped = true;
                    }
                }
            }
            Some(("switch", on, off)) => {
                let v = value.unwrap_or("").trim().to_lowercase();
                let is_on = matches!(v.as_str(), "true" | "1" | "yes" | "");
                out.extend((if is_on { on } else { off }).iter().map(|s| s.to_string()));
            }
            Some(("to", to, _)) => {
                out.extend(to.iter().map(|t| t.replace("{value}", value.unwrap_or(""))))
            }
            Some(("drop", ..)) => dropped.push(opt.clone()),
            _ => out.push(opt.clone()),
        }
    }
    if !saw_arch {
        if let Some(a) = env_arch() {
            out.push(format!("--offload-arch={a}"));
        }
    }
    (out, dropped, arch_dropped)
}

fn bytes_list<'py>(py: Python<'py>, texts: &[String]) -> PyResult<Bound<'py, PyList>> {
    PyList::new(py, texts.iter().map(|t| PyBytes::new(py, t.as_bytes())))
}

/// hiprtc options for NVRTC `options`, and the options dropped. `arch` is the AMD target
/// CUDA's architecture options become; when None they are dropped. Where no architecture
/// option is given and `HIP_PYTHON_OFFLOAD_ARCH` is set, one is added.
#[pyfunction]
#[pyo3(signature = (options, arch=None))]
pub fn translate_options<'py>(
    options: &Bound<'py, PyAny>,
    arch: Option<String>,
) -> PyResult<(Bound<'py, PyList>, Vec<String>)> {
    let texts = options
        .try_iter()?
        .map(|o| option_text(&o?))
        .collect::<PyResult<Vec<_>>>()?;
    let (out, dropped, _) = translate(&texts, arch.as_deref());
    Ok((bytes_list(options.py(), &out)?, dropped))
}

/// The AMD target options become: `HIP_PYTHON_OFFLOAD_ARCH`, else the current device's
/// `gcnArchName` (`gfx90a:sramecc+:xnack-`), else None.
fn device_arch(py: Python<'_>) -> PyResult<Option<String>> {
    if let Some(a) = env_arch() {
        return Ok(Some(a));
    }
    let hip = py.import("hip.hip")?;
    let got = hip.getattr("hipGetDevice")?.call0()?;
    if got.get_item(0)?.extract::<i64>()? != 0 {
        return Ok(None);
    }
    let props = hip.getattr("hipDeviceProp_t")?.call0()?;
    let status = hip
        .getattr("hipGetDeviceProperties")?
        .call1((&props, got.get_item(1)?))?;
    if status.get_item(0)?.extract::<i64>()? != 0 {
        return Ok(None);
    }
    let name = props.getattr("gcnArchName")?;
    let name = match name.downcast::<PyBytes>() {
        Ok(b) => String::from_utf8_lossy(b.as_bytes()).into_owned(),
        Err(_) => name.str()?.to_string(),
    };
    Ok((!name.is_empty()).then_some(name))
}

/// hiprtcCompileProgram, with NVRTC's options translated (see `translate_options`). Returns a
/// tuple of 1 item: the hiprtcResult (`nvrtcResult` members compare equal).
#[pyfunction]
#[pyo3(name = "nvrtcCompileProgram")]
#[allow(non_snake_case)]
pub fn compile_program<'py>(
    prog: &Bound<'py, PyAny>,
    numOptions: &Bound<'py, PyAny>,
    options: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let py = prog.py();
    let count: i32 = int_of(numOptions, "argument 'numOptions'")?;
    // cuda-python takes None or a list or tuple of bytes, checked before the call.
    let given = items(options, "argument 'options'")?;
    let texts = given
        .iter()
        .map(option_text)
        .collect::<PyResult<Vec<_>>>()?;
    if count < 0 || count as usize > given.len() {
        return Err(PyValueError::new_err(format!(
            "numOptions is {count} but {} options were given",
            given.len()
        )));
    }
    let compile = py.import("hip.hiprtc")?.getattr("hiprtcCompileProgram")?;
    let as_list = |v: &[Bound<'py, PyAny>]| -> PyResult<PyObject> {
        if v.is_empty() {
            Ok(py.None())
        } else {
            Ok(PyList::new(py, v)?.into_any().unbind())
        }
    };
    if py
        .import("hip")?
        .call_method0("platform")?
        .extract::<String>()?
        == "nvidia"
    {
        // hiprtc is NVRTC there: CUDA's options mean what they say.
        return compile.call1((prog, count, as_list(&given[..count as usize])?));
    }
    let (out, dropped, arch_dropped) =
        translate(&texts[..count as usize], device_arch(py)?.as_deref());
    if !dropped.is_empty() {
        let reason = if arch_dropped {
            format!("no AMD GPU target is known (set {ARCH_VARIABLE}, e.g. gfx90a)")
        } else {
            "hiprtc has no equivalent".to_string()
        };
        let message = format!("nvrtcCompileProgram: dropped NVRTC options {dropped:?}: {reason}");
        let message = std::ffi::CString::new(message).unwrap_or_default();
        PyErr::warn(py, &py.get_type::<NvrtcOptionWarning>(), &message, 1)?;
    }
    let translated = out
        .iter()
        .map(|t| PyBytes::new(py, t.as_bytes()).into_any())
        .collect::<Vec<_>>();
    compile.call1((prog, out.len(), as_list(&translated)?))
}

/// The hiprtc function CUDA name `cuda_name` stands for (HIPIFY's table).
fn hiprtc<'py>(py: Python<'py>, cuda_name: &str) -> PyResult<Bound<'py, PyAny>> {
    let hip_name = MODULES
        .iter()
        .filter(|m| m.module == "hiprtc")
        .flat_map(|m| m.names.iter())
        .find(|(cuda, ..)| *cuda == cuda_name)
        .map(|(_, hip, _)| *hip)
        .ok_or_else(|| PyValueError::new_err(format!("HIPIFY's table has no {cuda_name}")))?;
    py.import("hip.hiprtc")?.getattr(hip_name)
}

/// `get(prog, buf)`; where `buf` is a bytes object, the result is written into it, as
/// cuda-python writes into the bytes object it is given: after the call succeeded, and only
/// within its length.
fn fill<'py>(
    get: &str,
    size_of: &str,
    prog: &Bound<'py, PyAny>,
    buf: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let py = prog.py();
    let get_fn = hiprtc(py, get)?;
    let Ok(bytes) = buf.downcast::<PyBytes>() else {
        return get_fn.call1((prog, buf));
    };
    let sized = hiprtc(py, size_of)?.call1((prog,))?;
    let status = sized.get_item(0)?;
    if status.extract::<i64>()? != 0 {
        return Ok(PyTuple::new(py, [status])?.into_any());
    }
    let size: usize = sized.get_item(1)?.extract()?;
    let have = bytes.as_bytes().len();
    if have < size {
        return Err(PyValueError::new_err(format!(
            "{get}: the buffer holds {have} bytes, the result needs {size}"
        )));
    }
    if size == 0 {
        return Ok(PyTuple::new(py, [status])?.into_any());
    }
    let tmp = PyByteArray::new(py, &vec![0u8; size]);
    let result = get_fn.call1((prog, &tmp))?;
    if have < 2 {
        // Python shares one object for each bytes of length 0 or 1: never write into it. A
        // result of one byte is the terminating NUL alone (an empty log): nothing is lost.
        if size <= 1 {
            return Ok(result);
        }
        return Err(PyValueError::new_err(format!(
            "{get}: pass a bytearray, or a bytes object of the result's size"
        )));
    }
    let data = tmp.to_vec();
    // SAFETY: `bytes` is alive (borrowed) and holds `have >= size` bytes; writing into a bytes
    // object is cuda-python's convention here, and no hash of it is cached before this call
    // returns to its caller (a bytes object built by `b" " * size` is private to it).
    unsafe {
        let at = pyo3::ffi::PyBytes_AsString(bytes.as_ptr()) as *mut u8;
        std::ptr::copy_nonoverlapping(data.as_ptr(), at, size);
    }
    Ok(result)
}

/// hiprtcGetCode: the compiled code object; `ptx` may also be a bytes object of its size.
#[pyfunction]
#[pyo3(name = "nvrtcGetPTX")]
pub fn get_ptx<'py>(
    prog: &Bound<'py, PyAny>,
    ptx: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    fill("nvrtcGetPTX", "nvrtcGetPTXSize", prog, ptx)
}

/// The compiled code object (hiprtcGetCode), which `cuModuleLoadData` loads; `cubin` may
/// also be a bytes object of its size.
#[pyfunction]
#[pyo3(name = "nvrtcGetCUBIN")]
pub fn get_cubin<'py>(
    prog: &Bound<'py, PyAny>,
    cubin: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    fill("nvrtcGetPTX", "nvrtcGetPTXSize", prog, cubin)
}

/// The size of the compiled code object (hiprtcGetCodeSize); see `nvrtcGetCUBIN`.
#[pyfunction]
#[pyo3(name = "nvrtcGetCUBINSize")]
pub fn get_cubin_size<'py>(prog: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    hiprtc(prog.py(), "nvrtcGetPTXSize")?.call1((prog,))
}

/// hiprtcGetProgramLog; `log` may also be a bytes object of its size.
#[pyfunction]
#[pyo3(name = "nvrtcGetProgramLog")]
pub fn get_program_log<'py>(
    prog: &Bound<'py, PyAny>,
    log: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    fill("nvrtcGetProgramLog", "nvrtcGetProgramLogSize", prog, log)
}

/// hiprtcGetErrorString's text, after the success status cuda-python puts first.
#[pyfunction]
#[pyo3(name = "nvrtcGetErrorString")]
pub fn get_error_string<'py>(result: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyTuple>> {
    let py = result.py();
    let text = hiprtc(py, "nvrtcGetErrorString")?
        .call1((result,))?
        .get_item(0)?;
    let success = py
        .import("cuda._enums")?
        .call_method1("status_enum", ("nvrtcResult",))?
        .getattr("NVRTC_SUCCESS")?;
    PyTuple::new(py, [success, text])
}

/// Adds this module's functions and warning class to `cuda._native`.
pub fn add(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add(
        "NvrtcOptionWarning",
        m.py().get_type::<NvrtcOptionWarning>(),
    )?;
    m.add_function(wrap_pyfunction!(translate_options, m)?)?;
    m.add_function(wrap_pyfunction!(compile_program, m)?)?;
    m.add_function(wrap_pyfunction!(get_ptx, m)?)?;
    m.add_function(wrap_pyfunction!(get_cubin, m)?)?;
    m.add_function(wrap_pyfunction!(get_cubin_size, m)?)?;
    m.add_function(wrap_pyfunction!(get_program_log, m)?)?;
    m.add_function(wrap_pyfunction!(get_error_string, m)?)?;
    Ok(())
}
