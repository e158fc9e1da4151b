//! The cuda package (`hip-python-as-cuda`): CUDA's names for HIP's objects and cuda-python's
//! calling conventions, generated from HIPIFY's table, CUDA's own headers (parsed by the
//! same reader into the same IR as HIP's) and the IRs of the HIP modules.
//!
//! - `aliases`: HIPIFY's table resolved against the HIP modules' IRs (names, enum members).
//! - `types`: CUDA's enums, handles and records, read from CUDA's IR.
//! - `conventions`: how each CUDA function is called in cuda-python, joined to its HIP
//!   function: called as it is, adapted (the plan), or not supported.
//! - `reshape`: which CUDA records the package cannot present as HIP's class.
//! - `records`: CUDA's records as a runtime type table.
//!
//! The backends render this plan: `backends::cuda_adapters` (native PyO3 functions) and
//! `backends::pyi::cuda` (the `.pyi` stubs of `cuda.bindings.*`).

pub mod aliases;
pub mod conventions;
pub mod records;
pub mod reshape;
pub mod types;

/// The bit that marks an enum value as CUDA's own member (`CUDA_MEMBER_TAG | value`), for a
/// CUDA member no HIP value can say: its HIP member stands for several CUDA members
/// (`CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_WIDTH` and `_HEIGHT` are both
/// `hipDeviceAttributeMaxSurface2D`), or HIP has none and a HIP member holds its value. The
/// cuda package gives such members this value (on the NVIDIA platform where HIP shares the
/// member; everywhere for a member HIP lacks), the NVIDIA shims pass it to CUDA as that
/// member (CUDA's value as it is: CUDA answers, for members newer than the shim's headers
/// too), and HIP on AMD refuses it as any other unknown value. Above every HIP and CUDA
/// enum value, within a C `int`.
pub const CUDA_MEMBER_TAG: i64 = 1 << 30;
