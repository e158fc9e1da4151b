"""CUDA Python on HIP: `cuda.bindings.driver`, `.runtime`, `.nvrtc` (and the legacy
`cuda.cuda`, `cuda.cudart`, `cuda.nvrtc`), whose every CUDA name is the HIP object of
hip-python, so code written for cuda-python runs on ROCm unmodified.

`cuda` itself is a namespace package, as in NVIDIA's cuda-python: its other portions import
beside ours (`cuda.pathfinder`). `cuda.core` is ours too: hip-python's `hip.core` under
cuda.core's names (NVIDIA's cuda.core is built on NVIDIA's C-level bindings). The markers live here and in each
module: `cuda.bindings.HIP_PYTHON` is True (absent in NVIDIA's package), and each module's
`hip_python_mod` is the HIP module its names point into. `HIP_PYTHON_<enum>_HALLUCINATE`
(environment, or the module variable) makes a CUDA enum invent constants HIP lacks.
"""

import importlib as _importlib

from cuda._layer import import_present
from cuda._native import RELEASE as ROCM_RELEASE
from cuda._native import SOURCE as ALIAS_SOURCE
from cuda._native import NvrtcOptionWarning

HIP_PYTHON = True
try:
    #: hip-python's marker: the HIP module the CUDA names point into.
    hip = _importlib.import_module("hip.hip")
except ImportError:  # a hip-python built without hip.hip (build_pkgs.sh --libs)
    hip = None

# build_pkgs.sh --cuda-libs may leave modules out of the wheel.
__all__ = ["ALIAS_SOURCE", "HIP_PYTHON", "NvrtcOptionWarning", "ROCM_RELEASE", "hip"]
__all__ += import_present(__name__)


def __getattr__(name):
    # Versions, read only when asked (importlib.metadata costs ~30 ms): `__version__` is the
    # cuda-bindings release whose API these modules implement (the CUDA headers hipgen read
    # for the API version in use, `HIP_PYTHON_CUDA_API`), as programs check it for 12.x or
    # 13.x; `HIP_PYTHON_VERSION` is this package's own.
    if name == "__version__":
        from cuda import _plan

        v = _plan.tables().cuda_version
        return f"{v // 1000}.{v % 1000 // 10}.0" if v else f"{_plan.api_version()}.0.0"
    if name == "HIP_PYTHON_VERSION":
        from importlib.metadata import PackageNotFoundError, version

        try:
            return version("hip-python-as-cuda")
        except PackageNotFoundError:  # a source tree on sys.path
            return "0+unknown"
    raise AttributeError(f"module 'cuda.bindings' has no attribute '{name}'")
