//! `hipgen generate`: one release's libraries through parse → bind → render, then the cuda
//! package's tables, adapters and stubs from those libraries' IRs, then the manifest.
//!
//! Stages hand IR to each other in memory (`Libraries`): a library another imports, or one
//! the cuda package aliases, is parsed when first asked for, so `--libs hipblas` or
//! `--libs cuda` needs nothing an earlier run left on disk.

use crate::backends::cuda_adapters as adapters;
use crate::backends::pyi::cuda as cuda_stubs;
use crate::backends::{pxd, render_library};
use crate::cuda::aliases;
use crate::ir::{self, Library};
use crate::libraries::Libraries;
use crate::output::write_if_changed;
use crate::spec::release::Release;
use crate::{ir_file, manifest};
use anyhow::{Context, Result};
use std::path::Path;

/// Where generation reads from.
pub struct Inputs<'a> {
    /// ROCm include directory.
    pub include: &'a Path,
    /// CUDA's headers (tools/cuda_headers.py).
    pub cuda_headers: &'a Path,
    /// Folder of the spec files.
    pub specs: &'a Path,
    /// Folder of the templates.
    pub templates: &'a Path,
}

/// Parses and renders the release's libraries (those of `libs`, or all), writing `<lib>.rs`
/// and `<lib>.ir.json.gz` of each, and the release's manifest.
pub fn generate(
    release: &Release,
    libs: Option<&str>,
    inputs: &Inputs<'_>,
    out: &Path,
) -> Result<()> {
    let version = &release.release;
    let dir = out.join(format!("rocm-{version}"));
    std::fs::create_dir_all(&dir)?;
    let files = release.spec_files(inputs.specs)?;
    let wanted: Option<Vec<&str>> = libs.map(|l| {
        l.split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .collect()
    });
    if let Some(wanted) = &wanted {
        for name in wanted {
            if !files.iter().any(|f| f.name == *name) {
                let known: Vec<&str> = files.iter().map(|f| f.name.as_str()).collect();
                anyhow::bail!(
                    "release {version} has no library {name} (it has {})",
                    known.join(", ")
                );
            }
        }
    }
    let mut libraries = Libraries::new(&files, inputs.include, version)?;
    for file in &files {
        let name = &file.name;
        if wanted.as_ref().is_some_and(|w| !w.contains(&name.as_str())) {
            continue;
        }
        let command = format!(
            "hipgen generate --release {version} --libs {name} (or ./build_pkgs.sh --regenerate)"
        );
        if let Some(alias_spec) = file.alias_spec()? {
            generate_aliases(&alias_spec, inputs, &mut libraries, &dir, &command)?;
            continue;
        }
        for spec in file.library_specs()? {
            generate_one(&spec.name, inputs, &mut libraries, &dir, &command)?;
        }
    }
    let manifest = manifest::build(release, &files)?;
    write_if_changed(
        dir.join("manifest.json"),
        serde_json::to_string_pretty(&manifest)? + "\n",
    )?;
    Ok(())
}

/// Renders library `name` into `dir`: its Rust module, stub and IR.
fn generate_one(
    name: &str,
    inputs: &Inputs<'_>,
    libraries: &mut Libraries<'_>,
    dir: &Path,
    command: &str,
) -> Result<()> {
    let spec = libraries.spec(name)?.clone();
    let imports = libraries
        .all(&spec.imports)
        .with_context(|| format!("{name} imports {}", spec.imports.join(", ")))?;
    let modules = libraries.python_modules();
    let mut lib = libraries.get(name)?.clone();
    let rendered = render_library(&lib, &imports, &modules, &spec, inputs.templates, command)?;
    // Functions the renderer leaves out are recorded in the IR file.
    lib.skipped.extend(rendered.skipped);
    write_if_changed(dir.join(format!("{name}.rs")), rendered.code)?;
    // The stub goes where the package puts the module: stubs/hip/hip.pyi for `hip.hip`.
    let stub = dir
        .join("stubs")
        .join(spec.python_module().replace('.', "/") + ".pyi");
    std::fs::create_dir_all(stub.parent().context("stub path")?)?;
    write_if_changed(&stub, rendered.stub)?;
    // The Cython declarations of its C level go beside the stub (`stubs/hip/chip.pxd`), for
    // the packages whose extension exports the loader they call (hip-python so far).
    if pxd::has_c_level(&spec.package) {
        let pxd = pxd::render(&lib, &imports, &modules, &spec, inputs.templates, command)?;
        let pxd_path = dir
            .join("stubs")
            .join(pxd::pxd_module(&spec.python_module()).replace('.', "/") + ".pxd");
        write_if_changed(pxd_path, pxd)?;
    }
    ir_file::write(&ir_file::path(dir, name), &lib)?;
    eprintln!(
        "{name}: {} functions, {} enums, {} records, {} handles, {} constants, {} skipped",
        lib.functions.len(),
        lib.enums.len(),
        lib.records.len(),
        lib.handles.len(),
        lib.constants.len(),
        lib.skipped.len()
    );
    for s in &lib.skipped {
        eprintln!("  skipped {}: {}", s.name, s.reason);
    }
    Ok(())
}

/// Resolves and renders an alias spec (the CUDA names) into `dir`.
fn generate_aliases(
    spec: &aliases::AliasSpec,
    inputs: &Inputs<'_>,
    libraries: &mut Libraries<'_>,
    dir: &Path,
    command: &str,
) -> Result<()> {
    let name = &spec.name;
    let release = libraries.release;
    let modules = libraries
        .all(&spec.modules)
        .with_context(|| format!("{name} aliases {}", spec.modules.join(", ")))?;
    let set = aliases::generate(spec, inputs.include, inputs.cuda_headers, release, &modules)?;
    if let Some(stubs) = &spec.stubs {
        write_cuda_stubs(&set, &modules, stubs, libraries, dir, inputs, command)?;
        write_not_supported(&set, dir, command)?;
        // The C levels for Cython (`cuda/ccudart.pxd`, `cuda/bindings/cyruntime.pxd`, ...).
        for (path, text) in pxd::render_cuda(&set, &modules, command) {
            let path = dir.join("stubs").join(path);
            std::fs::create_dir_all(path.parent().context("pxd path")?)?;
            write_if_changed(path, text)?;
        }
    }
    write_if_changed(
        dir.join(format!("{name}.rs")),
        aliases::render(&set, inputs.templates, command)?,
    )?;
    if !set.apis.is_empty() {
        let (code, report) = adapters::render(&set, libraries, inputs.templates, command)?;
        write_if_changed(dir.join("cuda_adapters.rs"), code)?;
        for (version, (native, all)) in &report.counts {
            eprintln!("{name}: cuda-bindings {version}: {native} of {all} adapters native");
        }
    }
    ir_file::write(&ir_file::path(dir, name), &set)?;
    for m in &set.modules {
        eprintln!(
            "{name}: {} CUDA names and {} enum member names for {}",
            m.names.len(),
            m.members.iter().map(|e| e.members.len()).sum::<usize>(),
            m.module
        );
    }
    let unresolved: usize = set.unresolved.iter().map(|(_, n)| n).sum();
    eprintln!("{name}: {unresolved} table entries name no object of these modules");
    for api in &set.apis {
        eprintln!(
            "{name}: cuda-bindings {} conventions: {} functions as HIP's, {} adapted, {} not supported, {} called as HIP's though they differ",
            api.version,
            api.same.len(),
            api.adapted.len(),
            api.stubs.len(),
            api.mismatched.len()
        );
    }
    Ok(())
}

/// Writes the cuda package's stubs (`stubs/cuda/bindings/<module>.pyi`) from the alias set
/// and the IRs of the HIP modules it aliases (`modules`, in the set's order).
fn write_cuda_stubs(
    set: &ir::AliasSet,
    modules: &[Library],
    stubs: &aliases::StubsSpec,
    libraries: &Libraries<'_>,
    dir: &Path,
    inputs: &Inputs<'_>,
    command: &str,
) -> Result<()> {
    let mut libs = Vec::new();
    for (m, lib) in set.modules.iter().zip(modules) {
        let spec = libraries.spec(&m.module)?;
        let results = cuda_stubs::HipResults {
            status: spec.status.as_ref().map(|s| s.enum_name.clone()),
            status_first: spec
                .status
                .as_ref()
                .is_some_and(|s| s.success_for_plain_returns.is_some()),
        };
        libs.push((lib.clone(), results));
    }
    let out = dir.join("stubs/cuda/bindings");
    std::fs::create_dir_all(&out)?;
    for (kind, text) in cuda_stubs::render(set, &libs, &stubs.api, inputs.templates, command)? {
        write_if_changed(out.join(format!("{kind}.pyi")), text)?;
    }
    Ok(())
}

/// Writes `stubs/cuda/NOT_SUPPORTED.md`: per cuda-bindings version, each CUDA function that
/// answers "not supported" here, with why (docs/cuda.md links it).
fn write_not_supported(set: &ir::AliasSet, dir: &Path, command: &str) -> Result<()> {
    let mut text = format!(
        "# CUDA functions HIP cannot run\n\n<!-- Generated by `{command}`; do not edit. -->\n\n\
         Each returns the status named, its outputs None.\n"
    );
    for api in &set.apis {
        text.push_str(&format!(
            "\n## cuda-bindings {}: {} functions\n\n| function | module | returns | why |\n| --- | --- | --- | --- |\n",
            api.version,
            api.stubs.len()
        ));
        let mut stubs: Vec<&ir::Stub> = api.stubs.iter().collect();
        stubs.sort_by(|a, b| (&a.module, &a.cuda).cmp(&(&b.module, &b.cuda)));
        for s in stubs {
            let row = format!(
                "| `{}` | {} | `{}` | {} |\n",
                s.cuda, s.module, s.status, s.why
            );
            text.push_str(&row);
        }
    }
    let out = dir.join("stubs/cuda");
    std::fs::create_dir_all(&out)?;
    write_if_changed(out.join("NOT_SUPPORTED.md"), text)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The CUDA half of a fixture release (`generator/tests/fixtures/cuda`: the demo library,
    /// a HIPIFY-style table and a CUDA header) rendered as the expected files in
    /// `generator/tests/expectations/cuda/` (`HIPGEN_BLESS=1` rewrites them): the alias
    /// tables, the native adapters, the cuda stubs and the manifest, without ROCm or CUDA.
    #[test]
    fn cuda_half_renders_as_expected() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let fixtures = root.join("tests/fixtures");
        let specs = fixtures.join("cuda/specs");
        let release = Release::load(&specs, "0.0.0").unwrap();
        let out = std::env::temp_dir().join(format!("hipgen-cuda-half-{}", std::process::id()));
        let inputs = Inputs {
            include: &fixtures.join("include"),
            cuda_headers: &fixtures.join("cuda"),
            specs: &specs,
            templates: &root.join("../templates"),
        };
        generate(&release, None, &inputs, &out).unwrap();
        let dir = out.join("rocm-0.0.0");
        let expected = root.join("tests/expectations/cuda");
        let mut files = Vec::new();
        for rel in [
            "cuda.rs",
            "cuda_adapters.rs",
            "manifest.json",
            "stubs/cuda/bindings/driver.pyi",
        ] {
            files.push((rel, std::fs::read_to_string(dir.join(rel)).unwrap()));
        }
        std::fs::remove_dir_all(&out).unwrap();
        for (rel, text) in files {
            let path = expected.join(rel.replace('/', "_"));
            if std::env::var_os("HIPGEN_BLESS").is_some() {
                std::fs::create_dir_all(&expected).unwrap();
                std::fs::write(&path, &text).unwrap();
            }
            let want = std::fs::read_to_string(&path).unwrap();
            assert!(
                text == want,
                "{rel} differs from {} (HIPGEN_BLESS=1 rewrites it)",
                path.display()
            );
        }
    }
}
