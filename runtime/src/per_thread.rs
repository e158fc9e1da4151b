//! Tables of Python objects kept per thread (`thread_local!`): the runtime's caches, correct
//! without the GIL and free of contention between threads.
//!
//! A thread's table goes when the thread ends, after Python has let go of the thread. Dropping
//! its objects then, without an attached thread state, would hand them to PyO3's reference
//! pool, whose global lock every later call would then take (PyO3 0.25 locks it on each call
//! once it exists: 16 threads calling `hipGetErrorString` ran at a sixth of one thread's rate
//! on the free-threaded build). So the table attaches to the interpreter to let its objects go,
//! or, once the interpreter is finalized (the main thread's tables at exit), leaves them.

use pyo3::prelude::*;
use std::cell::RefCell;
use std::ops::Deref;

/// A per-thread table: a `RefCell` that releases its Python objects properly when its
/// thread ends. Never borrowed across a call that could run Python code.
pub struct PerThread<T: Default>(RefCell<T>);

impl<T: Default> PerThread<T> {
    /// An empty table (for `thread_local!`'s `const` initialiser).
    pub const fn new(value: T) -> Self {
        PerThread(RefCell::new(value))
    }
}

impl<T: Default> Deref for PerThread<T> {
    type Target = RefCell<T>;

    fn deref(&self) -> &RefCell<T> {
        &self.0
    }
}

impl<T: Default> Drop for PerThread<T> {
    fn drop(&mut self) {
        let contents = std::mem::take(self.0.get_mut());
        // SAFETY: a query of the interpreter's state, allowed at any time.
        if unsafe { pyo3::ffi::Py_IsInitialized() } != 0 {
            Python::with_gil(|_| drop(contents));
        } else {
            // The process is exiting and its interpreter gone: nothing to give back to.
            std::mem::forget(contents);
        }
    }
}

/// One of the runtime's cache tables: in the GIL build a single table the GIL guards (no cost:
/// the GIL already orders every access, where a thread-local costs a `__tls_get_addr` call per
/// access in a shared library, 5-20% of an error-string call); in the free-threaded build a
/// [`PerThread`] table of each thread. Declared with [`table!`](crate::table).
pub struct Table<T: Default + 'static> {
    #[cfg(not(Py_GIL_DISABLED))]
    cell: pyo3::sync::GILProtected<RefCell<T>>,
    #[cfg(Py_GIL_DISABLED)]
    key: &'static std::thread::LocalKey<PerThread<T>>,
}

impl<T: Default + 'static> Table<T> {
    /// The GIL build's table.
    #[cfg(not(Py_GIL_DISABLED))]
    pub const fn gil(value: T) -> Self {
        Table {
            cell: pyo3::sync::GILProtected::new(RefCell::new(value)),
        }
    }

    /// The free-threaded build's table: `key`'s, per thread.
    #[cfg(Py_GIL_DISABLED)]
    pub const fn per_thread(key: &'static std::thread::LocalKey<PerThread<T>>) -> Self {
        Table { key }
    }

    /// Runs `f` on this thread's table (the one table, in the GIL build).
    #[inline]
    pub fn with<R>(&'static self, py: Python<'_>, f: impl FnOnce(&RefCell<T>) -> R) -> R {
        #[cfg(not(Py_GIL_DISABLED))]
        return f(self.cell.get(py));
        #[cfg(Py_GIL_DISABLED)]
        return {
            let _ = py;
            self.key.with(|t| f(t))
        };
    }
}

/// Declares a [`Table`] static of type `T` (whose `T::new()` is `const`).
#[macro_export]
macro_rules! table {
    ($(#[$m:meta])* static $name:ident: $t:ty;) => {
        #[cfg(not(Py_GIL_DISABLED))]
        $(#[$m])*
        static $name: $crate::per_thread::Table<$t> = $crate::per_thread::Table::gil(<$t>::new());
        #[cfg(Py_GIL_DISABLED)]
        $(#[$m])*
        static $name: $crate::per_thread::Table<$t> = {
            thread_local! {
                static KEY: $crate::per_thread::PerThread<$t> =
                    const { $crate::per_thread::PerThread::new(<$t>::new()) };
            }
            $crate::per_thread::Table::per_thread(&KEY)
        };
    };
}
