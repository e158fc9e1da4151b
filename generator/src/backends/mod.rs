//! The outputs, each a room rendering the bound model (`crate::model`) or the CUDA plan
//! (`crate::cuda`) through the minijinja templates in `templates/` (`templates`):
//! - `pyo3`: a library's Rust module (PyO3 functions, type table, loader);
//! - `pyi`: the `.pyi` stubs of the Python modules (`cuda` for the cuda package's);
//! - `pxd`: the Cython `.pxd` of a library's C level;
//! - `cuda_adapters`: the CUDA functions cuda-python calls differently from HIP, as native
//!   PyO3 functions;
//! - `cpp_shim`: the NVIDIA shims, C++ exporting HIP's API over CUDA.

pub mod cpp_shim;
pub mod cuda_adapters;
pub mod pxd;
pub mod pyi;
pub mod pyo3;
pub mod templates;

#[cfg(test)]
mod snapshots;

use crate::ir::{Library, Skipped};
use crate::spec::Spec;
use anyhow::Result;
use std::collections::HashMap;
use std::path::Path;

/// What rendering one library gives.
pub struct Rendered {
    /// The Rust module.
    pub code: String,
    /// The `.pyi` stub of its Python module.
    pub stub: String,
    /// Functions left out because a type they pass by value has no definition in the headers.
    pub skipped: Vec<Skipped>,
}

/// Renders the Rust module of one library and its stub from one model. `import_modules`
/// gives the Python module of each imported library (by spec name).
pub fn render_library(
    lib: &Library,
    imports: &[Library],
    import_modules: &HashMap<String, String>,
    spec: &Spec,
    templates: &Path,
    command: &str,
) -> Result<Rendered> {
    let env = templates::environment(templates);
    let (model, skipped) = crate::model::module_model(lib, imports, import_modules, spec, command)?;
    Ok(Rendered {
        code: pyo3::render(&env, &model)?,
        stub: pyi::render(&env, &model)?,
        skipped,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fixture header's generated module and stub, against the expected files in
    /// `generator/tests/expectations/` (`HIPGEN_BLESS=1` rewrites them after a deliberate
    /// change): every kind of argument, result, type-table entry and mirror, without ROCm.
    #[test]
    fn demo_header_renders_as_expected() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let fixtures = root.join("tests/fixtures");
        let spec = Spec::load(&fixtures.join("demo.yaml")).unwrap();
        let mut lib =
            crate::parse::parse_library(&spec, &fixtures.join("include"), "0.0.0").unwrap();
        crate::bind::apply(&spec, &mut lib).unwrap();
        let rendered = render_library(
            &lib,
            &[],
            &HashMap::new(),
            &spec,
            &root.join("../templates"),
            "hipgen generate (demo)",
        )
        .unwrap();
        let expected = root.join("tests/expectations");
        for (file, text) in [("demo.rs", &rendered.code), ("demo.pyi", &rendered.stub)] {
            let path = expected.join(file);
            if std::env::var_os("HIPGEN_BLESS").is_some() {
                std::fs::create_dir_all(&expected).unwrap();
                std::fs::write(&path, text).unwrap();
            }
            let want = std::fs::read_to_string(&path).unwrap();
            assert!(
                *text == want,
                "{file} differs from {} (HIPGEN_BLESS=1 rewrites it)",
                path.display()
            );
        }
    }
}
