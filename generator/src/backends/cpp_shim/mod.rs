//! The NVIDIA shims: C++ sources that export HIP's API (and the math libraries') over CUDA,
//! so that the bindings run on NVIDIA GPUs.
//!
//! - `detail`: HIP's functions from the `static inline` implementations of HIP's
//!   `nvidia_detail` headers (`hipgen shim`);
//! - `abi`: whether such an implementation, from an older release, serves a newer one;
//! - `over_cuda`: a library's functions over its CUDA counterpart's API, joined by HIPIFY's
//!   table (`hipgen cuda-shim`: what the NVIDIA headers lack, CUDA 13's shim, hipBLAS over
//!   cuBLAS, ...).

pub mod abi;
pub mod detail;
pub mod over_cuda;
#[cfg(test)]
mod snapshots;

use crate::cuda::aliases;
use crate::{ir, ir_file, spec};
use anyhow::{Context, Result};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Writes the `nvidia_detail` shim to `out` (and the symbols it exports to `exported`).
pub fn write_detail(
    include: &Path,
    cuda_includes: &[PathBuf],
    irs: &[PathBuf],
    detail_irs: &[PathBuf],
    specs: &Path,
    out: &Path,
    exported: Option<&Path>,
) -> Result<()> {
    let read = |paths: &[PathBuf]| {
        paths
            .iter()
            .map(|p| ir_file::read::<ir::Library>(p))
            .collect::<Result<Vec<_>>>()
    };
    let libs = read(irs)?;
    // A function the spec's fill `prefer`s a CUDA function for goes over that function in
    // both shims: HIP's NVIDIA headers choose their own (`hipDeviceGetAttribute` over the
    // runtime's attributes, which cannot take the cuda package's own CUDA members).
    let mut to_fill = BTreeSet::new();
    for lib in &libs {
        let path = specs.join(format!("{}.yaml", lib.name));
        if !path.exists() {
            continue;
        }
        let spec = spec::Spec::load(&path)?;
        if let Some(fill) = spec.library.nvidia.as_ref().and_then(|n| n.fill.as_ref()) {
            to_fill.extend(fill.prefer.keys().cloned());
        }
    }
    let shim = detail::generate(include, cuda_includes, &libs, &read(detail_irs)?, &to_fill)?;
    let mut text = shim.source;
    text.push_str(&format!(
        "\n// Not exported ({}): calls raise \"not available on this platform\".\n",
        shim.left_out.len()
    ));
    for (name, why) in &shim.left_out {
        text.push_str(&format!("//   {name}: {why}\n"));
    }
    std::fs::write(out, text)?;
    if let Some(path) = exported {
        let mut list = shim.symbols.join("\n");
        list.push('\n');
        std::fs::write(path, list)?;
    }
    eprintln!(
        "shim: {} functions exported, {} left out -> {}",
        shim.exported.len(),
        shim.left_out.len(),
        out.display()
    );
    Ok(())
}

/// Where `hipgen cuda-shim` reads from.
pub struct ShimPaths<'a> {
    pub include: &'a Path,
    pub cuda_includes: &'a [PathBuf],
    pub specs: &'a Path,
    pub hipify: Option<&'a Path>,
    pub templates: &'a Path,
}

/// Writes the NVIDIA shim of one library over its CUDA counterpart (`hipgen cuda-shim`),
/// leaving out the functions `exclude_from` names (another shim exports them).
pub fn write_over_cuda(
    spec_path: &Path,
    irs: &[PathBuf],
    paths: &ShimPaths<'_>,
    exclude_from: Option<&Path>,
    out: &Path,
) -> Result<()> {
    let exclude: BTreeSet<String> = match exclude_from {
        Some(p) => std::fs::read_to_string(p)
            .with_context(|| format!("reading {}", p.display()))?
            .lines()
            .map(|l| l.trim().to_string())
            .filter(|l| !l.is_empty())
            .collect(),
        None => BTreeSet::new(),
    };
    let spec = spec::Spec::load(spec_path)?;
    let cuda = spec
        .library
        .nvidia
        .as_ref()
        .and_then(|n| n.cuda.as_ref().or(n.fill.as_ref()))
        .with_context(|| {
            format!(
                "{}: no library.nvidia.cuda or library.nvidia.fill",
                spec_path.display()
            )
        })?;
    let status_enum = match (&cuda.status.enum_name, &spec.status) {
        (Some(name), _) => name.clone(),
        (None, Some(status)) => status.enum_name.clone(),
        (None, None) => anyhow::bail!("{}: no status enum", spec_path.display()),
    };
    let mut libs = irs
        .iter()
        .map(|p| ir_file::read::<ir::Library>(p))
        .collect::<Result<Vec<_>>>()?;
    let Some(at) = libs.iter().position(|l| l.name == spec.name) else {
        anyhow::bail!("no IR of {} among --ir", spec.name);
    };
    let lib = libs.remove(at);
    // HIPIFY's table, as the CUDA alias spec reads it.
    let alias = aliases::AliasSpec::load(&paths.specs.join("cuda.yaml"))?
        .context("generator/specs/cuda.yaml is not an alias spec")?;
    let table_path = match paths.hipify {
        Some(p) => p.to_path_buf(),
        None => paths.include.join(&alias.mapping.path),
    };
    let text = std::fs::read_to_string(&table_path)
        .with_context(|| format!("reading HIPIFY's table {}", table_path.display()))?;
    let table = aliases::read_hipify(&text, &alias.mapping.sections)?;
    let shim = over_cuda::generate(
        &lib,
        &libs,
        cuda,
        &status_enum,
        &table,
        &exclude,
        &over_cuda::ShimFiles {
            cuda_includes: paths.cuda_includes,
            templates: paths.templates,
        },
    )?;
    std::fs::write(out, &shim.source)?;
    eprintln!(
        "{}: {} functions exported over {}, {} left out -> {}",
        lib.name,
        shim.exported.len(),
        cuda.headers.join("/"),
        shim.left_out.len(),
        out.display()
    );
    Ok(())
}
