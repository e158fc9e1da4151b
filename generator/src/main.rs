//! hipgen: reads ROCm C headers through libclang and renders PyO3 modules from them.

mod abi;
mod aliases;
mod bind;
mod clang;
mod conventions;
mod cuda_adapters;
mod cuda_shim;
mod cuda_stubs;
mod cuda_types;
mod diff;
mod docstring;
mod ir;
mod ir_file;
mod macros;
mod manifest;
mod names;
mod parse;
mod render;
mod reshape;
mod shim;
mod spec;
mod stubs;
mod templates;

use anyhow::{Context, Result};
use clap::{Parser, Subcommand};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Command line of hipgen.
#[derive(Parser)]
#[command(
    version,
    about = "Generate Python bindings for ROCm libraries from their headers"
)]
struct Cli {
    /// What to do.
    #[command(subcommand)]
    command: Command,
}

/// hipgen's subcommands.
#[derive(Subcommand)]
enum Command {
    /// List the release files: one line per release, oldest first, `<release> default` for
    /// the release of the checked-in bindings.
    Releases {
        /// Folder of the spec files.
        #[arg(long, default_value = "generator/specs")]
        specs: PathBuf,
        /// Print `<release> <Debian suite> <packages>...` of each release's headers instead
        /// (what tools/setup.sh unpacks).
        #[arg(long)]
        headers: bool,
    },
    /// Print the IR of one library as JSON or YAML.
    Ir {
        /// The library's spec.
        #[arg(long)]
        spec: PathBuf,
        /// Include directory holding the ROCm headers (e.g. /opt/rocm/include).
        #[arg(long)]
        include: PathBuf,
        /// ROCm release the headers belong to.
        #[arg(long)]
        release: String,
        /// `json` or `yaml`.
        #[arg(long, default_value = "yaml")]
        format: String,
        /// Only what the headers say: no spec decision (parameter usage, GIL, locks, field
        /// defaults) applied, so that two releases' IRs differ by their headers alone.
        #[arg(long)]
        facts: bool,
    },
    /// Write the generated Rust modules and IR of a release's libraries, and its manifest.
    Generate {
        /// ROCm release the headers belong to: names its release file
        /// (`<specs>/releases/<release>.yaml`) and the output folder.
        #[arg(long)]
        release: String,
        /// Include directory holding the ROCm headers (default: the release file's, under
        /// `--rocm-dir`).
        #[arg(long)]
        include: Option<PathBuf>,
        /// Folder of the unpacked releases the release files' `include` is relative to.
        #[arg(long, env = "HIPGEN_ROCM_DIR", default_value = ".rocm")]
        rocm_dir: PathBuf,
        /// Comma-separated spec names (default: every library of the release).
        #[arg(long)]
        libs: Option<String>,
        /// Folder of CUDA's headers, as tools/cuda_headers.py unpacks them (the CUDA alias
        /// spec reads cuda-python's conventions there).
        #[arg(long, env = "HIPGEN_CUDA_DIR", default_value = ".cuda")]
        cuda_headers: PathBuf,
        /// Folder of the spec files.
        #[arg(long, default_value = "generator/specs")]
        specs: PathBuf,
        /// Folder of the templates.
        #[arg(long, default_value = "templates")]
        templates: PathBuf,
        /// Output root; files go to `<out>/rocm-<release>/`.
        #[arg(long, default_value = "bindings")]
        out: PathBuf,
    },
    /// Write the NVIDIA shim: a C++ source exporting the bindings' HIP functions over CUDA,
    /// from HIP's nvidia_detail headers (only wrappers that compile).
    Shim {
        /// Include directory holding HIP's headers (with hip/nvidia_detail).
        #[arg(long)]
        include: PathBuf,
        /// CUDA 12 include directories (repeat the option).
        #[arg(long = "cuda-include")]
        cuda_includes: Vec<PathBuf>,
        /// IRs of the bindings whose functions are exported (hip, hiprtc).
        #[arg(long = "ir")]
        irs: Vec<PathBuf>,
        /// IRs of the release whose nvidia_detail headers `--include` holds, when the
        /// bindings are of another: only functions of the same ABI there are exported.
        #[arg(long = "detail-ir")]
        detail_irs: Vec<PathBuf>,
        /// The C++ file to write.
        #[arg(long)]
        out: PathBuf,
        /// Where to write the symbols the shim exports, one per line (what `cuda-shim
        /// --exclude-from` reads).
        #[arg(long)]
        exported: Option<PathBuf>,
    },
    /// Write the NVIDIA shim of a marshalling library (hipBLAS over cuBLAS, ...): a C++
    /// source exporting the library's functions over the CUDA library its spec names, joined
    /// by HIPIFY's table (only wrappers that compile).
    CudaShim {
        /// The library's spec (its `library.nvidia.cuda` names the CUDA library, or
        /// `library.nvidia.fill` for what HIP's NVIDIA headers lack).
        #[arg(long)]
        spec: PathBuf,
        /// A file naming functions (one per line) another shim source exports already.
        #[arg(long)]
        exclude_from: Option<PathBuf>,
        /// The library's IR (JSON, as written by `generate`), and those it imports.
        #[arg(long = "ir")]
        irs: Vec<PathBuf>,
        /// Include directory holding the ROCm headers (and `../bin/hipify-perl`).
        #[arg(long)]
        include: PathBuf,
        /// CUDA include directories (repeat the option).
        #[arg(long = "cuda-include")]
        cuda_includes: Vec<PathBuf>,
        /// Folder of the spec files (the CUDA alias spec names HIPIFY's table).
        #[arg(long, default_value = "generator/specs")]
        specs: PathBuf,
        /// HIPIFY's `hipify-perl` to read instead of the one beside `--include` (a newer
        /// release's table maps more: 5.7's has no hipSOLVER).
        #[arg(long)]
        hipify: Option<PathBuf>,
        /// Folder of the templates.
        #[arg(long, default_value = "templates")]
        templates: PathBuf,
        /// The C++ file to write.
        #[arg(long)]
        out: PathBuf,
    },
    /// List functions, enums and struct fields added, removed or changed between two IRs.
    Diff {
        /// The older IR (JSON, as written by `generate`).
        old: PathBuf,
        /// The newer IR.
        new: PathBuf,
    },
    /// Report how cuda-python's calling conventions differ between two cuda-bindings
    /// versions in the CUDA alias IR (`--old 12 --new 13`), or, given `--against`, between
    /// the same version in two alias IRs (two ROCm releases).
    DiffApis {
        /// The CUDA alias IR (`bindings/rocm-<release>/cuda.ir.json.gz`).
        ir: PathBuf,
        /// The older cuda-bindings major version.
        #[arg(long)]
        old: String,
        /// The newer one.
        #[arg(long)]
        new: String,
        /// A second alias IR holding `--new` (default: the same IR).
        #[arg(long)]
        against: Option<PathBuf>,
    },
}

fn main() -> Result<()> {
    match Cli::parse().command {
        Command::Releases { specs, headers } => {
            for r in spec::release::Release::all(&specs)? {
                if headers {
                    if let Some(h) = &r.headers {
                        println!("{} {} {}", r.release, h.suite, h.packages.join(" "));
                    }
                } else {
                    println!("{}{}", r.release, if r.default { " default" } else { "" });
                }
            }
        }
        Command::Ir {
            spec,
            include,
            release,
            format,
            facts,
        } => {
            let spec = spec::Spec::load(&spec)?;
            let mut lib = parse::parse_library(&spec, &include, &release)?;
            if !facts {
                bind::apply(&spec, &mut lib)?;
            }
            let text = if format == "json" {
                serde_json::to_string_pretty(&lib)?
            } else {
                serde_yaml::to_string(&lib)?
            };
            println!("{text}");
        }
        Command::Generate {
            release,
            include,
            rocm_dir,
            libs,
            cuda_headers,
            specs,
            templates,
            out,
        } => {
            let release = spec::release::Release::load(&specs, &release)?;
            let include = include.unwrap_or_else(|| release.include_dir(&rocm_dir));
            let inputs = Inputs {
                include: &include,
                cuda_headers: &cuda_headers,
                specs: &specs,
                templates: &templates,
            };
            generate(&release, libs.as_deref(), &inputs, &out)?
        }
        Command::Shim {
            include,
            cuda_includes,
            irs,
            detail_irs,
            out,
            exported,
        } => {
            let read = |paths: &[PathBuf]| {
                paths
                    .iter()
                    .map(|p| ir_file::read::<ir::Library>(p))
                    .collect::<Result<Vec<_>>>()
            };
            let shim = shim::generate(&include, &cuda_includes, &read(&irs)?, &read(&detail_irs)?)?;
            let mut text = shim.source;
            text.push_str(&format!(
                "\n// Not exported ({}): calls raise \"not available on this platform\".\n",
                shim.left_out.len()
            ));
            for (name, why) in &shim.left_out {
                text.push_str(&format!("//   {name}: {why}\n"));
            }
            std::fs::write(&out, text)?;
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
        }
        Command::CudaShim {
            spec,
            exclude_from,
            irs,
            include,
            cuda_includes,
            specs,
            hipify,
            templates,
            out,
        } => {
            let paths = ShimPaths {
                include: &include,
                cuda_includes: &cuda_includes,
                specs: &specs,
                hipify: hipify.as_deref(),
                templates: &templates,
            };
            let exclude: BTreeSet<String> = match exclude_from {
                Some(p) => std::fs::read_to_string(&p)
                    .with_context(|| format!("reading {}", p.display()))?
                    .lines()
                    .map(|l| l.trim().to_string())
                    .filter(|l| !l.is_empty())
                    .collect(),
                None => BTreeSet::new(),
            };
            cuda_shim(&spec, &irs, &paths, &exclude, &out)?
        }
        Command::DiffApis {
            ir,
            old,
            new,
            against,
        } => {
            let read = |p: &Path| -> Result<ir::AliasSet> { ir_file::read(p) };
            let first = read(&ir)?;
            let second = match &against {
                Some(p) => read(p)?,
                None => first.clone(),
            };
            let pick = |set: &ir::AliasSet, v: &str| -> Result<ir::ApiConventions> {
                set.apis
                    .iter()
                    .find(|a| a.version == v)
                    .cloned()
                    .with_context(|| format!("no cuda-bindings {v} conventions in the IR"))
            };
            print!(
                "{}",
                diff::diff_conventions(&pick(&first, &old)?, &pick(&second, &new)?)
            );
        }
        Command::Diff { old, new } => {
            let read = |p: &Path| -> Result<serde_json::Value> { ir_file::read(p) };
            let (a, b) = (read(&old)?, read(&new)?);
            // Alias IRs (CUDA names) have `modules`; library IRs have `functions`.
            if a.get("modules").is_some() && b.get("modules").is_some() {
                let (a, b) = (serde_json::from_value(a)?, serde_json::from_value(b)?);
                print!("{}", diff::diff_aliases(&a, &b));
            } else {
                let (a, b) = (serde_json::from_value(a)?, serde_json::from_value(b)?);
                print!("{}", diff::diff(&a, &b));
            }
        }
    }
    Ok(())
}

/// Parses and renders the release's libraries (those of `libs`, or all), writing `<lib>.rs`
/// and `<lib>.ir.json.gz` of each, and the release's manifest.
fn generate(
    release: &spec::release::Release,
    libs: Option<&str>,
    inputs: &Inputs,
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
    let modules = python_modules(&files)?;
    for file in &files {
        let name = &file.name;
        if wanted.as_ref().is_some_and(|w| !w.contains(&name.as_str())) {
            continue;
        }
        let command = format!(
            "hipgen generate --release {version} --libs {name} (or ./build_pkgs.sh --regenerate)"
        );
        if let Some(alias_spec) = file.alias_spec()? {
            generate_aliases(&alias_spec, inputs, version, &dir, &command)?;
            continue;
        }
        for spec in file.library_specs()? {
            generate_one(&spec, inputs, version, &dir, &command, &modules)?;
        }
    }
    let manifest = manifest::build(release, &files)?;
    std::fs::write(
        dir.join("manifest.json"),
        serde_json::to_string_pretty(&manifest)? + "\n",
    )?;
    Ok(())
}

/// The Python module of every library spec of the release (by spec name), so that a stub
/// can import the types of the libraries its library imports.
fn python_modules(
    files: &[spec::release::SpecFile],
) -> Result<std::collections::HashMap<String, String>> {
    let mut out = std::collections::HashMap::new();
    for file in files {
        if file.alias_spec()?.is_some() {
            continue;
        }
        for spec in file.library_specs()? {
            out.insert(spec.name.clone(), spec.python_module());
        }
    }
    Ok(out)
}

/// Parses and renders one library spec into `dir`.
fn generate_one(
    spec: &spec::Spec,
    inputs: &Inputs,
    release: &str,
    dir: &Path,
    command: &str,
    modules: &std::collections::HashMap<String, String>,
) -> Result<()> {
    let name = &spec.name;
    let mut lib = parse::parse_library(spec, inputs.include, release)?;
    bind::apply(spec, &mut lib)?;
    // Imported libraries' IR comes from the same output folder: generate them first.
    let imports = spec
        .imports
        .iter()
        .map(|i| {
            ir_file::read(&ir_file::path(dir, i)).with_context(|| format!("{name} imports {i}"))
        })
        .collect::<Result<Vec<ir::Library>>>()?;
    let rendered = render::render(&lib, &imports, modules, spec, inputs.templates, command)?;
    lib.skipped.extend(rendered.skipped);
    std::fs::write(dir.join(format!("{name}.rs")), rendered.code)?;
    // The stub goes where the package puts the module: stubs/hip/hip.pyi for `hip.hip`.
    let stub = dir
        .join("stubs")
        .join(spec.python_module().replace('.', "/") + ".pyi");
    std::fs::create_dir_all(stub.parent().context("stub path")?)?;
    std::fs::write(stub, rendered.stub)?;
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

/// Where generation reads from.
struct Inputs<'a> {
    /// ROCm include directory.
    include: &'a Path,
    /// CUDA's headers (tools/cuda_headers.py).
    cuda_headers: &'a Path,
    /// Folder of the spec files.
    specs: &'a Path,
    /// Folder of the templates.
    templates: &'a Path,
}

/// Resolves and renders an alias spec (the CUDA names) into `dir`.
fn generate_aliases(
    spec: &aliases::AliasSpec,
    inputs: &Inputs,
    release: &str,
    dir: &Path,
    command: &str,
) -> Result<()> {
    let Inputs {
        include,
        cuda_headers,
        specs,
        templates,
    } = *inputs;
    let name = &spec.name;
    let set = aliases::generate(spec, include, cuda_headers, release, dir)?;
    if let Some(stubs) = &spec.stubs {
        write_cuda_stubs(release, &set, stubs, dir, specs, templates, command)?;
    }
    std::fs::write(
        dir.join(format!("{name}.rs")),
        aliases::render(&set, templates, command)?,
    )?;
    if !set.apis.is_empty() {
        let hip = cuda_adapters::HipInputs {
            dir,
            specs,
            release,
        };
        let (code, report) = cuda_adapters::render(&set, &hip, templates, command)?;
        std::fs::write(dir.join("cuda_adapters.rs"), code)?;
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
/// and the IRs of the HIP modules it aliases (in `dir`).
fn write_cuda_stubs(
    release: &str,
    set: &ir::AliasSet,
    stubs: &aliases::StubsSpec,
    dir: &Path,
    specs: &Path,
    templates: &Path,
    command: &str,
) -> Result<()> {
    let mut libs = Vec::new();
    for m in &set.modules {
        let lib: ir::Library = ir_file::read(&ir_file::path(dir, &m.module))?;
        let spec = spec::release::SpecFile::read(specs, &m.module, Some(release))?
            .library_specs()?
            .remove(0);
        let results = cuda_stubs::HipResults {
            status: spec.status.as_ref().map(|s| s.enum_name.clone()),
            status_first: spec
                .status
                .as_ref()
                .is_some_and(|s| s.success_for_plain_returns.is_some()),
        };
        libs.push((lib, results));
    }
    let out = dir.join("stubs/cuda/bindings");
    std::fs::create_dir_all(&out)?;
    for (kind, text) in cuda_stubs::render(set, &libs, &stubs.api, templates, command)? {
        std::fs::write(out.join(format!("{kind}.pyi")), text)?;
    }
    Ok(())
}

/// Where `hipgen cuda-shim` reads from.
struct ShimPaths<'a> {
    include: &'a Path,
    cuda_includes: &'a [PathBuf],
    specs: &'a Path,
    hipify: Option<&'a Path>,
    templates: &'a Path,
}

/// Writes the NVIDIA shim of one marshalling library (`hipgen cuda-shim`).
fn cuda_shim(
    spec_path: &Path,
    irs: &[PathBuf],
    paths: &ShimPaths,
    exclude: &BTreeSet<String>,
    out: &Path,
) -> Result<()> {
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
    let shim = cuda_shim::generate(
        &lib,
        &libs,
        cuda,
        &status_enum,
        &table,
        exclude,
        &cuda_shim::ShimFiles {
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
