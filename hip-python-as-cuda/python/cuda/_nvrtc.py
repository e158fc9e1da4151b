"""The NVRTC calls that need more than a new name to work on HIP (the spec's `overrides`):
compiled into `cuda._native` (`hip-python-as-cuda/src/nvrtc.rs` says what each does)."""

from ._native import (
    NvrtcOptionWarning,
    nvrtcCompileProgram,
    nvrtcGetCUBIN,
    nvrtcGetCUBINSize,
    nvrtcGetErrorString,
    nvrtcGetProgramLog,
    nvrtcGetPTX,
    translate_options,
)

__all__ = [
    "NvrtcOptionWarning",
    "nvrtcCompileProgram",
    "nvrtcGetCUBIN",
    "nvrtcGetCUBINSize",
    "nvrtcGetErrorString",
    "nvrtcGetPTX",
    "nvrtcGetProgramLog",
    "translate_options",
]
