//! Declares the generated modules of one release's bindings, as its manifest
//! (`manifest.json`, written by `hipgen generate`) lists them: the folder in
//! `HIPGEN_BINDINGS`, else the checked-in one whose manifest says it is the default.
//!
//! Which modules: those of the packages whose feature is on (`hip-python`,
//! `rocm-llvm-python`, `hip-python-as-cuda`), narrowed to the libraries named in `HIPGEN_LIBS`
//! (`hip,hiprtc`) when it is set, plus the libraries those use. Each selected library `x`
//! also sets `feature = "x"`, the cfg the generated CUDA adapters test. Per package, a table
//! `packages::HIP_PYTHON` (...) of its modules, in the manifest's order.

use serde_json::Value;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

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
    /// No conventions plan: the cuda package reads its own.
    pub static CONVENTIONS: &[(&str, &str)] = &[];
    /// No record tables.
    pub fn types(_: &str, _: &str) -> Option<&'static hipgen_runtime::NamedTypes> {
        None
    }
}
";

/// One library of the manifest.
struct Library {
    name: String,
    aliases: bool,
    package: String,
    needs: Vec<String>,
    /// (Rust module, whether it is published as a Python module).
    modules: Vec<(String, bool)>,
}

fn read_manifest(dir: &Path) -> Option<Value> {
    let text = std::fs::read_to_string(dir.join("manifest.json")).ok()?;
    Some(serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", dir.display())))
}

/// The checked-in release folder whose manifest says it is the default.
fn default_folder(root: &Path) -> PathBuf {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(root).unwrap() {
        let path = entry.unwrap().path();
        let is_release = path
            .file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with("rocm-"));
        if is_release && read_manifest(&path).is_some_and(|m| m["default"] == true) {
            found.push(path);
        }
    }
    match found.len() {
        1 => found.remove(0),
        n => panic!(
            "{} holds {n} release folders whose manifest says default; regenerate them",
            root.display()
        ),
    }
}

fn libraries(manifest: &Value) -> Vec<Library> {
    let strings = |v: &Value| -> Vec<String> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap().to_string())
            .collect()
    };
    manifest["libraries"]
        .as_array()
        .expect("manifest.json: libraries")
        .iter()
        .map(|l| Library {
            name: l["name"].as_str().unwrap().to_string(),
            aliases: l["kind"] == "aliases",
            package: l["package"].as_str().unwrap().to_string(),
            needs: strings(&l["needs"]),
            modules: l["modules"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| {
                    let name = m["name"].as_str().unwrap().to_string();
                    (name, m["python_module"].is_string())
                })
                .collect(),
        })
        .collect()
}

/// `hip-python` → `HIP_PYTHON`.
fn upper(name: &str) -> String {
    name.replace('-', "_").to_uppercase()
}

/// Whether the feature of package `p` is on.
fn package_on(p: &str) -> bool {
    std::env::var_os(format!("CARGO_FEATURE_{}", upper(p))).is_some()
}

/// The libraries to build: of the packages whose feature is on, narrowed by `HIPGEN_LIBS`,
/// with the libraries they use.
fn selected(libs: &[Library]) -> BTreeSet<String> {
    let wanted: Option<Vec<String>> = std::env::var("HIPGEN_LIBS")
        .ok()
        .filter(|s| !s.trim().is_empty())
        .map(|s| s.split(',').map(|l| l.trim().to_string()).collect());
    if let Some(wanted) = &wanted {
        for w in wanted {
            if !libs.iter().any(|l| &l.name == w) {
                let known: Vec<&str> = libs.iter().map(|l| l.name.as_str()).collect();
                panic!("HIPGEN_LIBS names {w}, which these bindings lack (they have {known:?})");
            }
        }
    }
    let mut out = BTreeSet::new();
    let mut todo: Vec<&Library> = libs
        .iter()
        .filter(|l| package_on(&l.package))
        .filter(|l| wanted.as_ref().is_none_or(|w| w.contains(&l.name)))
        .collect();
    while let Some(lib) = todo.pop() {
        if !out.insert(lib.name.clone()) || lib.aliases {
            // An alias table's needs are the IRs it was generated from, not code it uses.
            continue;
        }
        for need in &lib.needs {
            todo.push(
                libs.iter()
                    .find(|l| &l.name == need)
                    .expect("a need is a library"),
            );
        }
    }
    out
}

fn main() {
    println!("cargo:rerun-if-env-changed=HIPGEN_BINDINGS");
    println!("cargo:rerun-if-env-changed=HIPGEN_LIBS");
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap());
    let dir = match std::env::var("HIPGEN_BINDINGS") {
        Ok(d) if !d.is_empty() => PathBuf::from(d),
        _ => default_folder(&root),
    };
    println!(
        "cargo:rerun-if-changed={}",
        dir.join("manifest.json").display()
    );
    let manifest = read_manifest(&dir).unwrap_or_else(|| {
        panic!(
            "{} has no manifest.json: generate it with `hipgen generate --release ...`",
            dir.display()
        )
    });
    let libs = libraries(&manifest);
    let chosen = selected(&libs);
    let release = manifest["release"]
        .as_str()
        .expect("manifest.json: release");

    let mut code = format!(
        "/// The ROCm release these bindings were generated from.\n\
         pub const ROCM_RELEASE: &str = {release:?};\n"
    );
    let all: Vec<String> = libs.iter().map(|l| format!("{:?}", l.name)).collect();
    println!(
        "cargo:rustc-check-cfg=cfg(feature, values({}))",
        all.join(", ")
    );
    // A table for every package built, empty where `HIPGEN_LIBS` leaves it nothing.
    let mut tables = std::collections::BTreeMap::<&str, Vec<&str>>::new();
    for lib in &libs {
        if package_on(&lib.package) {
            tables.entry(&lib.package).or_default();
        }
    }
    for lib in libs.iter().filter(|l| chosen.contains(&l.name)) {
        println!("cargo:rustc-cfg=feature=\"{}\"", lib.name);
        for (module, published) in &lib.modules {
            let file = dir.join(format!("{module}.rs"));
            if !file.exists() {
                panic!(
                    "{} is selected but {} does not exist: generate it or leave it out",
                    lib.name,
                    file.display()
                );
            }
            println!("cargo:rerun-if-changed={}", file.display());
            code.push_str(&format!(
                "#[path = {:?}]\npub mod {module};\n",
                file.canonicalize().unwrap().display().to_string()
            ));
            if *published {
                tables.entry(&lib.package).or_default().push(module);
            }
        }
    }
    code.push_str(
        "/// The modules of each package built, in the manifest's order.\npub mod packages {\n",
    );
    for (package, modules) in tables {
        code.push_str(&format!(
            "    /// The generated modules of {package}.\n    pub const {}: &[crate::Module] = &[\n",
            upper(package)
        ));
        for m in modules {
            code.push_str(&format!("        crate::module_entry!({m}),\n"));
        }
        code.push_str("    ];\n");
    }
    code.push_str("}\n");
    // The native CUDA adapters (hipgen writes them with the cuda aliases), which reach into
    // the HIP modules; without them, a module that has none.
    let adapters = dir.join("cuda_adapters.rs");
    println!("cargo:rerun-if-changed={}", adapters.display());
    if adapters.exists() {
        code.push_str(&format!(
            "#[path = {:?}]\npub mod cuda_adapters;\n",
            adapters.canonicalize().unwrap().display().to_string()
        ));
    } else {
        code.push_str(NO_ADAPTERS);
    }
    let out = PathBuf::from(std::env::var("OUT_DIR").unwrap()).join("modules.rs");
    std::fs::write(out, code).unwrap();
}
