//! Snapshot tests of the CUDA adapters, as rust-bindgen tests its output: each adapter shape
//! has a fixture of its own in `generator/tests/adapters/<shape>/` (a HIP header `hip.h`, a
//! CUDA header `cuda.h`, a HIPIFY-style table `hipify-perl`, and, where the shape needs a
//! rule of its own, a `demo.yaml` or `cuda.yaml` merged over the shared specs of `_specs/`),
//! run through `generate` as a release is, with the `cuda_adapters.rs` it renders kept beside
//! them. `HIPGEN_BLESS=1 cargo test -p hipgen` rewrites those files and the list of them that
//! `hipgen-expectations` compiles (`generator/tests/expectations/src/adapters.rs`).

use crate::generate::{generate, Inputs};
use crate::spec::release::Release;
use anyhow::{Context, Result};
use std::path::{Path, PathBuf};

/// The release of the shared specs (`_specs/releases/0.0.0.yaml`).
const RELEASE: &str = "0.0.0";
/// The file each fixture expects, as `generate` names it.
const EXPECTED: &str = "cuda_adapters.rs";
/// The expectations crate's module listing every fixture's expected adapters.
const EXPECTATIONS_LIST: &str = "tests/expectations/src/adapters.rs";
/// Spec files a fixture may hold: merged over the shared ones of the same name.
const OVERLAYS: [&str; 2] = ["demo.yaml", "cuda.yaml"];

/// The generator's crate folder.
fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The fixture folders, by name: every folder of `tests/adapters` but `_specs`.
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

/// A specs folder for `fixture` in `tmp`: the shared specs, and the fixture's own spec files
/// as the release's overlays (`<release>/<name>.yaml`), which the generator merges key by key
/// over the shared ones, as it does a release folder's.
fn specs_for(fixture: &Path, tmp: &Path) -> Result<PathBuf> {
    let shared = root().join("tests/adapters/_specs");
    let specs = tmp.join("specs");
    let overlays = specs.join(RELEASE);
    std::fs::create_dir_all(specs.join("releases"))?;
    std::fs::create_dir_all(&overlays)?;
    let release = format!("releases/{RELEASE}.yaml");
    std::fs::copy(shared.join(&release), specs.join(&release))?;
    for name in OVERLAYS {
        std::fs::copy(shared.join(name), specs.join(name))?;
        if fixture.join(name).exists() {
            std::fs::copy(fixture.join(name), overlays.join(name))?;
        }
    }
    Ok(specs)
}

/// The adapters `generate` renders for `fixture` (its folder is both the HIP include folder
/// and the CUDA headers' folder), in a temp folder removed after.
fn render(name: &str, fixture: &Path) -> Result<String> {
    let tmp = std::env::temp_dir().join(format!("hipgen-adapters-{}-{name}", std::process::id()));
    let run = || -> Result<String> {
        let specs = specs_for(fixture, &tmp)?;
        let release = Release::load(&specs, RELEASE)?;
        let inputs = Inputs {
            include: fixture,
            cuda_headers: fixture,
            specs: &specs,
            templates: &root().join("../templates"),
        };
        let out = tmp.join("out");
        generate(&release, None, &inputs, &out)?;
        let path = out.join(format!("rocm-{RELEASE}")).join(EXPECTED);
        std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))
    };
    let text = run();
    let _ = std::fs::remove_dir_all(&tmp);
    text
}

/// `generator/tests/expectations/src/adapters.rs`: each fixture's expected adapters as a
/// module of `hipgen-expectations`, which compiles them against its `demo` module.
fn expectations_list(names: &[&str]) -> String {
    let mut out = String::from(
        "//! Written by `HIPGEN_BLESS=1 cargo test -p hipgen` (backends::cuda_adapters::snapshots):\n\
         //! the expected adapters of each fixture of `generator/tests/adapters`, one module each.\n\
         //! Every fixture's HIP library is `demo`: its adapters (`use crate::demo::*`) compile\n\
         //! against this crate's demo module.\n",
    );
    for name in names {
        out += &format!(
            "\n#[rustfmt::skip]\n#[path = \"../../adapters/{name}/{EXPECTED}\"]\npub mod {name};\n"
        );
    }
    out
}

/// Compares `text` with the expected file `path` (writes it when blessing), adding to
/// `failures` the file, how it is wrong (`what`) and the first line that differs.
fn check(path: &Path, what: &str, text: &str, bless: bool, failures: &mut Vec<String>) {
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
            "{shown}: {what}, from line {} (HIPGEN_BLESS=1 rewrites it)",
            line + 1
        ));
    }
}

/// Every fixture of `generator/tests/adapters` renders the adapters beside it, and the
/// expectations crate lists exactly those (`HIPGEN_BLESS=1` rewrites both). All mismatches are
/// reported together.
#[test]
fn adapters_render_as_expected() {
    let bless = std::env::var_os("HIPGEN_BLESS").is_some();
    let fixtures = fixtures(&root().join("tests/adapters"));
    let mut failures = Vec::new();
    for (name, dir) in &fixtures {
        // The name is a module's of the expectations crate.
        if !name
            .bytes()
            .all(|c| matches!(c, b'a'..=b'z' | b'0'..=b'9' | b'_'))
        {
            failures.push(format!("{name}: not a snake_case name (a Rust module's)"));
            continue;
        }
        match render(name, dir) {
            Ok(text) => {
                let what = "not what the generator renders";
                check(&dir.join(EXPECTED), what, &text, bless, &mut failures);
            }
            Err(e) => failures.push(format!("{name}: generate failed: {e:#}")),
        }
    }
    let names: Vec<&str> = fixtures.iter().map(|(n, _)| n.as_str()).collect();
    let (list, text) = (EXPECTATIONS_LIST, expectations_list(&names));
    let what = "does not list exactly the fixtures of tests/adapters";
    check(&root().join(list), what, &text, bless, &mut failures);
    assert!(
        failures.is_empty(),
        "{} adapter snapshot mismatches ({} fixtures):\n{}",
        failures.len(),
        fixtures.len(),
        failures.join("\n")
    );
}
