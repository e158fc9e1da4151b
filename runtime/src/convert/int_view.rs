//! An integer C value at an address, as an object: the memory the caller holds (a CUDA
//! integer typedef object made with `_ptr=`, which a kernel may write), or a cell of its own
//! (the storage `getPtr()` gives for an integer object).

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyType;

/// An integer of `size` bytes at an address: `int()` reads it now, `getPtr()` is the address,
/// and it prints as an instance of the class it stands for (`<CUdevice 3>`).
#[pyclass(frozen, module = "hipgen_runtime")]
pub struct IntView {
    addr: usize,
    size: u8,
    signed: bool,
    /// The integer class it is a value of.
    of: Py<PyType>,
    /// The cell of a value of its own (`hold`); None over the caller's memory.
    _cell: Option<Box<u64>>,
}

impl IntView {
    fn read(&self) -> i128 {
        let p = self.addr as *const u8;
        // SAFETY: `addr` holds `size` bytes: the caller's memory (what `_ptr=` promises), or
        // this object's own cell.
        unsafe {
            match (self.size, self.signed) {
                (1, true) => p.cast::<i8>().read_unaligned() as i128,
                (1, false) => p.read_unaligned() as i128,
                (2, true) => p.cast::<i16>().read_unaligned() as i128,
                (2, false) => p.cast::<u16>().read_unaligned() as i128,
                (4, true) => p.cast::<i32>().read_unaligned() as i128,
                (4, false) => p.cast::<u32>().read_unaligned() as i128,
                (_, true) => p.cast::<i64>().read_unaligned() as i128,
                (_, false) => p.cast::<u64>().read_unaligned() as i128,
            }
        }
    }
}

fn check_size(size: u8) -> PyResult<()> {
    match size {
        1 | 2 | 4 | 8 => Ok(()),
        _ => Err(PyValueError::new_err(format!("an integer of {size} bytes"))),
    }
}

#[pymethods]
impl IntView {
    /// The integer of `size` bytes (`signed` or not) at address `at`, a value of class `of`.
    #[new]
    #[pyo3(signature = (of, at, size = 8, signed = false))]
    fn new(of: Bound<'_, PyType>, at: usize, size: u8, signed: bool) -> PyResult<Self> {
        check_size(size)?;
        if at == 0 {
            return Err(PyValueError::new_err("an integer at NULL"));
        }
        Ok(IntView {
            addr: at,
            size,
            signed,
            of: of.unbind(),
            _cell: None,
        })
    }

    /// A cell of its own holding `value` (little-endian, `size` bytes): the C value an
    /// integer object's `getPtr()` points at.
    #[staticmethod]
    #[pyo3(signature = (of, value, size = 8, signed = false))]
    fn hold(of: Bound<'_, PyType>, value: i128, size: u8, signed: bool) -> PyResult<Self> {
        check_size(size)?;
        let cell = Box::new(value as u64);
        Ok(IntView {
            addr: &*cell as *const u64 as usize,
            size,
            signed,
            of: of.unbind(),
            _cell: Some(cell),
        })
    }

    fn __int__(&self) -> i128 {
        self.read()
    }

    fn __index__(&self) -> i128 {
        self.read()
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> PyResult<PyObject> {
        let py = other.py();
        let Ok(index) = other.call_method0(pyo3::intern!(py, "__index__")) else {
            return Ok(py.NotImplemented());
        };
        let v: i128 = index.extract()?;
        Ok(pyo3::types::PyBool::new(py, v == self.read())
            .to_owned()
            .into_any()
            .unbind())
    }

    fn __hash__(&self, py: Python<'_>) -> PyResult<isize> {
        // As the integer's: a view equal to an int hashes as it does.
        self.read().into_pyobject(py)?.hash()
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!("<{} {}>", self.of.bind(py).name()?, self.read()))
    }

    fn __str__(&self, py: Python<'_>) -> PyResult<String> {
        self.__repr__(py)
    }

    /// The address of the value.
    #[pyo3(name = "getPtr")]
    fn get_ptr(&self) -> usize {
        self.addr
    }

    /// The integer class it is a value of.
    #[getter]
    fn _of(&self, py: Python<'_>) -> Py<PyType> {
        self.of.clone_ref(py)
    }
}
