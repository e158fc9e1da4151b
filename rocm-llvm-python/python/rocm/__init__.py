"""amd_comgr and the LLVM C API for Python: `from rocm.amd_comgr import amd_comgr`,
`from rocm.llvm.c import core, lljit`.

Each module binds its library, loaded on first use; a module left out of the build is
simply absent. Names and calling conventions follow rocm-llvm-python 6.4.3.
"""

from rocm import _native
from rocm._native import HipLoadError

#: A library or symbol could not be loaded (the same error type as hip-python's).
LoadError = HipLoadError

__version__ = _native.__version__

#: The ROCm release the bindings were generated from (as rocm-llvm-python: 6.4.3 is 60400003).
ROCM_VERSION_NAME = rocm_version_name = _native.ROCM_RELEASE
ROCM_VERSION_TUPLE = rocm_version_tuple = tuple(int(p) for p in ROCM_VERSION_NAME.split("."))
ROCM_VERSION = ROCM_VERSION_TUPLE[0] * 10_000_000 + ROCM_VERSION_TUPLE[1] * 100_000 + ROCM_VERSION_TUPLE[2]

__all__ = ["HipLoadError", "LoadError", "ROCM_VERSION", "ROCM_VERSION_NAME", "ROCM_VERSION_TUPLE"]
del _native

# The extension publishes every generated module in sys.modules, and a module found there is
# imported without its package: `import rocm.llvm.c.target` after `rocm.amd_comgr` would skip
# rocm.llvm.c's own additions (the static-inline helpers). The packages are imported here, once.
from rocm import amd_comgr, llvm  # noqa: E402, F401
