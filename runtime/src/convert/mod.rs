//! Python arguments to C values, and C results to Python objects.

pub mod arrays;
pub mod attr;
pub mod buffer;
pub mod call;
pub mod cstr;
pub mod dlpack;
pub mod extra;
pub mod int_view;
pub mod kernel_args;
pub mod kernel_params;
pub mod life;
pub mod ndarray;
pub mod number;
pub mod pointer;
pub mod shared_tuple;
pub mod sizes;
pub mod strings;
