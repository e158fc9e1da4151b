//! Written by `HIPGEN_BLESS=1 cargo test -p hipgen` (backends::cuda_adapters::snapshots):
//! the expected adapters of each fixture of `generator/tests/adapters`, one module each.
//! Every fixture's HIP library is `demo`: its adapters (`use crate::demo::*`) compile
//! against this crate's demo module.

#[rustfmt::skip]
#[path = "../../adapters/address_ptr_mut/cuda_adapters.rs"]
pub mod address_ptr_mut;

#[rustfmt::skip]
#[path = "../../adapters/address_ptr_written/cuda_adapters.rs"]
pub mod address_ptr_written;

#[rustfmt::skip]
#[path = "../../adapters/any_or_zero/cuda_adapters.rs"]
pub mod any_or_zero;

#[rustfmt::skip]
#[path = "../../adapters/attribute_getter/cuda_adapters.rs"]
pub mod attribute_getter;

#[rustfmt::skip]
#[path = "../../adapters/attribute_getter_typed/cuda_adapters.rs"]
pub mod attribute_getter_typed;

#[rustfmt::skip]
#[path = "../../adapters/attribute_setter/cuda_adapters.rs"]
pub mod attribute_setter;

#[rustfmt::skip]
#[path = "../../adapters/attribute_setter_const/cuda_adapters.rs"]
pub mod attribute_setter_const;

#[rustfmt::skip]
#[path = "../../adapters/called_as_is/cuda_adapters.rs"]
pub mod called_as_is;

#[rustfmt::skip]
#[path = "../../adapters/direct_dropped/cuda_adapters.rs"]
pub mod direct_dropped;

#[rustfmt::skip]
#[path = "../../adapters/direct_inout_enum/cuda_adapters.rs"]
pub mod direct_inout_enum;

#[rustfmt::skip]
#[path = "../../adapters/direct_inout_pointer/cuda_adapters.rs"]
pub mod direct_inout_pointer;

#[rustfmt::skip]
#[path = "../../adapters/direct_lists/cuda_adapters.rs"]
pub mod direct_lists;

#[rustfmt::skip]
#[path = "../../adapters/direct_mismatched/cuda_adapters.rs"]
pub mod direct_mismatched;

#[rustfmt::skip]
#[path = "../../adapters/direct_out_array/cuda_adapters.rs"]
pub mod direct_out_array;

#[rustfmt::skip]
#[path = "../../adapters/direct_scalars/cuda_adapters.rs"]
pub mod direct_scalars;

#[rustfmt::skip]
#[path = "../../adapters/direct_sized/cuda_adapters.rs"]
pub mod direct_sized;

#[rustfmt::skip]
#[path = "../../adapters/direct_values_sized/cuda_adapters.rs"]
pub mod direct_values_sized;

#[rustfmt::skip]
#[path = "../../adapters/direct_values_typed/cuda_adapters.rs"]
pub mod direct_values_typed;

#[rustfmt::skip]
#[path = "../../adapters/direct_values_untyped/cuda_adapters.rs"]
pub mod direct_values_untyped;

#[rustfmt::skip]
#[path = "../../adapters/direct_zeroed/cuda_adapters.rs"]
pub mod direct_zeroed;

#[rustfmt::skip]
#[path = "../../adapters/dropped_int/cuda_adapters.rs"]
pub mod dropped_int;

#[rustfmt::skip]
#[path = "../../adapters/dropped_pointer/cuda_adapters.rs"]
pub mod dropped_pointer;

#[rustfmt::skip]
#[path = "../../adapters/hip_function_override/cuda_adapters.rs"]
pub mod hip_function_override;

#[rustfmt::skip]
#[path = "../../adapters/hip_returns_value/cuda_adapters.rs"]
pub mod hip_returns_value;

#[rustfmt::skip]
#[path = "../../adapters/int_or_zero/cuda_adapters.rs"]
pub mod int_or_zero;

#[rustfmt::skip]
#[path = "../../adapters/keep_gil/cuda_adapters.rs"]
pub mod keep_gil;

#[rustfmt::skip]
#[path = "../../adapters/kernel_params/cuda_adapters.rs"]
pub mod kernel_params;

#[rustfmt::skip]
#[path = "../../adapters/location/cuda_adapters.rs"]
pub mod location;

#[rustfmt::skip]
#[path = "../../adapters/made_struct_cuda_class/cuda_adapters.rs"]
pub mod made_struct_cuda_class;

#[rustfmt::skip]
#[path = "../../adapters/made_struct_hip_class/cuda_adapters.rs"]
pub mod made_struct_hip_class;

#[rustfmt::skip]
#[path = "../../adapters/made_struct_reshaped/cuda_adapters.rs"]
pub mod made_struct_reshaped;

#[rustfmt::skip]
#[path = "../../adapters/made_struct_unbound/cuda_adapters.rs"]
pub mod made_struct_unbound;

#[rustfmt::skip]
#[path = "../../adapters/mismatched/cuda_adapters.rs"]
pub mod mismatched;

#[rustfmt::skip]
#[path = "../../adapters/not_supported/cuda_adapters.rs"]
pub mod not_supported;

#[rustfmt::skip]
#[path = "../../adapters/out_address/cuda_adapters.rs"]
pub mod out_address;

#[rustfmt::skip]
#[path = "../../adapters/out_hip_value/cuda_adapters.rs"]
pub mod out_hip_value;

#[rustfmt::skip]
#[path = "../../adapters/out_int_class/cuda_adapters.rs"]
pub mod out_int_class;

#[rustfmt::skip]
#[path = "../../adapters/out_int_class_runtime/cuda_adapters.rs"]
pub mod out_int_class_runtime;

#[rustfmt::skip]
#[path = "../../adapters/out_present/cuda_adapters.rs"]
pub mod out_present;

#[rustfmt::skip]
#[path = "../../adapters/param_renames/cuda_adapters.rs"]
pub mod param_renames;

#[rustfmt::skip]
#[path = "../../adapters/python_adapter/cuda_adapters.rs"]
pub mod python_adapter;

#[rustfmt::skip]
#[path = "../../adapters/serialize/cuda_adapters.rs"]
pub mod serialize;

#[rustfmt::skip]
#[path = "../../adapters/to_hip/cuda_adapters.rs"]
pub mod to_hip;

#[rustfmt::skip]
#[path = "../../adapters/two_versions/cuda_adapters.rs"]
pub mod two_versions;

#[rustfmt::skip]
#[path = "../../adapters/zero_bool/cuda_adapters.rs"]
pub mod zero_bool;

#[rustfmt::skip]
#[path = "../../adapters/zero_enum/cuda_adapters.rs"]
pub mod zero_enum;

#[rustfmt::skip]
#[path = "../../adapters/zero_float/cuda_adapters.rs"]
pub mod zero_float;

#[rustfmt::skip]
#[path = "../../adapters/zero_handle/cuda_adapters.rs"]
pub mod zero_handle;

#[rustfmt::skip]
#[path = "../../adapters/zero_int/cuda_adapters.rs"]
pub mod zero_int;

#[rustfmt::skip]
#[path = "../../adapters/zero_pointer/cuda_adapters.rs"]
pub mod zero_pointer;
