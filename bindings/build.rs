//! Declares one module per enabled library feature, from the generated files of the release
//! in `HIPGEN_BINDINGS` (a folder holding `<lib>.rs`, as `hipgen generate` writes it), or of
//! the checked-in default release.

use std::path::PathBuf;

/// Every library the crate knows, in the order the features are declared.
const LIBRARIES: &[&str] = &[
    "hip",
    "hiprtc",
    "hipblas",
    "hipsparse",
    "rccl",
    "hiprand",
    "hipfft",
    "hipsolver",
    "roctx",
    "cuda",
    "amd_comgr",
];

/// Families of generated files behind one feature: every `<family>_*.rs` of the folder
/// (the LLVM C API is one module per header).
const FAMILIES: &[&str] = &["llvm"];

/// The adapters module of a release without CUDA conventions.
const NO_ADAPTERS: &str = "/// No native CUDA adapters in these bindings.
pub mod cuda_adapters {
    use pyo3::prelude::*;
    /// None: no adapter is native.
    pub fn make(_: Python<'_>, _: &str, _: &str, _: &str) -> PyResult<Option<PyObject>> {
        Ok(None)
    }
    /// None.
    pub fn adapters() -> Vec<(&'static str, &'static str)> {
        Vec::new()
    }
}
";

fn main() {
    println!("cargo:rerun-if-env-changed=HIPGEN_BINDINGS");
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap());
    let dir = match std::env::var("HIPGEN_BINDINGS") {
        Ok(d) if !d.is_empty() => PathBuf::from(d),
        _ => manifest.join("rocm-6.4.3"),
    };
    let mut modules = String::new();
    for lib in LIBRARIES {
        if std::env::var_os(format!("CARGO_FEATURE_{}", lib.to_uppercase())).is_none() {
            continue;
        }
        let file = dir.join(format!("{lib}.rs"));
        if !file.exists() {
            panic!(
                "feature '{lib}' is enabled but {} does not exist: generate it or leave the \
                 feature out",
                file.display()
            );
        }
        println!("cargo:rerun-if-changed={}", file.display());
        modules.push_str(&format!(
            "#[path = {:?}]\npub mod {lib};\n",
            file.canonicalize().unwrap().display().to_string()
        ));
    }
    for family in FAMILIES {
        if std::env::var_os(format!("CARGO_FEATURE_{}", family.to_uppercase())).is_none() {
            continue;
        }
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()))
            .map(|e| e.unwrap().path())
            .filter(|p| {
                let name = p.file_name().unwrap().to_string_lossy();
                name.starts_with(&format!("{family}_")) && name.ends_with(".rs")
            })
            .collect();
        files.sort();
        if files.is_empty() {
            panic!(
                "feature '{family}' is enabled but {} has no {family}_*.rs",
                dir.display()
            );
        }
        println!("cargo:rerun-if-changed={}", dir.display());
        let mut table = format!(
            "/// The generated modules of family `{family}`.\npub const FAMILY_{}: &[crate::Module] = &[\n",
            family.to_uppercase()
        );
        for file in files {
            println!("cargo:rerun-if-changed={}", file.display());
            let module = file.file_stem().unwrap().to_string_lossy().into_owned();
            modules.push_str(&format!(
                "#[path = {:?}]\npub mod {module};\n",
                file.canonicalize().unwrap().display().to_string()
            ));
            table.push_str(&format!("    crate::module_entry!({module}),\n"));
        }
        table.push_str("];\n");
        modules.push_str(&table);
    }
    // The native CUDA adapters (hipgen writes them with the cuda aliases), which reach into
    // the HIP modules; without them, a module that has none.
    let adapters = dir.join("cuda_adapters.rs");
    println!("cargo:rerun-if-changed={}", adapters.display());
    if adapters.exists() {
        modules.push_str(&format!(
            "#[path = {:?}]\npub mod cuda_adapters;\n",
            adapters.canonicalize().unwrap().display().to_string()
        ));
    } else {
        modules.push_str(NO_ADAPTERS);
    }
    let out = PathBuf::from(std::env::var("OUT_DIR").unwrap()).join("modules.rs");
    std::fs::write(out, modules).unwrap();
}
