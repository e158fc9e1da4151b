"""llvm-c/Transforms: `from rocm.llvm.c.transforms import passbuilder`."""

import rocm._native  # noqa: F401 - publishes the generated modules
from rocm._packages import attach

__all__ = attach(__name__)
