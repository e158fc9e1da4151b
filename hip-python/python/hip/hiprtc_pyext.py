"""Helpers for `hiprtcLinkCreate` (`hip.hiprtc.ext`), as hip-python offers them.

`hiprtcLinkCreate(num_options, option_ptr, option_vals_pptr)` wants two C arrays: option keys
and one pointer-sized value per key. `HiprtcLinkCreateOpts(**options)` builds both from keyword
arguments named after `hipJitOption` (or the older `HIPRTC_JIT_*`) members:

    status, state = hiprtc.hiprtcLinkCreate(*HiprtcLinkCreateOpts(hipJitOptionOptimizationLevel=3))
"""

import ctypes

from hip import hiprtc as _hiprtc
from hip._native import Pointer as _Pointer

__all__ = ["HiprtcLinkCreateOpts", "hiprtcLinkCreate2"]

# Renamed members: hip-python accepts the HIPRTC_JIT_* spelling too.
_OLD_NAMES = {
    "HIPRTC_JIT_MAX_REGISTERS": "hipJitOptionMaxRegisters",
    "HIPRTC_JIT_THREADS_PER_BLOCK": "hipJitOptionThreadsPerBlock",
    "HIPRTC_JIT_WALL_TIME": "hipJitOptionWallTime",
    "HIPRTC_JIT_INFO_LOG_BUFFER": "hipJitOptionInfoLogBuffer",
    "HIPRTC_JIT_INFO_LOG_BUFFER_SIZE_BYTES": "hipJitOptionInfoLogBufferSizeBytes",
    "HIPRTC_JIT_ERROR_LOG_BUFFER": "hipJitOptionErrorLogBuffer",
    "HIPRTC_JIT_ERROR_LOG_BUFFER_SIZE_BYTES": "hipJitOptionErrorLogBufferSizeBytes",
    "HIPRTC_JIT_OPTIMIZATION_LEVEL": "hipJitOptionOptimizationLevel",
    "HIPRTC_JIT_TARGET_FROM_HIPCONTEXT": "hipJitOptionTargetFromContext",
    "HIPRTC_JIT_TARGET": "hipJitOptionTarget",
    "HIPRTC_JIT_FALLBACK_STRATEGY": "hipJitOptionFallbackStrategy",
    "HIPRTC_JIT_GENERATE_DEBUG_INFO": "hipJitOptionGenerateDebugInfo",
    "HIPRTC_JIT_LOG_VERBOSE": "hipJitOptionLogVerbose",
    "HIPRTC_JIT_GENERATE_LINE_INFO": "hipJitOptionGenerateLineInfo",
    "HIPRTC_JIT_CACHE_MODE": "hipJitOptionCacheMode",
    "HIPRTC_JIT_NEW_SM3X_OPT": "hipJitOptionSm3xOpt",
    "HIPRTC_JIT_FAST_COMPILE": "hipJitOptionFastCompile",
    "HIPRTC_JIT_GLOBAL_SYMBOL_NAMES": "hipJitOptionGlobalSymbolNames",
    "HIPRTC_JIT_GLOBAL_SYMBOL_ADDRESS": "hipJitOptionGlobalSymbolAddresses",
    "HIPRTC_JIT_GLOBAL_SYMBOL_COUNT": "hipJitOptionGlobalSymbolCount",
    "HIPRTC_JIT_LTO": "hipJitOptionLto",
    "HIPRTC_JIT_FTZ": "hipJitOptionFtz",
    "HIPRTC_JIT_PREC_DIV": "hipJitOptionPrecDiv",
    "HIPRTC_JIT_PREC_SQRT": "hipJitOptionPrecSqrt",
    "HIPRTC_JIT_FMA": "hipJitOptionFma",
    "HIPRTC_JIT_IR_TO_ISA_OPT_EXT": "hipJitOptionIRtoISAOptExt",
    "HIPRTC_JIT_IR_TO_ISA_OPT_COUNT_EXT": "hipJitOptionIRtoISAOptCountExt",
}


def _option_enum():
    """The release's option enum and how the other spelling maps onto its members: HIP 6 and
    later name it `hipJitOption` (HIPRTC_JIT_* accepted too), HIP 5 `hiprtcJIT_option` with
    only the HIPRTC_JIT_* names (hipJitOption* accepted too)."""
    option = getattr(_hiprtc, "hipJitOption", None)
    if option is not None:
        return option, _OLD_NAMES
    return _hiprtc.hiprtcJIT_option, {new: old for old, new in _OLD_NAMES.items()}


def _as_pointer_value(value):
    """The pointer-sized value passed for one option: ints as is, objects by address."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int):
        return ctypes.c_size_t(value).value
    if isinstance(value, float):
        # Float options (wall time) travel as the bits of a C float.
        return ctypes.c_uint32.from_buffer(ctypes.c_float(value)).value
    return int(_Pointer(value))


class HiprtcLinkCreateOpts:
    """Option keys and values for `hiprtcLinkCreate`, unpacked as `(n, keys, values)`."""

    def __init__(self, **kwargs):
        option, names = _option_enum()
        keys = []
        values = []
        self._keep = []  # buffers whose addresses are passed must outlive the call
        for name, value in kwargs.items():
            member_name = names.get(name, name)
            if member_name not in option.__members__:
                raise KeyError(f"'{name}' is not a {option.__name__} member")
            keys.append(int(option[member_name]))
            if not isinstance(value, (bool, int, float)):
                self._keep.append(value)
            values.append(_as_pointer_value(value))
        self.num_opts = len(keys)
        self.keys = (ctypes.c_int * len(keys))(*keys) if keys else None
        self.values = (ctypes.c_void_p * len(values))(*values) if values else None

    def __iter__(self):
        return iter((self.num_opts, self.keys, self.values))

    def __getitem__(self, index):
        return (self.num_opts, self.keys, self.values)[index]


def hiprtcLinkCreate2(**kwargs):
    """`hiprtcLinkCreate` with options given as keyword arguments."""
    opts = HiprtcLinkCreateOpts(**kwargs)
    return _hiprtc.hiprtcLinkCreate(*opts)
