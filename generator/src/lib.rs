//! hipgen: reads ROCm C headers through libclang and renders PyO3 modules from them.
//!
//! The map, in the order data flows:
//! - `spec` (what to bind, per library and release) → `clang` + `parse` (the one libclang
//!   reader; `macros` for `#define`s) → `ir` (serde, written as `*.ir.json.gz` by `ir_file`)
//!   → `bind` (the spec's decisions applied to the IR) → `model` (the bound model: what each
//!   generated module holds) → `backends` (one room per output: `pyo3`, `pyi`, `pxd`,
//!   `cuda_adapters`, `cpp_shim`, each through the templates);
//! - `cuda`: the cuda package's plan (CUDA's names and cuda-python's conventions over HIP),
//!   from HIPIFY's table, CUDA's headers and the HIP IRs; backends render it;
//! - `generate`: a release's libraries through these stages (`libraries` hands IR from stage to
//!   stage in memory; `output` writes files), then the cuda package, then the release's
//!   `manifest`;
//! - `diff`: what changed between two releases' IRs, for maintainers.
//!
//! `main.rs` is the command line over these.

pub mod backends;
pub mod bind;
pub mod clang;
pub mod cuda;
pub mod diff;
pub mod generate;
pub mod ir;
pub mod ir_file;
pub mod libraries;
pub mod macros;
pub mod manifest;
pub mod model;
pub mod output;
pub mod parse;
pub mod spec;
