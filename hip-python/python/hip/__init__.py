"""HIP and ROCm libraries for Python: `from hip import hip, hiprtc`.

Each module binds one ROCm library, loaded on first use; a module left out of the build is
simply absent. Names, calling conventions and results follow hip-python 6.4.3.
"""

from hip import _native
from hip._native import HipLoadError

__version__ = _native.__version__
#: The ROCm release the bindings were generated from (as hip-python: 6.4.3 is 60400003).
ROCM_VERSION_NAME = rocm_version_name = _native.ROCM_RELEASE
ROCM_VERSION_TUPLE = rocm_version_tuple = tuple(int(p) for p in ROCM_VERSION_NAME.split("."))
ROCM_VERSION = ROCM_VERSION_TUPLE[0] * 10_000_000 + ROCM_VERSION_TUPLE[1] * 100_000 + ROCM_VERSION_TUPLE[2]

#: The platform HIP runs on: `amd` or `nvidia` (chosen on first use; see docs/nvidia.md).
platform = _native.platform

__all__ = ["HipLoadError", "platform", "ROCM_VERSION", "ROCM_VERSION_NAME", "ROCM_VERSION_TUPLE"]

# The modules built into this package, as the release's manifest gives them to hip-python.
globals().update({name: getattr(_native, name) for name in _native.MODULES})
__all__ += _native.MODULES

if "hip" in globals():
    HIP_VERSION = hip.HIP_VERSION  # noqa: F821 - set just above
    HIP_VERSION_NAME = hip_version_name = (
        f"{hip.HIP_VERSION_MAJOR}.{hip.HIP_VERSION_MINOR}.{hip.HIP_VERSION_PATCH}"  # noqa: F821
    )
    HIP_VERSION_TUPLE = hip_version_tuple = (
        hip.HIP_VERSION_MAJOR,  # noqa: F821
        hip.HIP_VERSION_MINOR,  # noqa: F821
        hip.HIP_VERSION_PATCH,  # noqa: F821
    )

if "hiprtc" in globals():
    import os as _os

    from hip import _nvidia_options
    from hip import hiprtc_pyext as _ext

    hiprtc.ext = _ext  # noqa: F821 - set just above
    # On NVIDIA, hiprtc is NVRTC: AMD target options are translated there. Only a package
    # built for NVIDIA (it ships the shim in `_nvidia/`) wraps the function; elsewhere
    # hiprtcCompileProgram stays the native one.
    if _os.path.isdir(_os.path.join(_os.path.dirname(__file__), "_nvidia")):
        hiprtc.hiprtcCompileProgram = _nvidia_options.compile_program(hiprtc.hiprtcCompileProgram)  # noqa: F821
    del _os
