//! The Python objects adapters name, imported on first use: each a static the template
//! declares once per HIP module.

use serde::Serialize;
use std::collections::BTreeMap;

/// A lazily imported Python object: a static named `IMPORTED_<n>` (an `rt::Imported`) or
/// `INT_CLASS_<n>` (an `rt::IntClass`, a class whose instances are made from integers).
#[derive(Serialize, Clone, Copy)]
pub(super) struct ImportRef {
    n: usize,
    int_class: bool,
}

/// The lazily imported objects of one HIP module's adapters, by (module, attribute).
pub(super) type Imports = BTreeMap<(String, String), ImportRef>;

/// The static holding `module.attr`, registered in `imported`.
pub(super) fn import(
    imported: &mut Imports,
    int_class: bool,
    module: &str,
    attr: &str,
) -> ImportRef {
    let n = imported.len();
    *imported
        .entry((module.to_string(), attr.to_string()))
        .or_insert(ImportRef { n, int_class })
}
