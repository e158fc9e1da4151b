//! Build-script helper shared by the extension crates (`hip-python`, `rocm-llvm-python`): sets
//! `PACKAGE_VERSION` to the version in the crate's pyproject.toml (the wheel's), which the
//! generated modules publish as `__version__`; Cargo's own version is not the package's.

/// Emits `cargo:rustc-env=PACKAGE_VERSION=...` for the crate whose build script calls it.
pub fn emit() {
    let dir = std::path::PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap());
    // An sdist may keep pyproject.toml one folder up from the crate.
    let pyproject = [dir.join("pyproject.toml"), dir.join("../pyproject.toml")]
        .into_iter()
        .find(|p| p.exists());
    let version = pyproject
        .and_then(|p| {
            println!("cargo:rerun-if-changed={}", p.display());
            std::fs::read_to_string(p).ok()
        })
        .and_then(|text| {
            text.lines().find_map(|l| {
                l.strip_prefix("version = ")
                    .map(|v| v.trim().trim_matches('"').to_string())
            })
        })
        .unwrap_or_else(|| std::env::var("CARGO_PKG_VERSION").unwrap());
    println!("cargo:rustc-env=PACKAGE_VERSION={version}");
}
