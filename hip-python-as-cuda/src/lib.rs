//! The `cuda._native` extension: the generated CUDA→HIP alias tables, handed to the Python
//! layer (`cuda/_layer.py`) that turns them into module attributes on first access, and the
//! NVRTC calls that need more than a new name (`nvrtc`), and the integer rules of the
//! values the package converts itself (`ints`).

mod ints;
mod nvrtc;

use hip_bindings::cuda::{CONVENTIONS, MODULES, OVERRIDES, PYTHON_MODULES, RELEASE, SOURCE};
use hipgen_runtime::aliases::AliasModule;
use pyo3::exceptions::PyKeyError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

/// The table of HIP module `module`.
fn table(module: &str) -> PyResult<&'static AliasModule> {
    MODULES
        .iter()
        .find(|m| m.module == module)
        .ok_or_else(|| PyKeyError::new_err(format!("no CUDA aliases for HIP module '{module}'")))
}

/// The HIP modules that have CUDA names.
#[pyfunction]
fn modules() -> Vec<&'static str> {
    MODULES.iter().map(|m| m.module).collect()
}

/// `[(cuda_name, hip_name, kind), ...]` of HIP module `module`; `kind` is one of function,
/// enum, record, handle, pointer, constant.
#[pyfunction]
fn names<'py>(py: Python<'py>, module: &str) -> PyResult<Bound<'py, PyList>> {
    PyList::new(py, table(module)?.names.iter().copied())
}

/// `{hip_enum: [(cuda_member, hip_member), ...]}` of HIP module `module`.
#[pyfunction]
fn members<'py>(py: Python<'py>, module: &str) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    for (hip_enum, pairs) in table(module)?.members {
        d.set_item(*hip_enum, PyList::new(py, pairs.iter().copied())?)?;
    }
    Ok(d)
}

/// The package's Python modules, in order: `[(module, legacy, hip_modules, extras,
/// emulated), ...]` (legacy and emulated may be None).
#[pyfunction]
fn python_modules<'py>(py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
    PyList::new(
        py,
        PYTHON_MODULES
            .iter()
            .map(|m| (m.module, m.legacy, m.hip_modules, m.extras, m.emulated)),
    )
}

/// `{cuda_name: module}`: CUDA names that are functions of a hand-written module.
#[pyfunction]
fn overrides<'py>(py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    for (name, module) in OVERRIDES {
        d.set_item(*name, *module)?;
    }
    Ok(d)
}

/// The cuda-bindings major versions whose calling conventions the tables hold.
#[pyfunction]
fn api_versions() -> Vec<&'static str> {
    CONVENTIONS.iter().map(|(v, _)| *v).collect()
}

/// The calling conventions of cuda-bindings `version` (JSON: adapted functions, stubs,
/// wrapper types).
#[pyfunction]
fn conventions(version: &str) -> PyResult<&'static str> {
    CONVENTIONS
        .iter()
        .find(|(v, _)| *v == version)
        .map(|(_, json)| *json)
        .ok_or_else(|| {
            PyKeyError::new_err(format!("no calling conventions of cuda-bindings {version}"))
        })
}

#[pymodule(gil_used = false)]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("RELEASE", RELEASE)?;
    m.add("SOURCE", SOURCE)?;
    m.add_function(wrap_pyfunction!(modules, m)?)?;
    m.add_function(wrap_pyfunction!(names, m)?)?;
    m.add_function(wrap_pyfunction!(members, m)?)?;
    m.add_function(wrap_pyfunction!(python_modules, m)?)?;
    m.add_function(wrap_pyfunction!(overrides, m)?)?;
    m.add_function(wrap_pyfunction!(api_versions, m)?)?;
    m.add_function(wrap_pyfunction!(conventions, m)?)?;
    nvrtc::add(m)?;
    m.add_function(wrap_pyfunction!(ints::integer, m)?)?;
    m.add_function(wrap_pyfunction!(ints::address, m)?)?;
    m.add_function(wrap_pyfunction!(clear_kept, m)?)?;
    Ok(())
}

/// Clears the pointer fields a `_ptr=` view set (the record's `_hipgen_refs` dict `refs`)
/// that still hold what it wrote, as its kept C arrays go with it.
#[pyfunction]
fn clear_kept(refs: &Bound<'_, PyDict>) -> PyResult<()> {
    // SAFETY: `refs` is a view's own dict, keyed by addresses of fields inside the memory it
    // views, which its creator keeps alive past the view, as in cuda-python.
    unsafe { hipgen_runtime::clear_kept(refs) }
}
