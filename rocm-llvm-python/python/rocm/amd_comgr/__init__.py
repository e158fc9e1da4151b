"""amd_comgr, AMD's code object manager: `from rocm.amd_comgr import amd_comgr`.

`amd_comgr.ext` holds rocm-llvm-python's helpers (compile HIP to bitcode and code objects,
read metadata and symbols, disassemble): `rocm.amd_comgr.amd_comgr_pyext`, which AMD 10.0's
`rocm.comgr` names `rocm.comgr.comgr`; `rocm.amd_comgr.amd_hsa_kernel_descriptor` is also
`rocm.comgr.amd_hsa_kernel_descriptor`. Both live here; `rocm.comgr` imports them.
"""

import sys

import rocm._native  # noqa: F401 - publishes rocm.amd_comgr.amd_comgr
from rocm._packages import (  # noqa: F401 - rocm-llvm-python has them here
    ROCM_VERSION,
    ROCM_VERSION_NAME,
    ROCM_VERSION_TUPLE,
    HipLoadError,
    __version__,
    attach,
    get_include,
    import_all,
)

#: rocm-llvm-python's other names of the release.
rocm_llvm_version_name = ROCM_VERSION_NAME
rocm_llvm_version_tuple = ROCM_VERSION_TUPLE
VERSION = __version__

__all__ = attach(__name__)
import_all()

# Once amd_comgr is published (its helpers use it). Nothing here calls comgr or reads the
# hipRTC header.
from . import amd_comgr_pyext, amd_hsa_kernel_descriptor  # noqa: E402

sys.modules[__name__ + ".amd_comgr"].ext = amd_comgr_pyext
__all__ += ["amd_comgr_pyext", "amd_hsa_kernel_descriptor"]
