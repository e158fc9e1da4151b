"""AMD rocm-bindings 10.0's name of `rocm.amd_comgr.hiprtc_header` (the same module object)."""

import sys

from rocm.amd_comgr import hiprtc_header

sys.modules[__name__] = hiprtc_header
