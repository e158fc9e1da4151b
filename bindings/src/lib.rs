//! The modules hipgen generated for ROCm 6.4.3, one per library, each behind a feature.
//! Nothing here is written by hand except this file: the modules are `rocm-*/<lib>.rs`.

#[rustfmt::skip]
#[cfg(feature = "hip")]
#[path = "../rocm-6.4.3/hip.rs"]
pub mod hip;

#[rustfmt::skip]
#[cfg(feature = "hiprtc")]
#[path = "../rocm-6.4.3/hiprtc.rs"]
pub mod hiprtc;
