//! The expected PyO3 module of each header of `generator/tests/headers`, one module
//! per header. Written by `HIPGEN_BLESS=1 cargo test -p hipgen` (`backends::snapshots`).

#[path = "../../headers/array_params/module.rs"]
pub mod array_params;

#[path = "../../headers/callbacks/module.rs"]
pub mod callbacks;

#[path = "../../headers/constants/module.rs"]
pub mod constants;

#[path = "../../headers/count_query/module.rs"]
pub mod count_query;

#[path = "../../headers/cplusplus/module.rs"]
pub mod cplusplus;

#[path = "../../headers/deprecated/module.rs"]
pub mod deprecated;

#[path = "../../headers/destroys_by_ref/module.rs"]
pub mod destroys_by_ref;

#[path = "../../headers/destroys_by_value/module.rs"]
pub mod destroys_by_value;

#[path = "../../headers/destroys_struct_handle/module.rs"]
pub mod destroys_struct_handle;

#[path = "../../headers/docstrings/module.rs"]
pub mod docstrings;

#[path = "../../headers/enum_aliases/module.rs"]
pub mod enum_aliases;

#[path = "../../headers/enum_basic/module.rs"]
pub mod enum_basic;

#[path = "../../headers/enum_values/module.rs"]
pub mod enum_values;

#[path = "../../headers/exact_integers/module.rs"]
pub mod exact_integers;

#[path = "../../headers/field_defaults/module.rs"]
pub mod field_defaults;

#[path = "../../headers/filters/module.rs"]
pub mod filters;

#[path = "../../headers/handle_lists/module.rs"]
pub mod handle_lists;

#[path = "../../headers/handles/module.rs"]
pub mod handles;

#[path = "../../headers/imports_base/module.rs"]
pub mod imports_base;

#[path = "../../headers/imports_user/module.rs"]
pub mod imports_user;

#[path = "../../headers/int_widths/module.rs"]
pub mod int_widths;

#[path = "../../headers/keep_gil_serialize/module.rs"]
pub mod keep_gil_serialize;

#[path = "../../headers/kernel_params/module.rs"]
pub mod kernel_params;

#[path = "../../headers/library_interface_check/module.rs"]
pub mod library_interface_check;

#[path = "../../headers/library_majors/module.rs"]
pub mod library_majors;

#[path = "../../headers/library_release_check/module.rs"]
pub mod library_release_check;

#[path = "../../headers/macro_renames/module.rs"]
pub mod macro_renames;

#[path = "../../headers/memory_results/module.rs"]
pub mod memory_results;

#[path = "../../headers/module_names/module.rs"]
pub mod module_names;

#[path = "../../headers/out_device_array/module.rs"]
pub mod out_device_array;

#[path = "../../headers/out_enum_handle/module.rs"]
pub mod out_enum_handle;

#[path = "../../headers/out_scalars/module.rs"]
pub mod out_scalars;

#[path = "../../headers/out_string/module.rs"]
pub mod out_string;

#[path = "../../headers/out_struct/module.rs"]
pub mod out_struct;

#[path = "../../headers/owned_strings/module.rs"]
pub mod owned_strings;

#[path = "../../headers/param_names/module.rs"]
pub mod param_names;

#[path = "../../headers/parse_options/module.rs"]
pub mod parse_options;

#[path = "../../headers/plain_results/module.rs"]
pub mod plain_results;

#[path = "../../headers/pointer_args/module.rs"]
pub mod pointer_args;

#[path = "../../headers/pointer_classes/module.rs"]
pub mod pointer_classes;

#[path = "../../headers/results_depend/module.rs"]
pub mod results_depend;

#[path = "../../headers/results_inherit/module.rs"]
pub mod results_inherit;

#[path = "../../headers/scalar_args/module.rs"]
pub mod scalar_args;

#[path = "../../headers/scalar_pointer_buffers/module.rs"]
pub mod scalar_pointer_buffers;

#[path = "../../headers/sized_buffers/module.rs"]
pub mod sized_buffers;

#[path = "../../headers/skipped/module.rs"]
pub mod skipped;

#[path = "../../headers/status_enum/module.rs"]
pub mod status_enum;

#[path = "../../headers/status_void_outputs/module.rs"]
pub mod status_void_outputs;

#[path = "../../headers/string_args/module.rs"]
pub mod string_args;

#[path = "../../headers/string_arrays/module.rs"]
pub mod string_arrays;

#[path = "../../headers/struct_by_value/module.rs"]
pub mod struct_by_value;

#[path = "../../headers/struct_fields/module.rs"]
pub mod struct_fields;

#[path = "../../headers/unions/module.rs"]
pub mod unions;

#[path = "../../headers/usage_overrides/module.rs"]
pub mod usage_overrides;

#[path = "../../headers/void_pointer_typedefs/module.rs"]
pub mod void_pointer_typedefs;

#[path = "../../headers/written_buffers/module.rs"]
pub mod written_buffers;
