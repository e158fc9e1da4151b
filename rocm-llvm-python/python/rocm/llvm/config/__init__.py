"""LLVM's build configuration: `from rocm.llvm.config import llvm_config` (the constants of
`llvm/Config/llvm-config.h`: `LLVM_VERSION_MAJOR`, `LLVM_HOST_TRIPLE`, ...)."""

import rocm._native  # noqa: F401 - publishes the generated modules
from rocm._packages import attach

__all__ = attach(__name__)
