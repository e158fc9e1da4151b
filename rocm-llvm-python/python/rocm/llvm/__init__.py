"""The LLVM C API: `from rocm.llvm.c import core, target, lljit`; `rocm.llvm.config` (the
configuration header's constants) and `rocm.llvm._util` (the pointer types), as in
rocm-llvm-python."""

from rocm._packages import (  # noqa: F401 - rocm-llvm-python has them here
    ROCM_VERSION,
    ROCM_VERSION_NAME,
    ROCM_VERSION_TUPLE,
    HipLoadError,
    __version__,
    get_include,
)
from rocm.llvm import _util, c, config  # noqa: F401 - rocm-llvm-python imports them

#: rocm-llvm-python's other names of the release.
rocm_llvm_version_name = rocm_version_name = ROCM_VERSION_NAME
rocm_llvm_version_tuple = rocm_version_tuple = ROCM_VERSION_TUPLE
VERSION = __version__

__all__ = ["c", "config"]
