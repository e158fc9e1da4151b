//! The `.pyi` stubs: a library's Python module (`templates/module.pyi.j2`) and the cuda
//! package's modules (`cuda`).

pub mod cuda;

use crate::model::ModuleModel;
use anyhow::Result;
use minijinja::Environment;

/// The stub of one library's Python module.
pub fn render(env: &Environment<'_>, model: &ModuleModel) -> Result<String> {
    Ok(env
        .get_template("module.pyi.j2")?
        .render(minijinja::context! { m => model })?)
}
