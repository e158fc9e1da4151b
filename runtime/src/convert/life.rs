//! The mark that says whether a handle object still stands for a live C object.
//!
//! A handle destroyed through the bindings (`hipStreamDestroy(s)`, `hiprtcDestroyProgram(p)`,
//! every function a spec's `destroys` names) is marked, and the mark travels with the object
//! and its copies (`hipStream_t(s)`, `p.createRef()`'s owner): passing it to C again is a
//! `ValueError`, not a dangling pointer handed to C. Plain int addresses stay the caller's
//! risk, as do handles destroyed by other means (a library that frees what it owns).
//!
//! The mark is one shared cell per handle identity, created only when a copy is made or the
//! handle is destroyed, so creating and using a live handle costs nothing more than a field
//! read per argument. `Pointer` carries the mark and refuses a destroyed handle as an
//! argument; `types::life` sets it after C returns.

use std::sync::{Arc, OnceLock};

/// The shared mark of one handle: the C function that destroyed it, once it has, and the
/// handle it lives in, if any (an LLVM module in its context): destroying that one ends this
/// one too.
#[derive(Debug, Default)]
pub struct Life {
    by: OnceLock<&'static str>,
    parent: Option<Arc<Life>>,
}

impl Life {
    /// A new cell of a live handle.
    pub fn new() -> Arc<Life> {
        Arc::new(Life::default())
    }

    /// A new cell of a live handle that ends with `parent`'s.
    pub fn child_of(parent: Arc<Life>) -> Arc<Life> {
        Arc::new(Life {
            by: OnceLock::new(),
            parent: Some(parent),
        })
    }

    /// The function that destroyed the handle, or the handle it lives in, if one has.
    #[inline]
    pub fn destroyed_by(&self) -> Option<&'static str> {
        match self.by.get() {
            Some(by) => Some(by),
            None => self.parent.as_ref()?.destroyed_by(),
        }
    }

    /// The outermost handle this one lives in (an LLVM context), if it lives in one.
    pub fn root(&self) -> Option<Arc<Life>> {
        let mut root = self.parent.clone()?;
        while let Some(up) = root.parent.clone() {
            root = up;
        }
        Some(root)
    }

    /// Marks the handle destroyed by `by` (the first mark stays).
    pub fn mark(&self, by: &'static str) {
        let _ = self.by.set(by);
    }
}
