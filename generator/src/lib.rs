//! hipgen: reads ROCm C headers through libclang and renders PyO3 modules from them.
//!
//! The map, in the order data flows:
//! - the core: `spec` (what to bind, per library and release) → `clang` + `parse` (the one
//!   libclang reader; `macros` for `#define`s) → `ir` (serde, written as `*.ir.json.gz` by
//!   `ir_file`) → `bind` (the spec's decisions applied to the IR) → `render` (a typed model,
//!   then minijinja templates: Rust modules and `.pyi` stubs);
//! - `generate`: a release's libraries through the core, handing IR from stage to stage in
//!   memory, then the cuda package, then the release's `manifest`;
//! - `cuda`: the `cuda` package (CUDA's names and cuda-python's conventions over HIP);
//! - `shims`: the NVIDIA shims (HIP's API and the math libraries over CUDA, as C++);
//! - `diff`: what changed between two releases' IRs, for maintainers.
//!
//! `main.rs` is the command line over these.

pub mod bind;
pub mod clang;
pub mod cuda;
pub mod diff;
pub mod generate;
pub mod ir;
pub mod ir_file;
pub mod macros;
pub mod manifest;
pub mod parse;
pub mod render;
pub mod shims;
pub mod spec;
