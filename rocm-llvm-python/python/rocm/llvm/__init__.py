"""The LLVM C API: `from rocm.llvm.c import core, target, lljit`."""

from rocm.llvm import c

ROCM_VERSION = 60400003
ROCM_VERSION_NAME = rocm_version_name = "6.4.3"
ROCM_VERSION_TUPLE = rocm_version_tuple = (6, 4, 3)

__all__ = ["c"]
