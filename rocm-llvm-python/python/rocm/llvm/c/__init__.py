"""One module per `llvm-c` header: `core`, `analysis`, `bitreader`, `bitwriter`, `target`,
`targetmachine`, `orc`, `lljit`, ... (`rocm.llvm.c.core` binds `llvm-c/Core.h`).

The header's `static inline` helpers (`LLVMInitializeNativeTarget`, `LLVMInitializeAll*`),
which no library exports, are provided by `rocm.llvm.c._inline` on top of the exported
per-target functions.
"""

import rocm._native  # noqa: F401 - publishes the generated modules
from rocm._packages import attach, import_all
from rocm.llvm.c import transforms  # noqa: F401

__all__ = attach(__name__)

if "target" in __all__:
    from rocm.llvm.c import _inline

    _inline.install(target)  # noqa: F821 - attached just above

import_all()
