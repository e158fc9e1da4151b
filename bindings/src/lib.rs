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

#[rustfmt::skip]
#[cfg(feature = "hipblas")]
#[path = "../rocm-6.4.3/hipblas.rs"]
pub mod hipblas;

#[rustfmt::skip]
#[cfg(feature = "hipsparse")]
#[path = "../rocm-6.4.3/hipsparse.rs"]
pub mod hipsparse;

#[rustfmt::skip]
#[cfg(feature = "rccl")]
#[path = "../rocm-6.4.3/rccl.rs"]
pub mod rccl;

#[rustfmt::skip]
#[cfg(feature = "hiprand")]
#[path = "../rocm-6.4.3/hiprand.rs"]
pub mod hiprand;

#[rustfmt::skip]
#[cfg(feature = "hipfft")]
#[path = "../rocm-6.4.3/hipfft.rs"]
pub mod hipfft;

#[rustfmt::skip]
#[cfg(feature = "hipsolver")]
#[path = "../rocm-6.4.3/hipsolver.rs"]
pub mod hipsolver;

#[rustfmt::skip]
#[cfg(feature = "roctx")]
#[path = "../rocm-6.4.3/roctx.rs"]
pub mod roctx;
