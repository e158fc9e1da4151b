//! The generator's expected outputs compiled, as rust-bindgen compiles its expectations: a
//! template change that renders code the runtime does not accept fails `cargo check` here,
//! not only the text comparison of `cargo test -p hipgen` (`HIPGEN_BLESS=1` rewrites them).

/// The demo fixture header's module (`generator/tests/fixtures/include/demo/demo.h`).
#[allow(dead_code)]
#[rustfmt::skip]
#[path = "../demo.rs"]
pub mod demo;

/// The CUDA names of the demo module (`generator/tests/fixtures/cuda`).
#[allow(dead_code)]
#[rustfmt::skip]
#[path = "../cuda/cuda.rs"]
pub mod cuda;

/// The native CUDA adapters over the demo module.
#[allow(dead_code)]
#[rustfmt::skip]
#[path = "../cuda/cuda_adapters.rs"]
pub mod cuda_adapters;

/// One module per header of `generator/tests/headers` (each a feature), as the backends
/// render it (`backends::snapshots`).
#[allow(dead_code)]
#[rustfmt::skip]
pub mod headers;

/// The CUDA adapters of each adapter shape (`generator/tests/adapters`), as the backends
/// render them (`backends::cuda_adapters::snapshots`).
#[allow(dead_code)]
#[rustfmt::skip]
pub mod adapters;
