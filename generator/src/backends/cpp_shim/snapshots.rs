//! Snapshot tests of the NVIDIA shims over CUDA (`over_cuda`), as the CUDA adapters' are:
//! each shape has a fixture of its own in `generator/tests/shims/<shape>/` (a HIP header
//! `hip.h`, a CUDA header `cuda.h`, a HIPIFY-style table `hipify-perl`, and, where the shape
//! needs a rule of its own, a `hip.yaml` merged over `_specs/hip.yaml`), with the C++ source
//! the generator renders kept beside it as `shim.cpp`. `HIPGEN_BLESS=1 cargo test -p hipgen`
//! rewrites those files.

use super::over_cuda::{generate, ShimFiles};
use crate::spec::release::SpecFile;
use anyhow::{Context, Result};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The release the fixture's spec overlay is of (`<specs>/0.0.0/hip.yaml`).
const RELEASE: &str = "0.0.0";
/// The file each fixture expects.
const EXPECTED: &str = "shim.cpp";

/// The generator's crate folder.
fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The fixture folders, by name: every folder of `tests/shims` but `_specs`.
fn fixtures(dir: &Path) -> Vec<(String, PathBuf)> {
    let mut out: Vec<(String, PathBuf)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .map(|p| (p.file_name().unwrap().to_string_lossy().into_owned(), p))
        .filter(|(name, _)| !name.starts_with('_'))
        .collect();
    out.sort();
    out
}

/// The library spec of `fixture`: `_specs/hip.yaml` with the fixture's own `hip.yaml` merged
/// over it as a release overlay (by the generator's own merge, in a specs folder in `tmp`),
/// named after the fixture (so that the shim's temporary source is the fixture's own).
fn spec_for(name: &str, fixture: &Path, tmp: &Path) -> Result<crate::spec::Spec> {
    let specs = tmp.join("specs");
    std::fs::create_dir_all(specs.join(RELEASE))?;
    std::fs::copy(
        root().join("tests/shims/_specs/hip.yaml"),
        specs.join("hip.yaml"),
    )?;
    if fixture.join("hip.yaml").exists() {
        std::fs::copy(
            fixture.join("hip.yaml"),
            specs.join(RELEASE).join("hip.yaml"),
        )?;
    }
    let mut spec = SpecFile::read(&specs, "hip", Some(RELEASE))?
        .library_specs()?
        .remove(0);
    spec.name = name.to_string();
    Ok(spec)
}

/// The shim `over_cuda::generate` renders for `fixture` (its folder is both the HIP include
/// folder and the CUDA headers' folder), as `hipgen cuda-shim` writes it.
fn render(name: &str, fixture: &Path) -> Result<String> {
    let tmp = std::env::temp_dir().join(format!("hipgen-shims-{}-{name}", std::process::id()));
    let run = || -> Result<String> {
        let spec = spec_for(name, fixture, &tmp)?;
        let mut lib = crate::parse::parse_library(&spec, fixture, RELEASE)?;
        crate::bind::apply(&spec, &mut lib)?;
        let cuda = spec.library.nvidia.as_ref().and_then(|n| n.cuda.as_ref());
        let cuda = cuda.context("the spec has no library.nvidia.cuda")?;
        let status = &spec.status.as_ref().context("the spec has no status")?;
        let hipify = std::fs::read_to_string(fixture.join("hipify-perl"))?;
        let table = crate::cuda::aliases::read_hipify(&hipify, &["simpleSubstitutions".into()])?;
        let includes = [fixture.to_path_buf()];
        let files = ShimFiles {
            cuda_includes: &includes,
            templates: &root().join("../templates"),
        };
        let none = BTreeSet::new();
        let shim = generate(&lib, &[], cuda, &status.enum_name, &table, &none, &files)?;
        Ok(shim.source)
    };
    let text = run();
    let _ = std::fs::remove_dir_all(&tmp);
    text
}

/// Compares `text` with the expected file `path` (writes it when blessing), adding to
/// `failures` the file and the first line that differs.
fn check(path: &Path, text: &str, bless: bool, failures: &mut Vec<String>) {
    if bless {
        std::fs::write(path, text).unwrap();
        return;
    }
    let shown = path.strip_prefix(root()).unwrap_or(path).display();
    let Ok(want) = std::fs::read_to_string(path) else {
        failures.push(format!("{shown}: missing (HIPGEN_BLESS=1 writes it)"));
        return;
    };
    if want != text {
        let line = want
            .lines()
            .zip(text.lines())
            .position(|(a, b)| a != b)
            .unwrap_or_else(|| want.lines().count().min(text.lines().count()));
        failures.push(format!(
            "{shown}: not what the generator renders, from line {} (HIPGEN_BLESS=1 rewrites it)",
            line + 1
        ));
    }
}

/// Every fixture of `generator/tests/shims` renders the shim beside it (`HIPGEN_BLESS=1`
/// rewrites them); all mismatches are reported together.
#[test]
fn shims_render_as_expected() {
    let bless = std::env::var_os("HIPGEN_BLESS").is_some();
    let fixtures = fixtures(&root().join("tests/shims"));
    let mut failures = Vec::new();
    for (name, dir) in &fixtures {
        match render(name, dir) {
            Ok(text) => check(&dir.join(EXPECTED), &text, bless, &mut failures),
            Err(e) => failures.push(format!("{name}: generate failed: {e:#}")),
        }
    }
    assert!(
        failures.is_empty(),
        "{} shim snapshot mismatches ({} fixtures):\n{}",
        failures.len(),
        fixtures.len(),
        failures.join("\n")
    );
}
