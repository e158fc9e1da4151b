//! Release files, `specs/releases/<version>.yaml`: which ROCm release a set of bindings is
//! of, where its headers are, and which library specs it lacks. With the library specs
//! beside them they are all a release needs: every library spec of `specs/` belongs to every
//! release unless the release excludes it, and a release's own folder (`specs/<version>/`)
//! holds overlays, merged key by key over the library spec of the same name.

use super::Spec;
use crate::cuda::aliases::AliasSpec;
use anyhow::{bail, Context, Result};
use serde::Deserialize;
use serde_yaml::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// One release file.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Release {
    /// The ROCm release, e.g. `6.4.3`; also the file's name.
    pub release: String,
    /// Whether the checked-in bindings (`bindings/rocm-<release>`) are of this release;
    /// exactly one release file says so.
    #[serde(default)]
    pub default: bool,
    /// Whether the wheels carry this release's bindings (checked in as
    /// `bindings/rocm-<release>`, one release per ROCm major version); the default always is.
    #[serde(default)]
    pub ship: bool,
    /// Where the headers come from, for people (tools/setup.sh fetches them).
    pub source: String,
    /// Include directory of the headers, relative to the ROCm folder (`.rocm`, or
    /// `$HIPGEN_ROCM_DIR`) unless absolute; `hipgen generate --include` overrides it.
    pub include: PathBuf,
    /// Library specs this release has no headers for.
    #[serde(default)]
    pub exclude: Vec<String>,
    /// The Debian root with this release's runtime that its family's tests run in
    /// (tools/rocm-root.sh builds it, tools/rocm-run.sh runs there), passed on in the manifest.
    #[serde(default)]
    pub runtime: Option<RuntimeRoot>,
    /// The Debian packages holding its headers (and the libraries the symbol checks read),
    /// which tools/setup.sh unpacks into the release's folder (`hipgen releases --headers`);
    /// none where `include` names headers already at hand.
    #[serde(default)]
    pub headers: Option<RuntimeRoot>,
}

/// A Debian root holding one release's runtime: sid, plus the suite the packages come from.
#[derive(Debug, Clone, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct RuntimeRoot {
    /// Debian suite of the packages (`sid`, or `experimental` on top of sid).
    pub suite: String,
    /// Packages installed from it: the runtime, the libraries the tests call, Python.
    pub packages: Vec<String>,
}

impl Release {
    /// Reads `<specs>/releases/<version>.yaml`.
    pub fn load(specs: &Path, version: &str) -> Result<Release> {
        let path = specs.join("releases").join(format!("{version}.yaml"));
        let text = std::fs::read_to_string(&path).with_context(|| {
            format!(
                "reading {}: a release is described by its release file",
                path.display()
            )
        })?;
        let release: Release =
            serde_yaml::from_str(&text).with_context(|| format!("parsing {}", path.display()))?;
        if release.release != version {
            bail!("{} says release {}", path.display(), release.release);
        }
        Ok(release)
    }

    /// Every release file, newest last (by version number).
    pub fn all(specs: &Path) -> Result<Vec<Release>> {
        let dir = specs.join("releases");
        let mut out = Vec::new();
        for entry in
            std::fs::read_dir(&dir).with_context(|| format!("reading {}", dir.display()))?
        {
            let path = entry?.path();
            if let Some(version) = yaml_stem(&path) {
                out.push(Release::load(specs, &version)?);
            }
        }
        out.sort_by_key(|r| version_key(&r.release));
        Ok(out)
    }

    /// Whether the wheels carry this release's bindings.
    pub fn shipped(&self) -> bool {
        self.default || self.ship
    }

    /// The include directory of the headers, under `rocm_dir` when relative.
    pub fn include_dir(&self, rocm_dir: &Path) -> PathBuf {
        rocm_dir.join(&self.include)
    }

    /// The release's library spec files, each after those it imports.
    pub fn spec_files(&self, specs: &Path) -> Result<Vec<SpecFile>> {
        let mut files = BTreeMap::new();
        for entry in
            std::fs::read_dir(specs).with_context(|| format!("reading {}", specs.display()))?
        {
            let path = entry?.path();
            let Some(name) = yaml_stem(&path) else {
                continue;
            };
            if self.exclude.contains(&name) {
                continue;
            }
            let file = SpecFile::read(specs, &name, Some(&self.release))?;
            if file.belongs_to(&self.release)? {
                files.insert(name.clone(), file);
            }
        }
        for name in &self.exclude {
            if !specs.join(format!("{name}.yaml")).exists() {
                bail!(
                    "release {} excludes {name}, which has no spec",
                    self.release
                );
            }
        }
        dependency_order(files, &self.release)
    }
}

/// One library spec as a release sees it: the base file with the release's overlay
/// (`specs/<release>/<name>.yaml`) merged over it, mapping by mapping; a `null` in the overlay
/// removes the key.
#[derive(Debug, Clone)]
pub struct SpecFile {
    /// The file's name: the unit a build selects (`llvm` for every `llvm_*` module).
    pub name: String,
    /// The merged YAML.
    pub value: Value,
    /// The files it came from, for errors.
    pub origin: String,
}

impl SpecFile {
    /// Reads spec `name` of `specs`, with `release`'s overlay if it has one.
    pub fn read(specs: &Path, name: &str, release: Option<&str>) -> Result<SpecFile> {
        let base = specs.join(format!("{name}.yaml"));
        let mut value = read_yaml(&base)?;
        let mut origin = base.display().to_string();
        if let Some(release) = release {
            let overlay = specs.join(release).join(format!("{name}.yaml"));
            if overlay.exists() {
                merge(&mut value, read_yaml(&overlay)?);
                origin = format!("{origin} + {}", overlay.display());
            }
        }
        Ok(SpecFile {
            name: name.to_string(),
            value,
            origin,
        })
    }

    /// Whether the release has this library: a spec's `since: <version>` (for a library
    /// that older releases lack) leaves out the releases before it.
    pub fn belongs_to(&self, release: &str) -> Result<bool> {
        Ok(match self.value.get("since") {
            None => true,
            Some(Value::String(since)) => version_key(release) >= version_key(since),
            Some(other) => bail!("{}: since: {other:?} is not a version", self.origin),
        })
    }

    /// The library specs of the file (several for a family such as `llvm`).
    pub fn library_specs(&self) -> Result<Vec<Spec>> {
        Spec::from_value(self.value.clone(), &self.origin)
    }

    /// The alias spec of the file, or `None` for a library spec.
    pub fn alias_spec(&self) -> Result<Option<AliasSpec>> {
        AliasSpec::from_value(self.value.clone(), &self.origin)
    }

    /// The specs this one needs generated first: a library's `imports`, an alias spec's
    /// `modules`.
    pub fn needs(&self) -> Result<Vec<String>> {
        Ok(match self.alias_spec()? {
            Some(alias) => alias.modules,
            None => {
                // A family's modules import each other: those are not needs of the file.
                let specs = self.library_specs()?;
                let own: BTreeSet<&str> = specs.iter().map(|s| s.name.as_str()).collect();
                specs
                    .iter()
                    .flat_map(|s| &s.imports)
                    .filter(|i| !own.contains(i.as_str()))
                    .cloned()
                    .collect::<BTreeSet<_>>()
                    .into_iter()
                    .collect()
            }
        })
    }
}

/// Reads a YAML file.
pub fn read_yaml(path: &Path) -> Result<Value> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    serde_yaml::from_str(&text).with_context(|| format!("parsing {}", path.display()))
}

/// Merges `overlay` over `base`: mappings key by key, anything else replaced; `null` removes.
fn merge(base: &mut Value, overlay: Value) {
    match (base, overlay) {
        (Value::Mapping(b), Value::Mapping(o)) => {
            for (k, v) in o {
                if v.is_null() {
                    b.remove(&k);
                } else if let Some(slot) = b.get_mut(&k) {
                    merge(slot, v);
                } else {
                    b.insert(k, v);
                }
            }
        }
        (b, o) => *b = o,
    }
}

/// The stem of a `.yaml` file.
fn yaml_stem(path: &Path) -> Option<String> {
    (path.extension()? == "yaml").then(|| path.file_stem()?.to_str().map(str::to_string))?
}

/// `6.4.3` as numbers, so that 10.0 sorts after 6.4.
fn version_key(v: &str) -> Vec<u64> {
    v.split('.').map(|p| p.parse().unwrap_or(0)).collect()
}

/// The files ordered so that each comes after those it needs (by name among equals).
fn dependency_order(files: BTreeMap<String, SpecFile>, release: &str) -> Result<Vec<SpecFile>> {
    let mut needs = BTreeMap::new();
    for (name, file) in &files {
        let wanted = file.needs()?;
        if let Some(need) = wanted.iter().find(|n| !files.contains_key(*n)) {
            bail!("{name} needs {need}, which release {release} does not have");
        }
        needs.insert(name.clone(), wanted);
    }
    let mut order: Vec<String> = Vec::new();
    fn visit(
        name: &str,
        needs: &BTreeMap<String, Vec<String>>,
        order: &mut Vec<String>,
        path: &mut Vec<String>,
    ) -> Result<()> {
        if order.iter().any(|n| n == name) {
            return Ok(());
        }
        if path.iter().any(|n| n == name) {
            bail!("specs need each other: {} -> {name}", path.join(" -> "));
        }
        path.push(name.to_string());
        for need in &needs[name] {
            visit(need, needs, order, path)?;
        }
        path.pop();
        order.push(name.to_string());
        Ok(())
    }
    for name in needs.keys() {
        visit(name, &needs, &mut order, &mut Vec::new())?;
    }
    let mut files = files;
    Ok(order
        .into_iter()
        .map(|n| files.remove(&n).expect("every name has a file"))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn yaml(s: &str) -> Value {
        serde_yaml::from_str(s).unwrap()
    }

    #[test]
    fn an_overlay_merges_mappings_and_null_removes() {
        let mut base = yaml("a: 1\nlib: {name: x, nvidia: {shim: y}}\nlist: [1, 2]\n");
        merge(&mut base, yaml("lib: {nvidia: null}\nlist: [3]\nb: 2\n"));
        assert_eq!(base, yaml("a: 1\nlib: {name: x}\nlist: [3]\nb: 2\n"));
    }

    #[test]
    fn since_leaves_out_older_releases() {
        let (_, f) = file("x", "since: '7.0'\nkind: library\n");
        assert!(!f.belongs_to("6.4.3").unwrap());
        assert!(f.belongs_to("7.0").unwrap() && f.belongs_to("10.0.1").unwrap());
        let (_, g) = file("y", "kind: library\n");
        assert!(g.belongs_to("5.2.3").unwrap());
    }

    #[test]
    fn versions_sort_by_number() {
        let mut v = vec!["10.0.0", "6.4.3", "5.7.1"];
        v.sort_by_key(|s| version_key(s));
        assert_eq!(v, ["5.7.1", "6.4.3", "10.0.0"]);
    }

    fn file(name: &str, text: &str) -> (String, SpecFile) {
        let value = yaml(text);
        let origin = name.to_string();
        let name = name.to_string();
        (
            name.clone(),
            SpecFile {
                name,
                value,
                origin,
            },
        )
    }

    fn lib(name: &str, imports: &str) -> (String, SpecFile) {
        file(
            name,
            &format!(
                "kind: library\nname: {name}\npackage: p\nheaders: []\nbind_files: []\n\
                 library: {{name: {name}, env: E, sonames: []}}\nimports: [{imports}]\n"
            ),
        )
    }

    #[test]
    fn specs_come_after_those_they_need() {
        let files = BTreeMap::from([lib("b", "hip"), lib("hip", ""), lib("a", "")]);
        let order: Vec<String> = dependency_order(files, "1")
            .unwrap()
            .into_iter()
            .map(|f| f.name)
            .collect();
        assert_eq!(order, ["a", "hip", "b"]);
    }

    #[test]
    fn a_missing_or_circular_need_is_an_error() {
        let missing = BTreeMap::from([lib("b", "hip")]);
        let e = dependency_order(missing, "1").unwrap_err().to_string();
        assert!(e.contains("b needs hip"), "{e}");
        let circular = BTreeMap::from([lib("a", "b"), lib("b", "a")]);
        let e = dependency_order(circular, "1").unwrap_err().to_string();
        assert!(e.contains("need each other"), "{e}");
    }
}

#[cfg(test)]
mod the_release_files {
    use super::*;

    fn specs() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("specs")
    }

    #[test]
    fn exactly_one_is_the_default_and_each_orders_its_specs() {
        let releases = Release::all(&specs()).unwrap();
        assert_eq!(releases.iter().filter(|r| r.default).count(), 1);
        for r in &releases {
            let files = r.spec_files(&specs()).unwrap();
            let names: Vec<&str> = files.iter().map(|f| f.name.as_str()).collect();
            for (i, f) in files.iter().enumerate() {
                for need in f.needs().unwrap() {
                    assert!(
                        names[..i].contains(&need.as_str()),
                        "{}: {need} after {}",
                        r.release,
                        f.name
                    );
                }
            }
        }
    }
}
