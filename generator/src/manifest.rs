//! The manifest of a release's bindings (`bindings/rocm-<release>/manifest.json`): which
//! libraries there are, in which order, which package carries each, what each needs and how
//! it runs on NVIDIA. Everything that builds or tests the packages (bindings/build.rs, the
//! extensions, build_pkgs.sh and tools/manifest.py, the tests) reads it; no other file lists
//! libraries or releases.

use crate::spec::release::{Release, RuntimeRoot, SpecFile};
use anyhow::Result;
use serde::Serialize;

/// The manifest of one release.
#[derive(Debug, Serialize)]
pub struct Manifest {
    /// The ROCm release (`6.4.3`).
    pub release: String,
    /// Whether this is the default release (the one a wheel falls back to).
    pub default: bool,
    /// Whether the wheels carry these bindings (checked in as `bindings/rocm-<release>`).
    pub ship: bool,
    /// Where its headers came from.
    pub source: String,
    /// The libraries, each after those it needs.
    pub libraries: Vec<LibraryEntry>,
    /// The Debian root with this release's runtime (tools/rocm-root.sh), if it has one.
    pub runtime: Option<RuntimeRoot>,
}

/// One library spec file of the release.
#[derive(Debug, Serialize)]
pub struct LibraryEntry {
    /// Spec file name, what a build selects (`llvm`).
    pub name: String,
    /// `library` (Python modules of functions) or `aliases` (the CUDA names' tables).
    pub kind: &'static str,
    /// The Python package carrying it (`hip-python`, `hip-python-as-cuda`, ...).
    pub package: String,
    /// Libraries whose modules it uses; a build that selects it selects them too.
    pub needs: Vec<String>,
    /// On NVIDIA: `same` (the library itself), `shim` (our shim of HIP over CUDA),
    /// `cuda-library` (our shim over the CUDA library of `library.nvidia.cuda`), `nvidia`
    /// (NVIDIA's own library, e.g. NCCL for RCCL); absent where it has no NVIDIA form.
    pub nvidia: Option<&'static str>,
    /// The generated modules (one, or a family's).
    pub modules: Vec<ModuleEntry>,
    /// An alias package's Python modules (the spec's `python_modules`): what a build selects
    /// and packs.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub python_modules: Vec<crate::ir::PythonModule>,
    /// Where the shared library is looked for (none for alias tables): what a wheel that
    /// carries several releases probes to pick the one matching the installed runtime.
    pub loads: Option<LoadEntry>,
}

/// How a library is found and asked for its release (the spec's `library`).
#[derive(Debug, Serialize)]
pub struct LoadEntry {
    /// The library's name in the runtime's messages and tables (`LLVM`, `amdhip64`).
    pub library: String,
    /// Environment variable holding a path that overrides the search.
    pub env: String,
    /// File names tried in order.
    pub sonames: Vec<String>,
    /// `int f(int *version)` and the divisor giving the major release, when the library
    /// reports one (`hipRuntimeGetVersion`, 10^7).
    pub version: Option<(String, i64)>,
    /// The header constant holding the major version the bindings are of, where a package
    /// carries bindings of several (`LLVM_VERSION_MAJOR`, `AMD_COMGR_INTERFACE_VERSION_MAJOR`).
    pub major_constant: Option<String>,
}

/// One generated module (`<name>.rs` of the release folder).
#[derive(Debug, Serialize)]
pub struct ModuleEntry {
    /// Rust module and file name (`llvm_core`).
    pub name: String,
    /// The Python module it is published as (`rocm.llvm.c.core`); none for alias tables.
    pub python_module: Option<String>,
    /// Its name in AMD's 10.0 layout (`rocm.bindings.llvm.c.core`), an alias the package
    /// installs (tools/layout.py); none for alias tables.
    pub bindings_module: Option<String>,
}

/// The manifest of `release`, from its spec files (in dependency order).
pub fn build(release: &Release, files: &[SpecFile]) -> Result<Manifest> {
    let mut libraries = Vec::new();
    for file in files {
        let needs = file.needs()?;
        let entry = match file.alias_spec()? {
            Some(alias) => LibraryEntry {
                name: file.name.clone(),
                kind: "aliases",
                package: alias.package,
                needs,
                nvidia: Some("same"),
                modules: vec![ModuleEntry {
                    name: alias.name,
                    python_module: None,
                    bindings_module: None,
                }],
                python_modules: alias.python_modules,
                loads: None,
            },
            None => {
                let specs = file.library_specs()?;
                LibraryEntry {
                    name: file.name.clone(),
                    kind: "library",
                    package: specs[0].package.clone(),
                    needs,
                    nvidia: specs[0].library.nvidia.as_ref().map(|n| {
                        if n.same {
                            "same"
                        } else if n.cuda.is_some() {
                            "cuda-library"
                        } else if n.shim.is_some() {
                            "shim"
                        } else {
                            "nvidia"
                        }
                    }),
                    modules: specs
                        .iter()
                        .map(|s| ModuleEntry {
                            name: s.name.clone(),
                            python_module: Some(s.python_module()),
                            bindings_module: Some(s.bindings_module()),
                        })
                        .collect(),
                    python_modules: Vec::new(),
                    loads: Some(LoadEntry {
                        library: specs[0].library.name.clone(),
                        env: specs[0].library.env.clone(),
                        sonames: specs[0].library.file_names(),
                        version: specs[0].library.version.as_ref().and_then(|v| {
                            Some((v.symbol.clone(), v.divisor?))
                                .filter(|_| v.major_constant.is_none())
                        }),
                        major_constant: specs[0]
                            .library
                            .version
                            .as_ref()
                            .and_then(|v| v.major_constant.clone()),
                    }),
                }
            }
        };
        libraries.push(entry);
    }
    Ok(Manifest {
        release: release.release.clone(),
        default: release.default,
        ship: release.shipped(),
        source: release.source.clone(),
        libraries,
        runtime: release.runtime.clone(),
    })
}
