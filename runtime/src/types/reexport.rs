//! Modules that also expose other modules' names, as a C header exposes the declarations of
//! the headers it includes (rocm-llvm-python's `rocm.llvm.c.lljit` has `orc`'s functions).

use pyo3::exceptions::PyAttributeError;
use pyo3::prelude::*;
use pyo3::types::{PyCFunction, PyDict, PyList, PyModule, PyTuple};

/// Makes `target` expose the public names of `sources` (Python module names, already in
/// `sys.modules`): the objects themselves, not copies. Names present now are added to its
/// dict; names a source creates later (lazy classes, helpers added from Python) resolve
/// through `target.__getattr__` and appear in `dir(target)`.
pub fn reexport(target: &Bound<'_, PyModule>, sources: &[&str]) -> PyResult<()> {
    if sources.is_empty() {
        return Ok(());
    }
    let py = target.py();
    let srcs = loaded_modules(target, sources)?;
    let dict = target.dict();
    for s in &srcs {
        for (k, v) in s.bind(py).dict() {
            let public = k.extract::<String>().is_ok_and(|n| !n.starts_with('_'));
            if public && !dict.contains(&k)? {
                dict.set_item(k, v)?;
            }
        }
    }
    let own_getattr: Option<PyObject> = dict.get_item("__getattr__")?.map(|g| g.unbind());
    let own_dir: Option<PyObject> = dict.get_item("__dir__")?.map(|g| g.unbind());
    let this = target.clone().unbind();
    let getattr_sources: Vec<Py<PyModule>> = srcs.iter().map(|s| s.clone_ref(py)).collect();
    let getattr = PyCFunction::new_closure(
        py,
        Some(c"__getattr__"),
        Some(c"Resolves names of this module, then of the modules it re-exports."),
        move |args: &Bound<'_, PyTuple>, _kw: Option<&Bound<'_, PyDict>>| -> PyResult<PyObject> {
            get_attr(args, own_getattr.as_ref(), &getattr_sources, &this)
        },
    )?;
    dict.set_item("__getattr__", getattr)?;
    let this = target.clone().unbind();
    let dir = PyCFunction::new_closure(
        py,
        Some(c"__dir__"),
        None,
        move |args: &Bound<'_, PyTuple>, _kw: Option<&Bound<'_, PyDict>>| -> PyResult<PyObject> {
            dir_names(args.py(), own_dir.as_ref(), &srcs, &this)
        },
    )?;
    dict.set_item("__dir__", dir)?;
    Ok(())
}

/// The modules named `sources`, from `sys.modules`; an `AttributeError` naming `target` where
/// one is not loaded.
fn loaded_modules(target: &Bound<'_, PyModule>, sources: &[&str]) -> PyResult<Vec<Py<PyModule>>> {
    let modules = target.py().import("sys")?.getattr("modules")?;
    let mut srcs: Vec<Py<PyModule>> = Vec::new();
    for name in sources {
        let m = modules.get_item(*name).map_err(|_| {
            PyAttributeError::new_err(format!(
                "{} re-exports {name}, which is not loaded",
                target.name().map(|n| n.to_string()).unwrap_or_default()
            ))
        })?;
        srcs.push(m.downcast_into::<PyModule>()?.unbind());
    }
    Ok(srcs)
}

/// `this.__getattr__(name)` (`args` holds the name): the module's own `__getattr__` first
/// (`own_getattr`), then a public name of the first of `sources` that has it, stored in
/// `this` so that the next lookup finds it there.
fn get_attr(
    args: &Bound<'_, PyTuple>,
    own_getattr: Option<&PyObject>,
    sources: &[Py<PyModule>],
    this: &Py<PyModule>,
) -> PyResult<PyObject> {
    let py = args.py();
    let name = args.get_item(0)?;
    if let Some(g) = own_getattr {
        match g.call1(py, (&name,)) {
            Ok(v) => return Ok(v),
            Err(e) if e.is_instance_of::<PyAttributeError>(py) => {}
            Err(e) => return Err(e),
        }
    }
    let text: String = name.extract()?;
    if !text.starts_with('_') {
        for s in sources {
            if let Ok(v) = s.bind(py).as_any().getattr(text.as_str()) {
                this.bind(py).setattr(text.as_str(), &v)?;
                return Ok(v.unbind());
            }
        }
    }
    Err(PyAttributeError::new_err(format!(
        "module '{}' has no attribute '{text}'",
        this.bind(py).name()?
    )))
}

/// `dir(this)`: the module's own `__dir__` (`own_dir`), else its dict's keys, and the public
/// names of `sources` it lacks, sorted.
fn dir_names(
    py: Python<'_>,
    own_dir: Option<&PyObject>,
    sources: &[Py<PyModule>],
    this: &Py<PyModule>,
) -> PyResult<PyObject> {
    let names = PyList::empty(py);
    match own_dir {
        Some(d) => {
            for n in d.bind(py).call0()?.try_iter()? {
                names.append(n?)?;
            }
        }
        None => {
            for k in this.bind(py).dict().keys() {
                names.append(k)?;
            }
        }
    }
    for s in sources {
        for n in s.bind(py).dir()? {
            let public = n.extract::<String>().is_ok_and(|t| !t.starts_with('_'));
            if public && !names.contains(&n)? {
                names.append(n)?;
            }
        }
    }
    names.sort()?;
    Ok(names.into_any().unbind())
}
