//! The modules hipgen generated, one per library, each behind a feature. The files are
//! `rocm-6.4.3/<lib>.rs` (checked in) or those of the release in `HIPGEN_BINDINGS`; see
//! `build.rs`. Nothing here is written by hand except this file and `build.rs`.

include!(concat!(env!("OUT_DIR"), "/modules.rs"));
