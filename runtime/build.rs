//! `cfg(Py_GIL_DISABLED)` where the interpreter built for is free-threaded: the few pieces of
//! the runtime that differ there (`TypeSlot`'s spare handle) are chosen by it.
fn main() {
    pyo3_build_config::use_pyo3_cfgs();
}
