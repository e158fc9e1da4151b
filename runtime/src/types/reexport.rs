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
    let modules = py.import("sys")?.getattr("modules")?;
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
            let py = args.py();
            let name = args.get_item(0)?;
            if let Some(g) = &own_getattr {
                match g.call1(py, (&name,)) {
                    Ok(v) => return Ok(v),
                    Err(e) if e.is_instance_of::<PyAttributeError>(py) => {}
                    Err(e) => return Err(e),
                }
            }
            let text: String = name.extract()?;
            if !text.starts_with('_') {
                for s in &getattr_sources {
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
        },
    )?;
    dict.set_item("__getattr__", getattr)?;
    let this = target.clone().unbind();
    let dir = PyCFunction::new_closure(
        py,
        Some(c"__dir__"),
        None,
        move |args: &Bound<'_, PyTuple>, _kw: Option<&Bound<'_, PyDict>>| -> PyResult<PyObject> {
            let py = args.py();
            let names = PyList::empty(py);
            match &own_dir {
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
            for s in &srcs {
                for n in s.bind(py).dir()? {
                    let public = n.extract::<String>().is_ok_and(|t| !t.starts_with('_'));
                    if public && !names.contains(&n)? {
                        names.append(n)?;
                    }
                }
            }
            names.sort()?;
            Ok(names.into_any().unbind())
        },
    )?;
    dict.set_item("__dir__", dir)?;
    Ok(())
}
