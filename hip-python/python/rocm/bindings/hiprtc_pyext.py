"""AMD 10.0's name of `hip.hiprtc_pyext` (hiprtc's link-option helpers), the same module object."""

import sys

import hip.hiprtc_pyext as _module

sys.modules[__name__] = _module
