//! hipgen's command line: each subcommand calls one entry of the library (`lib.rs` maps it).

use anyhow::{Context, Result};
use clap::{Args, Parser, Subcommand};
use hipgen::backends::cpp_shim as shims;
use hipgen::backends::cpp_shim::ShimPaths;
use hipgen::generate::Inputs;
use hipgen::{bind, diff, generate, ir, ir_file, parse, spec};
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
    Ir(IrArgs),
    /// Write the generated Rust modules and IR of a release's libraries, and its manifest.
    Generate(GenerateArgs),
    /// Write the NVIDIA shim: a C++ source exporting the bindings' HIP functions over CUDA,
    /// from HIP's nvidia_detail headers (only wrappers that compile).
    Shim(ShimArgs),
    /// Write the NVIDIA shim of a marshalling library (hipBLAS over cuBLAS, ...): a C++
    /// source exporting the library's functions over the CUDA library its spec names, joined
    /// by HIPIFY's table (only wrappers that compile).
    CudaShim(CudaShimArgs),
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
    DiffApis(DiffApisArgs),
}

/// The arguments of `ir`.
#[derive(Args)]
struct IrArgs {
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
}

/// The arguments of `generate`.
#[derive(Args)]
struct GenerateArgs {
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
}

/// The arguments of `shim`.
#[derive(Args)]
struct ShimArgs {
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
    /// Folder of the spec files: a function the library's `library.nvidia.fill.prefer`
    /// names is left to the fill.
    #[arg(long, default_value = "generator/specs")]
    specs: PathBuf,
}

/// The arguments of `cuda-shim`.
#[derive(Args)]
struct CudaShimArgs {
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
}

/// The arguments of `diff-apis`.
#[derive(Args)]
struct DiffApisArgs {
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
}

fn main() -> Result<()> {
    match Cli::parse().command {
        Command::Releases { specs, headers } => releases(&specs, headers),
        Command::Ir(args) => args.run(),
        Command::Generate(args) => args.run(),
        Command::Shim(args) => args.run(),
        Command::CudaShim(args) => args.run(),
        Command::DiffApis(args) => args.run(),
        Command::Diff { old, new } => diff_irs(&old, &new),
    }
}

impl IrArgs {
    /// Prints the IR (`print_ir`).
    fn run(self) -> Result<()> {
        print_ir(
            &self.spec,
            &self.include,
            &self.release,
            &self.format,
            self.facts,
        )
    }
}

impl GenerateArgs {
    /// Writes the release's bindings (`generate::generate`), the headers under `--include`,
    /// else the release file's under `--rocm-dir`.
    fn run(self) -> Result<()> {
        let release = spec::release::Release::load(&self.specs, &self.release)?;
        let include = self
            .include
            .unwrap_or_else(|| release.include_dir(&self.rocm_dir));
        let inputs = Inputs {
            include: &include,
            cuda_headers: &self.cuda_headers,
            specs: &self.specs,
            templates: &self.templates,
        };
        generate::generate(&release, self.libs.as_deref(), &inputs, &self.out)
    }
}

impl ShimArgs {
    /// Writes the NVIDIA shim of HIP's nvidia_detail headers (`cpp_shim::write_detail`).
    fn run(self) -> Result<()> {
        shims::write_detail(
            &self.include,
            &self.cuda_includes,
            &self.irs,
            &self.detail_irs,
            &self.specs,
            &self.out,
            self.exported.as_deref(),
        )
    }
}

impl CudaShimArgs {
    /// Writes a library's shim over CUDA's (`cpp_shim::write_over_cuda`).
    fn run(self) -> Result<()> {
        let paths = ShimPaths {
            include: &self.include,
            cuda_includes: &self.cuda_includes,
            specs: &self.specs,
            hipify: self.hipify.as_deref(),
            templates: &self.templates,
        };
        shims::write_over_cuda(
            &self.spec,
            &self.irs,
            &paths,
            self.exclude_from.as_deref(),
            &self.out,
        )
    }
}

impl DiffApisArgs {
    /// Prints how the conventions differ (`diff_apis`).
    fn run(self) -> Result<()> {
        diff_apis(&self.ir, &self.old, &self.new, self.against.as_deref())
    }
}

/// Prints the release files (`releases`), or each release's headers (`--headers`).
fn releases(specs: &Path, headers: bool) -> Result<()> {
    for r in spec::release::Release::all(specs)? {
        if headers {
            if let Some(h) = &r.headers {
                println!("{} {} {}", r.release, h.suite, h.packages.join(" "));
            }
        } else {
            println!("{}{}", r.release, if r.default { " default" } else { "" });
        }
    }
    Ok(())
}

/// Prints the IR of one library (`ir`), with the spec's decisions unless `facts`.
fn print_ir(spec: &Path, include: &Path, release: &str, format: &str, facts: bool) -> Result<()> {
    let spec = spec::Spec::load(spec)?;
    let mut lib = parse::parse_library(&spec, include, release)?;
    if !facts {
        bind::apply(&spec, &mut lib)?;
    }
    let text = if format == "json" {
        serde_json::to_string_pretty(&lib)?
    } else {
        serde_yaml::to_string(&lib)?
    };
    println!("{text}");
    Ok(())
}

/// Prints how cuda-python's conventions differ between versions `old` and `new` of the alias
/// IR `ir` (or `against`, for `new`) (`diff-apis`).
fn diff_apis(ir: &Path, old: &str, new: &str, against: Option<&Path>) -> Result<()> {
    let read = |p: &Path| -> Result<ir::AliasSet> { ir_file::read(p) };
    let first = read(ir)?;
    let second = match against {
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
        diff::diff_conventions(&pick(&first, old)?, &pick(&second, new)?)
    );
    Ok(())
}

/// Prints what changed between two IRs, library or alias ones (`diff`).
fn diff_irs(old: &Path, new: &Path) -> Result<()> {
    let read = |p: &Path| -> Result<serde_json::Value> { ir_file::read(p) };
    let (a, b) = (read(old)?, read(new)?);
    // Alias IRs (CUDA names) have `modules`; library IRs have `functions`.
    if a.get("modules").is_some() && b.get("modules").is_some() {
        let (a, b) = (serde_json::from_value(a)?, serde_json::from_value(b)?);
        print!("{}", diff::diff_aliases(&a, &b));
    } else {
        let (a, b) = (serde_json::from_value(a)?, serde_json::from_value(b)?);
        print!("{}", diff::diff(&a, &b));
    }
    Ok(())
}
