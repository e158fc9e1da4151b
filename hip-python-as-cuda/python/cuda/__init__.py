"""CUDA Python on HIP: `cuda.cuda`, `cuda.cudart`, `cuda.nvrtc` and `cuda.bindings.*`, whose
every CUDA name is the HIP object of hip-python, so code written for cuda-python runs on
ROCm unmodified.

`cuda.HIP_PYTHON` is True here (and absent in NVIDIA's package): check it to tell the two
apart. `HIP_PYTHON_<enum>_HALLUCINATE` (environment, or the module variable) makes a CUDA
enum invent constants HIP lacks.
"""

import importlib as _importlib

from ._native import RELEASE as ROCM_RELEASE
from ._native import SOURCE as ALIAS_SOURCE

HIP_PYTHON = True
try:
    #: hip-python's marker: the HIP module the CUDA names point into.
    hip = _importlib.import_module("hip.hip")
except ImportError:  # a hip-python built without hip.hip (build_pkgs.sh --libs)
    hip = None

from ._layer import import_present  # noqa: E402
from ._nvrtc import NvrtcOptionWarning  # noqa: E402

# build_pkgs.sh --cuda-libs may leave modules out of the wheel.
__all__ = ["ALIAS_SOURCE", "HIP_PYTHON", "NvrtcOptionWarning", "ROCM_RELEASE", "hip"]
__all__ += import_present(__name__, ("cuda", "cudart", "nvrtc", "bindings"))


def __getattr__(name):
    # The distribution's version, read only when asked: importlib.metadata costs ~30 ms.
    if name == "__version__":
        from importlib.metadata import PackageNotFoundError, version

        try:
            return version("hip-python-as-cuda")
        except PackageNotFoundError:  # a source tree on sys.path
            return "0+unknown"
    raise AttributeError(f"module 'cuda' has no attribute '{name}'")
