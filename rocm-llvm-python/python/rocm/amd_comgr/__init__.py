"""amd_comgr, AMD's code object manager: `from rocm.amd_comgr import amd_comgr`.

`amd_comgr.ext` holds rocm-llvm-python's helpers (compile HIP to bitcode and code objects,
read metadata and symbols, disassemble): the same module as AMD 10.0's `rocm.comgr`.
"""

import rocm._native  # noqa: F401 - publishes rocm.amd_comgr.amd_comgr
from rocm._packages import (  # noqa: F401 - rocm-llvm-python has them here
    ROCM_VERSION,
    ROCM_VERSION_NAME,
    ROCM_VERSION_TUPLE,
    HipLoadError,
    __version__,
    attach,
    import_all,
)

#: rocm-llvm-python's other names of the release.
rocm_llvm_version_name = ROCM_VERSION_NAME
rocm_llvm_version_tuple = ROCM_VERSION_TUPLE
VERSION = __version__

__all__ = attach(__name__)
import_all()
