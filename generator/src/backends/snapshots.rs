//! Snapshot tests of the per-library backends, as rust-bindgen has them: each header of
//! `generator/tests/headers` exercises one feature and carries its own spec, and the PyO3
//! module, `.pyi` stub and `.pxd` the backends render from it, and what the generator left
//! out (`skipped.txt`), are kept beside it, in `generator/tests/headers/<feature>/`. A change
//! of the generator shows as a diff of those files in review; `HIPGEN_BLESS=1 cargo test -p hipgen` rewrites them after a deliberate
//! one, together with the list of modules the `hipgen-expectations` crate compiles.

use super::{pxd, render_library};
use crate::ir::Library;
use crate::spec::Spec;
use anyhow::{bail, Context, Result};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// Opens the comment that holds a header's spec, as YAML, up to the next `*/`.
const SPEC_START: &str = "/* hipgen-spec";

/// The ROCm release the fixtures are parsed as.
const RELEASE: &str = "0.0.0";

/// Fewest fixtures the folder may hold, so that a wrong path or lost headers cannot pass
/// as an empty run: one header per feature the suite was written to cover.
const MIN_FIXTURES: usize = 40;

/// The spec keys a fixture need not write: the header is the library's only header, bound
/// whole, and the package is hip-python, which has a C level (`.pxd`). `{name}` is the
/// header's file stem, also the spec's and Rust module's name.
const DEFAULT_SPEC: &str = "\
kind: library
name: {name}
package: hip-python
headers: ['{name}.h']
bind_files: ['{name}\\.h']
library: {name: {name}, env: {NAME}_LIB, sonames: [lib{name}.so]}
";

/// The files each fixture's outputs are kept in, by backend, in its folder. A backend that
/// renders nothing for a fixture (no `.pxd` outside hip-python, nothing skipped) has no file.
const OUTPUTS: [(&str, &str); 4] = [
    ("pyo3", "module.rs"),
    ("pyi", "module.pyi"),
    ("pxd", "module.pxd"),
    ("skipped", "skipped.txt"),
];

/// `generator/tests/headers`, which holds the fixtures and is their include directory.
fn headers_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/headers")
}

/// The expectations crate's list of the fixtures' modules.
fn headers_rs() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/expectations/src/headers.rs")
}

/// The fixtures' names (the headers' file stems), sorted, so outputs do not depend on the
/// order the file system lists them in.
fn fixtures() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(headers_dir())
        .expect("generator/tests/headers")
        .filter_map(|e| {
            let path = e.ok()?.path();
            let stem = path.file_stem()?.to_str()?.to_string();
            (path.extension()? == "h").then_some(stem)
        })
        .collect();
    names.sort();
    names
}

/// The spec of fixture `name`: the YAML of its header's leading `hipgen-spec` comment, merged
/// over `DEFAULT_SPEC`, read as spec files are (`Spec::from_value`).
fn spec_of(name: &str, header: &str) -> Result<Spec> {
    let Some(rest) = header.trim_start().strip_prefix(SPEC_START) else {
        bail!("{name}.h does not start with a `{SPEC_START}` comment");
    };
    let (own, _) = rest
        .split_once("*/")
        .context("the spec comment is not closed")?;
    let defaults = DEFAULT_SPEC
        .replace("{name}", name)
        .replace("{NAME}", &name.to_ascii_uppercase());
    let mut spec: serde_yaml::Mapping = serde_yaml::from_str(&defaults)?;
    if let Some(own) = serde_yaml::from_str::<Option<serde_yaml::Mapping>>(own)? {
        spec.extend(own);
    }
    let origin = format!("{name}.h");
    let mut specs = Spec::from_value(serde_yaml::Value::Mapping(spec), &origin)?;
    match (specs.pop(), specs.is_empty()) {
        (Some(spec), true) => Ok(spec),
        _ => bail!("{origin}: a fixture describes one module"),
    }
}

/// Fixture `name`'s spec and its library, parsed with the header's folder as include
/// directory and bound.
fn bound(name: &str) -> Result<(Spec, Library)> {
    let dir = headers_dir();
    let spec = spec_of(
        name,
        &std::fs::read_to_string(dir.join(format!("{name}.h")))?,
    )?;
    let mut lib = crate::parse::parse_library(&spec, &dir, RELEASE)?;
    crate::bind::apply(&spec, &mut lib)?;
    Ok((spec, lib))
}

/// The libraries a spec imports (`imports`: other fixtures, by name) and the Python module
/// of each, as `hipgen generate` hands them to the backends.
fn imports_of(spec: &Spec) -> Result<(Vec<Library>, HashMap<String, String>)> {
    let mut libs = Vec::new();
    let mut modules = HashMap::new();
    for name in &spec.imports {
        let (spec, lib) = bound(name).with_context(|| format!("import {name}"))?;
        modules.insert(spec.name.clone(), spec.python_module());
        libs.push(lib);
    }
    Ok((libs, modules))
}

/// What each backend renders for fixture `name`, by file (see `OUTPUTS`): the flow of
/// `hipgen generate` for one library.
fn render(name: &str) -> Result<[String; 4]> {
    let (spec, mut lib) = bound(name)?;
    let (imports, modules) = imports_of(&spec)?;
    let templates = Path::new(env!("CARGO_MANIFEST_DIR")).join("../templates");
    let command = format!("hipgen generate (tests/headers/{name}.h)");
    let rendered = render_library(&lib, &imports, &modules, &spec, &templates, &command)?;
    lib.skipped.extend(rendered.skipped);
    let pxd = match pxd::has_c_level(&spec.package) {
        true => pxd::render(&lib, &imports, &modules, &spec, &templates, &command)?,
        false => String::new(),
    };
    let skipped: String = lib
        .skipped
        .iter()
        .map(|s| format!("{}: {}\n", s.name, s.reason))
        .collect();
    Ok([rendered.code, rendered.stub, pxd, skipped])
}

/// Writes `text` to `path`, or removes the file where `text` is empty (nothing expected).
fn bless_file(path: &Path, text: &str) -> std::io::Result<()> {
    if !text.is_empty() {
        return std::fs::write(path, text);
    }
    match std::fs::remove_file(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e),
        _ => Ok(()),
    }
}

/// How the expected file at `path` (absent: nothing expected) differs from `text`, if it does.
fn difference(path: &Path, text: &str) -> Option<String> {
    let Ok(want) = std::fs::read_to_string(path) else {
        return (!text.is_empty()).then(|| "is missing".to_string());
    };
    if want == text {
        return None;
    }
    if text.is_empty() {
        return Some("holds what is no longer rendered".to_string());
    }
    let (got, want): (Vec<&str>, Vec<&str>) = (text.lines().collect(), want.lines().collect());
    let line = (0..got.len().max(want.len()))
        .find(|&i| got.get(i) != want.get(i))
        .map_or(0, |i| i + 1);
    Some(format!("differs from line {line}"))
}

/// Compares (or, when blessing, writes) one expected file. A failure is described, not
/// panicked on, so that one run reports every fixture; `what` names the output.
fn check_file(what: &str, path: &Path, text: &str, bless: bool) -> Option<String> {
    if bless {
        let failed = bless_file(path, text).err();
        return failed.map(|e| format!("{what}: writing {}: {e}", path.display()));
    }
    let d = difference(path, text)?;
    Some(format!(
        "{what}: {} {d} (HIPGEN_BLESS=1 rewrites it)",
        path.display()
    ))
}

/// Checks (or, when blessing, writes) every output of fixture `name`.
fn check_fixture(name: &str, bless: bool) -> Vec<String> {
    let texts = match render(name) {
        Ok(texts) => texts,
        Err(e) => return vec![format!("{name}: rendering failed: {e:#}")],
    };
    let dir = headers_dir().join(name);
    if bless {
        if let Err(e) = std::fs::create_dir_all(&dir) {
            return vec![format!("{name}: creating {}: {e}", dir.display())];
        }
    }
    OUTPUTS
        .iter()
        .zip(&texts)
        .filter_map(|((backend, file), text)| {
            let what = format!("{name}, {backend} backend");
            check_file(&what, &dir.join(file), text, bless)
        })
        .collect()
}

/// The expectations crate's `headers.rs`: one module per fixture, its expected `module.rs`,
/// so that `cargo check -p hipgen-expectations` compiles what the PyO3 backend renders.
fn headers_rs_text(names: &[String]) -> String {
    let mut out = String::from(
        "//! The expected PyO3 module of each header of `generator/tests/headers`, one module\n\
         //! per header. Written by `HIPGEN_BLESS=1 cargo test -p hipgen` (`backends::snapshots`).\n",
    );
    for name in names {
        out += &format!("\n#[path = \"../../headers/{name}/module.rs\"]\npub mod {name};\n");
    }
    out
}

/// Checks (or writes) `headers.rs` against the fixtures present, and that every folder of
/// expected outputs has its header (a renamed or removed fixture leaves none behind).
fn check_listing(names: &[String], bless: bool) -> Vec<String> {
    let what = "the list of fixtures (it must name exactly the headers present)";
    let listing = check_file(what, &headers_rs(), &headers_rs_text(names), bless);
    let mut failures: Vec<String> = listing.into_iter().collect();
    for entry in std::fs::read_dir(headers_dir()).expect("generator/tests/headers") {
        let path = entry.expect("a folder entry").path();
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        if path.is_dir() && !names.iter().any(|n| n == name) {
            failures.push(format!("{}: expected outputs of no header", path.display()));
        }
    }
    failures
}

/// Every fixture header's outputs against the expected files (`HIPGEN_BLESS=1` rewrites
/// them); failures of all fixtures are reported together.
#[test]
fn feature_headers_render_as_expected() {
    let bless = std::env::var_os("HIPGEN_BLESS").is_some();
    let names = fixtures();
    let mut failures: Vec<String> = names.iter().flat_map(|n| check_fixture(n, bless)).collect();
    failures.extend(check_listing(&names, bless));
    if names.len() < MIN_FIXTURES {
        let found = format!("{} fixture headers", names.len());
        failures.push(format!("{found}, fewer than {MIN_FIXTURES}"));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
