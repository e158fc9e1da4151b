"""AMD rocm-bindings 10.0's name of `rocm.amd_comgr.amd_comgr_pyext` (the same module object)."""

import sys

from rocm.amd_comgr import amd_comgr_pyext

sys.modules[__name__] = amd_comgr_pyext
