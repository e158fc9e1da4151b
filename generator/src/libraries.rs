//! The library specs of one release and their IRs, handed from stage to stage in memory:
//! a library another imports, or one the cuda package aliases, is parsed when first asked for.

use crate::ir::Library;
use crate::spec::release::SpecFile;
use crate::spec::Spec;
use crate::{bind, parse};
use anyhow::{Context, Result};
use std::collections::HashMap;
use std::path::Path;

/// The library specs of one release and their IRs, each parsed (and bound) once per run.
pub struct Libraries<'a> {
    include: &'a Path,
    pub release: &'a str,
    specs: HashMap<String, Spec>,
    parsed: HashMap<String, Library>,
}

impl<'a> Libraries<'a> {
    /// The library specs of `files` (alias specs have none), none parsed yet.
    pub fn new(files: &[SpecFile], include: &'a Path, release: &'a str) -> Result<Self> {
        let mut specs = HashMap::new();
        for file in files {
            if file.alias_spec()?.is_some() {
                continue;
            }
            for spec in file.library_specs()? {
                specs.insert(spec.name.clone(), spec);
            }
        }
        Ok(Self {
            include,
            release,
            specs,
            parsed: HashMap::new(),
        })
    }

    /// The spec of library `name`.
    pub fn spec(&self, name: &str) -> Result<&Spec> {
        self.specs
            .get(name)
            .with_context(|| format!("release {} has no library spec {name}", self.release))
    }

    /// The Python module of every library (by spec name), so that a stub can import the
    /// types of the libraries its library imports.
    pub fn python_modules(&self) -> HashMap<String, String> {
        self.specs
            .iter()
            .map(|(n, s)| (n.clone(), s.python_module()))
            .collect()
    }

    /// Parses and binds library `name` unless this run has already.
    fn ensure(&mut self, name: &str) -> Result<()> {
        if !self.parsed.contains_key(name) {
            let spec = self.spec(name)?;
            let mut lib = parse::parse_library(spec, self.include, self.release)?;
            bind::apply(spec, &mut lib)?;
            self.parsed.insert(name.to_string(), lib);
        }
        Ok(())
    }

    /// The IR of library `name`.
    pub fn get(&mut self, name: &str) -> Result<&Library> {
        self.ensure(name)?;
        Ok(&self.parsed[name])
    }

    /// The IRs of libraries `names`, in that order.
    pub fn all(&mut self, names: &[String]) -> Result<Vec<Library>> {
        names
            .iter()
            .map(|n| self.get(n).cloned())
            .collect::<Result<_>>()
    }
}
