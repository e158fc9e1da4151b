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

/// One Python module of the alias package (`cuda.bindings.driver`) and what it holds.
pub struct PythonModule {
    /// Its name.
    pub module: &'static str,
    /// The legacy module that is the same module (`cuda.cuda`), if any.
    pub legacy: Option<&'static str>,
    /// HIP modules whose CUDA names it holds, the first being `hip_python_mod`.
    pub hip_modules: &'static [&'static str],
    /// Hand-written modules whose `__all__` it adds.
    pub extras: &'static [&'static str],
    /// The hand-written module whose functions stand in for its "not supported" stubs.
    pub emulated: Option<&'static str>,
}
