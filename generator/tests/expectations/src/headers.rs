//! Filled by `cargo test -p hipgen` with HIPGEN_BLESS=1 (one `#[path]` module per header).
