//! A library's Rust module: its PyO3 functions, type table, mirrors and loader, spelled by
//! `templates/module.rs.j2` (and `rust.j2`, the macros that spell each model item).

use crate::model::ModuleModel;
use anyhow::Result;
use minijinja::Environment;

/// The Rust source of one library's module.
pub fn render(env: &Environment<'_>, model: &ModuleModel) -> Result<String> {
    Ok(env
        .get_template("module.rs.j2")?
        .render(minijinja::context! { m => model })?)
}
