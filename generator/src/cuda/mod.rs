//! The cuda package (`hip-python-as-cuda`): CUDA's names for HIP's objects and cuda-python's
//! calling conventions, generated from HIPIFY's table, CUDA's own headers (parsed by the
//! same reader into the same IR as HIP's) and the IRs of the HIP modules.
//!
//! - `aliases`: HIPIFY's table resolved against the HIP modules' IRs (names, enum members).
//! - `types`: CUDA's enums, handles and records, read from CUDA's IR.
//! - `conventions`: how each CUDA function is called in cuda-python, joined to its HIP
//!   function: called as it is, adapted (the plan), or not supported.
//! - `reshape`: which CUDA records the package cannot present as HIP's class.
//! - `adapters`: the plan rendered as native PyO3 functions beside the HIP modules
//!   (`direct`: those calling the C function with arguments of their own making).
//! - `stubs`: the `.pyi` stubs of `cuda.bindings.*`.

pub mod adapters;
pub mod aliases;
pub mod conventions;
mod direct;
pub mod records;
pub mod reshape;
pub mod stubs;
pub mod types;
