"""AMD rocm-bindings 10.0's name of `rocm.amd_comgr.amd_hsa_kernel_descriptor` (the same module object)."""

import sys

from rocm.amd_comgr import amd_hsa_kernel_descriptor

sys.modules[__name__] = amd_hsa_kernel_descriptor
