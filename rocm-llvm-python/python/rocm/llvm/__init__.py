"""The LLVM C API: `from rocm.llvm.c import core, target, lljit`."""

from rocm import (  # noqa: F401 - rocm-llvm-python has them here too
    ROCM_VERSION,
    ROCM_VERSION_NAME,
    ROCM_VERSION_TUPLE,
    rocm_version_name,
    rocm_version_tuple,
)
from rocm.llvm import c

__all__ = ["c"]
