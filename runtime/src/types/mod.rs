//! The classes of each generated module: its enums, structs and unions, and handles, created
//! on first use from the module's tables; typed pointer arguments; re-exported modules.

pub mod copy;
pub mod life;
pub mod named;
pub mod record;
pub mod reexport;
pub mod registry;
pub mod typed_ptr;
