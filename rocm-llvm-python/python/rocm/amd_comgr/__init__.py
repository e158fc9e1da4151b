"""amd_comgr, AMD's code object manager: `from rocm.amd_comgr import amd_comgr`.

`amd_comgr.ext` holds rocm-llvm-python's helpers (compile HIP to bitcode and code objects,
read metadata and symbols, disassemble): the same module as AMD 10.0's `rocm.comgr.comgr`,
also importable as `rocm.amd_comgr.amd_comgr_pyext` (rocm-llvm-python's name); so is
`rocm.amd_comgr.amd_hsa_kernel_descriptor` the same as `rocm.comgr.amd_hsa_kernel_descriptor`.
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

# Last, once amd_comgr is published: rocm.comgr imports it (whichever package is imported first,
# the other then finds it in sys.modules). Nothing here calls comgr or reads the hipRTC header.
from rocm.comgr import amd_hsa_kernel_descriptor  # noqa: E402
from rocm.comgr import comgr as amd_comgr_pyext  # noqa: E402

sys.modules[__name__ + ".amd_comgr"].ext = amd_comgr_pyext
sys.modules[__name__ + ".amd_comgr_pyext"] = amd_comgr_pyext
sys.modules[__name__ + ".amd_hsa_kernel_descriptor"] = amd_hsa_kernel_descriptor
__all__ += ["amd_comgr_pyext", "amd_hsa_kernel_descriptor"]
