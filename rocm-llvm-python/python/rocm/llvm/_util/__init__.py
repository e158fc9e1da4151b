"""Helper types shared by the LLVM modules (rocm-llvm-python's `rocm.llvm._util`)."""

from rocm.llvm._util import types  # noqa: F401

__all__ = ["types"]
