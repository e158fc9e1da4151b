//! Records described by a generated table whose field types are classes a package names:
//! the package resolves each enum, handle and record name the table uses to a class of its
//! own (the cuda package's CUDA classes), and the runtime reads and writes the fields with
//! the same engine as the bindings' own records (`record.rs`). As cuda-python's, a handle
//! field reads as an object even when NULL, and an array's records read as copies (a nested
//! record reads as a view).

use crate::tables::{FieldDef, FieldKind, TypeDef};
use crate::types::record::{Field, FieldTypes, Layout, Struct};
use pyo3::exceptions::{PyLookupError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::GILOnceCell;
use pyo3::types::{PyDict, PyInt, PyTuple, PyType};

/// A table of records and the names of the types their fields use.
pub struct NamedTypes {
    /// The entries: records with their fields; enums and handles by name only.
    defs: &'static [TypeDef],
    /// The class of each entry, as the package resolved it (records: as it made it).
    classes: &'static [GILOnceCell<Py<PyType>>],
    /// `resolve(name) -> class` and `convert(value, cls) -> instance of cls`, from the package.
    hooks: GILOnceCell<(PyObject, PyObject)>,
}

impl NamedTypes {
    /// A table over generated entries; `classes` has one cell per entry.
    pub const fn new(
        defs: &'static [TypeDef],
        classes: &'static [GILOnceCell<Py<PyType>>],
    ) -> Self {
        NamedTypes {
            defs,
            classes,
            hooks: GILOnceCell::new(),
        }
    }

    fn hooks(&self, py: Python<'_>) -> PyResult<&(PyObject, PyObject)> {
        self.hooks.get(py).ok_or_else(|| {
            PyLookupError::new_err("this type table has no resolver: call install() first")
        })
    }

    fn index(&self, name: &str) -> PyResult<usize> {
        self.defs
            .iter()
            .position(|d| d.name() == name)
            .ok_or_else(|| PyLookupError::new_err(format!("no type {name} in this table")))
    }

    /// The class of entry `idx`, resolved by the package on first use.
    fn class<'py>(&'static self, py: Python<'py>, idx: usize) -> PyResult<Bound<'py, PyType>> {
        let class = self.classes[idx].get_or_try_init(py, || {
            let (resolve, _) = self.hooks(py)?;
            let cls = resolve.bind(py).call1((self.defs[idx].name(),))?;
            Ok::<_, PyErr>(cls.downcast_into::<PyType>()?.unbind())
        })?;
        Ok(class.bind(py).clone())
    }

    /// The class of record `name`: `bases` (with `Struct` last) and `namespace`, plus the
    /// record's docstring, layout and a descriptor per field.
    fn make_record_class<'py>(
        &'static self,
        py: Python<'py>,
        name: &str,
        bases: &Bound<'py, PyTuple>,
        namespace: &Bound<'py, PyDict>,
    ) -> PyResult<Bound<'py, PyType>> {
        let TypeDef::Record(r) = &self.defs[self.index(name)?] else {
            return Err(PyTypeError::new_err(format!("{name} is no record")));
        };
        let ns = namespace.copy()?;
        ns.set_item("__doc__", r.doc)?;
        ns.set_item(
            "_hipgen_layout_",
            Layout {
                def: r,
                registry: self,
            },
        )?;
        for f in r.fields {
            ns.set_item(
                f.name,
                Field {
                    def: f,
                    registry: self,
                },
            )?;
        }
        let mut all: Vec<Bound<'py, PyAny>> = bases.iter().collect();
        all.push(py.get_type::<Struct>().into_any());
        let cls = py
            .get_type::<PyType>()
            .call1((r.name, PyTuple::new(py, all)?, ns))?;
        Ok(cls.downcast_into::<PyType>()?)
    }
}

impl FieldTypes for NamedTypes {
    fn enum_member(&'static self, py: Python<'_>, idx: usize, v: i64) -> PyResult<PyObject> {
        let cls = self.class(py, idx)?;
        match cls.call1((v,)) {
            Ok(member) => Ok(member.unbind()),
            // A value the enum does not list (a newer driver's): the integer.
            Err(e) if e.is_instance_of::<PyValueError>(py) => {
                Ok(PyInt::new(py, v).into_any().unbind())
            }
            Err(e) => Err(e),
        }
    }

    fn enum_arg(&'static self, idx: usize, obj: &Bound<'_, PyAny>) -> PyResult<i64> {
        if obj.is_instance_of::<PyInt>() {
            return obj.extract();
        }
        let (_, enum_class) = crate::convert::attr::enum_classes(obj.py())?;
        if obj.is_instance(enum_class.bind(obj.py()))? {
            return obj.getattr("value")?.extract();
        }
        Err(PyTypeError::new_err(format!(
            "expected a member of {} or an int, got {}",
            self.defs[idx].name(),
            obj.get_type().name()?
        )))
    }

    fn instance_at(
        &'static self,
        py: Python<'_>,
        idx: usize,
        addr: usize,
        owner: Option<PyObject>,
    ) -> PyResult<PyObject> {
        let cls = self.class(py, idx)?;
        match &self.defs[idx] {
            TypeDef::Record(_) => Struct::view(&cls, addr, owner),
            // A handle is an object even when NULL, as cuda-python gives it; a handle class
            // over a struct (`hipArray_t`) views the struct there.
            _ if cls.is_subclass_of::<Struct>()? => Struct::view(&cls, addr, None),
            _ => Ok(cls.call1((addr,))?.unbind()),
        }
    }

    fn def(&self, idx: usize) -> &'static TypeDef {
        &self.defs[idx]
    }

    fn array_record_copy(
        &'static self,
        py: Python<'_>,
        idx: usize,
        addr: usize,
    ) -> PyResult<Option<PyObject>> {
        let cls = self.class(py, idx)?;
        // SAFETY: `addr` holds an element of an array of this record inside a record's
        // memory, laid out as the class the table resolves the record to.
        unsafe { crate::types::record::copy_to_new(&cls, addr) }.map(Some)
    }

    fn record_value<'py>(
        &'static self,
        idx: usize,
        value: &Bound<'py, PyAny>,
    ) -> PyResult<(Bound<'py, PyAny>, usize)> {
        let py = value.py();
        let cls = self.class(py, idx)?;
        let value = if value.is_instance(&cls)? || !value.is_instance_of::<Struct>() {
            value.clone()
        } else {
            // Another shape of the record (HIP's for CUDA's): the package copies it over.
            let (_, convert) = self.hooks(py)?;
            convert.bind(py).call1((value, &cls))?
        };
        Ok((value, crate::types::record::class_size(&cls)?))
    }
}

/// A record table as the package sees it (`hip._native.cuda_types(version)`).
#[pyclass(frozen, module = "hipgen_runtime")]
pub struct TypeTable {
    /// The table.
    pub table: &'static NamedTypes,
}

#[pymethods]
impl TypeTable {
    /// Gives the table the package's `resolve(name) -> class` and `convert(value, cls)`
    /// (another shape of a record as an instance of `cls`). The first call's hooks stay.
    fn install(&self, py: Python<'_>, resolve: PyObject, convert: PyObject) {
        let _ = self.table.hooks.set(py, (resolve, convert));
    }

    /// The class of record `name`: a subclass of `bases` and `Struct` with `namespace`, whose
    /// fields this table describes.
    fn record_class<'py>(
        &self,
        py: Python<'py>,
        name: &str,
        bases: &Bound<'py, PyTuple>,
        namespace: &Bound<'py, PyDict>,
    ) -> PyResult<Bound<'py, PyType>> {
        self.table.make_record_class(py, name, bases, namespace)
    }

    /// The descriptor of each of `names`, fields of record `record`, that reads as
    /// cuda-python's do and not as a plain C struct's (a `char` array, a pointer a list can
    /// set): a class over another class of the same layout (HIP's) takes these.
    fn fields<'py>(
        &self,
        py: Python<'py>,
        record: &str,
        names: Vec<String>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let TypeDef::Record(r) = &self.table.defs[self.table.index(record)?] else {
            return Err(PyTypeError::new_err(format!("{record} is no record")));
        };
        // cuda-python's own reading: `char` and `unsigned char` arrays, and pointers a list can set.
        let own = |f: &FieldDef| {
            matches!(
                f.kind,
                FieldKind::Text(_)
                    | FieldKind::Bytes(_)
                    | FieldKind::Address { elem: Some(_) }
                    | FieldKind::KernelParams
            )
        };
        let out = PyDict::new(py);
        for f in r
            .fields
            .iter()
            .filter(|f| own(f) && names.iter().any(|n| n == f.name))
        {
            out.set_item(
                f.name,
                Field {
                    def: f,
                    registry: self.table,
                },
            )?;
        }
        Ok(out)
    }

    /// Whether the table describes type `name`.
    fn __contains__(&self, name: &str) -> bool {
        self.table.index(name).is_ok()
    }
}
