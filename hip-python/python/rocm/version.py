"""Versions as AMD's 10.0 packages name them (`rocm.version`): the ROCm release of the HIP
bindings this process uses and the HIP version of their headers, as `hip` gives them
(`hip.ROCM_VERSION_TUPLE`, `hip.HIP_VERSION_TUPLE`). Looked up on first access: choosing the
release asks the installed HIP runtime its version."""

#: The names, as in AMD's `rocm.version`.
_NAMES = [
    "ROCM_VERSION",
    "ROCM_VERSION_NAME",
    "ROCM_VERSION_TUPLE",
    "rocm_version_name",
    "rocm_version_tuple",
    "HIP_VERSION",
    "HIP_VERSION_NAME",
    "HIP_VERSION_TUPLE",
    "hip_version_name",
    "hip_version_tuple",
]
__all__ = list(_NAMES)


def __getattr__(name):
    import hip

    if name in _NAMES:
        return getattr(hip, name)
    if name == "__version__":
        return hip.__version__
    raise AttributeError(f"module 'rocm.version' has no attribute {name!r}")


def __dir__():
    return sorted(_NAMES + ["__version__"])
