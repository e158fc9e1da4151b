//! The shape of generated alias tables (`hipgen` output for `cuda`): plain static data that
//! the `cuda` package's Python layer turns into module attributes and enum classes.

/// CUDA names of one HIP module's objects.
pub struct AliasModule {
    /// The HIP module (`hip`, `hiprtc`).
    pub module: &'static str,
    /// (CUDA name, HIP name, kind) for functions, enums, structs, handles, constants.
    pub names: &'static [(&'static str, &'static str, &'static str)],
    /// (HIP enum, [(CUDA member, HIP member)]).
    pub members: &'static [(&'static str, &'static [(&'static str, &'static str)])],
}
