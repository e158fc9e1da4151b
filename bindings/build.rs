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
];

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
    let out = PathBuf::from(std::env::var("OUT_DIR").unwrap()).join("modules.rs");
    std::fs::write(out, modules).unwrap();
}
