"""The NVRTC calls that need more than a new name to work on HIP.

- `nvrtcCompileProgram` translates NVRTC options to hiprtc's: CUDA code asks for
  `--gpu-architecture=compute_80` or `--fmad=false`, which hiprtc does not know. The
  architecture becomes `--offload-arch=<gfx target>` (the current device's, or
  `HIP_PYTHON_OFFLOAD_ARCH`); options with no hiprtc meaning are dropped with a
  `NvrtcOptionWarning`; anything else (clang options, `-I`, `-D`) passes through.
- `nvrtcGetCUBIN` and `nvrtcGetCUBINSize` give the code object, as `nvrtcGetPTX` does.
- `nvrtcGetErrorString` returns `(NVRTC_SUCCESS, text)` as cuda-python does; hiprtc's (as
  hip-python's) returns the text alone.
- `nvrtcGetPTX`, `nvrtcGetCUBIN`, `nvrtcGetProgramLog` also accept a `bytes` object of the
  right size as the buffer, as cuda-python's examples pass one (`ptx = b" " * size`).

Everything else in `cuda.nvrtc` is the hiprtc function itself.
"""

from __future__ import annotations

import ctypes
import importlib
import os
import warnings
from typing import Any

from . import _enums, _ints, _native, _plan

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

#: Environment variable naming the AMD GPU target CUDA architecture options become.
ARCH_VARIABLE = "HIP_PYTHON_OFFLOAD_ARCH"


class NvrtcOptionWarning(UserWarning):
    """An NVRTC option was dropped because hiprtc has no equivalent."""


def _on(value: str) -> bool:
    return value.strip().lower() in ("true", "1", "yes", "")


#: NVRTC option spelling → (kind, becomes, becomes when false): the spec's `nvrtc_options`
#: (generator/specs/cuda.yaml), kind `arch`, `to`, `switch` or `drop`.
_OPTIONS: dict[str, tuple[str, list[str], list[str]]] = _native.nvrtc_options()


def device_arch() -> str | None:
    """The AMD GPU target architecture options become: `HIP_PYTHON_OFFLOAD_ARCH`, else the
    current device's `gcnArchName` (e.g. `gfx90a:sramecc+:xnack-`), else None."""
    arch = os.environ.get(ARCH_VARIABLE, "").strip()
    if arch:
        return arch
    hip = importlib.import_module("hip.hip")
    err, device = hip.hipGetDevice()
    if err != hip.hipError_t.hipSuccess:
        return None
    props = hip.hipDeviceProp_t()
    (err,) = hip.hipGetDeviceProperties(props, device)
    if err != hip.hipError_t.hipSuccess:
        return None
    name = props.gcnArchName
    name = name.decode() if isinstance(name, bytes) else str(name)
    return name or None


def _text(option) -> str:
    if isinstance(option, (bytes, bytearray)):
        return bytes(option).decode()
    if isinstance(option, str):
        return option
    raise TypeError(f"NVRTC options must be bytes or str, got {type(option).__name__}")


def translate_options(options, arch: str | None) -> tuple[list[bytes], list[str]]:
    """hiprtc options for NVRTC `options`, and the options dropped.

    `arch` is the AMD target CUDA architecture options turn into; when None, they are
    dropped. When `arch` came from `HIP_PYTHON_OFFLOAD_ARCH` and no architecture option
    is given, one is added.
    """
    out: list[str] = []
    dropped: list[str] = []
    saw_arch = False
    items = iter([_text(o) for o in options])
    for opt in items:
        name, eq, value = opt.partition("=")
        kind, to, off = _OPTIONS.get(name, (None, (), ()))
        if kind == "arch":
            if not eq:
                value = next(items, "")
                opt = f"{opt} {value}"
            saw_arch = True
            target = value if value.startswith("gfx") else arch
            if target:
                out.append(f"--offload-arch={target}")
            else:
                dropped.append(opt)
        elif kind == "switch":
            out.extend(to if _on(value) else off)
        elif kind == "to":
            out.extend(t.replace("{value}", value) for t in to)
        elif kind == "drop":
            dropped.append(opt)
        else:
            out.append(opt)
    if not saw_arch and os.environ.get(ARCH_VARIABLE, "").strip():
        out.append(f"--offload-arch={os.environ[ARCH_VARIABLE].strip()}")
    return [o.encode() for o in out], dropped


def nvrtcCompileProgram(prog: Any, numOptions: int, options: Any) -> tuple[Any, ...]:
    """hiprtcCompileProgram, with NVRTC options translated (see `translate_options`).

    Returns a tuple of 1 item: the hiprtcResult (`nvrtcResult` members compare equal).
    """
    count = _ints.integer(numOptions, *_ints.C_INT, "argument 'numOptions'")
    # cuda-python takes None or a list or tuple of bytes, checked before the call.
    given = [] if options is None else _ints.sequence(options, "argument 'options'")
    for option in given:
        _text(option)
    if count < 0 or count > len(given):
        raise ValueError(f"numOptions is {count} but {len(given)} options were given")
    hiprtc = importlib.import_module("hip.hiprtc")
    if importlib.import_module("hip").platform() == "nvidia":
        # hiprtc is NVRTC there: CUDA's options mean what they say.
        return hiprtc.hiprtcCompileProgram(prog, count, given[:count] or None)
    translated, dropped = translate_options(given[:count], device_arch())
    if dropped:
        reason = (
            f"no AMD GPU target is known (set {ARCH_VARIABLE}, e.g. gfx90a)"
            if any(_OPTIONS.get(d.partition("=")[0].split(" ")[0], ("",))[0] == "arch" for d in dropped)
            else "hiprtc has no equivalent"
        )
        warnings.warn(
            f"nvrtcCompileProgram: dropped NVRTC options {dropped}: {reason}",
            NvrtcOptionWarning,
            stacklevel=2,
        )
    return hiprtc.hiprtcCompileProgram(prog, len(translated), translated or None)


def _fill(cuda_name: str, size_name: str, prog: Any, buf: Any) -> Any:
    get = _hip_function(cuda_name)
    if not isinstance(buf, bytes):
        return get(prog, buf)
    err, size = _hip_function(size_name)(prog)
    if err != 0:  # HIPRTC_SUCCESS
        return (err,)
    if len(buf) < size:
        raise ValueError(f"{cuda_name}: the buffer holds {len(buf)} bytes, the result needs {size}")
    if size == 0:
        return (err,)
    tmp = bytearray(size)
    result = get(prog, tmp)
    if len(buf) < 2:
        # Python shares one object for each bytes of length 0 or 1: never write into it. A
        # result of one byte is the terminating NUL alone (an empty log), so nothing is lost.
        if size <= 1:
            return result
        raise ValueError(f"{cuda_name}: pass a bytearray, or a bytes object of the result's size")
    # cuda-python writes into the bytes object it is given; so do we, after the call
    # succeeded, and only within its length.
    address = ctypes.cast(ctypes.c_char_p(buf), ctypes.c_void_p).value
    ctypes.memmove(address, bytes(tmp), size)
    return result


def _hip_function(cuda_name: str) -> Any:
    _, hip_name, _ = _plan.names("hiprtc")[cuda_name]
    return getattr(importlib.import_module("hip.hiprtc"), hip_name)


def nvrtcGetErrorString(result: Any) -> tuple[Any, bytes]:
    """hiprtcGetErrorString's text, after the success status cuda-python puts first."""
    (text,) = _hip_function("nvrtcGetErrorString")(result)
    return (_enums.status_enum("nvrtcResult").NVRTC_SUCCESS, text)


def nvrtcGetPTX(prog: Any, ptx: Any) -> tuple[Any, ...]:
    """hiprtcGetCode: the compiled code object; `ptx` may also be a bytes object of its size."""
    return _fill("nvrtcGetPTX", "nvrtcGetPTXSize", prog, ptx)


def nvrtcGetCUBIN(prog: Any, cubin: Any) -> tuple[Any, ...]:
    """The compiled code object (hiprtcGetCode), which `cuModuleLoadData` loads; `cubin` may
    also be a bytes object of its size.

    HIPIFY maps it to hiprtcGetBitcode, which gives LLVM bitcode only for `-fgpu-rdc`
    programs; code asking for a CUBIN wants loadable code.
    """
    return _fill("nvrtcGetPTX", "nvrtcGetPTXSize", prog, cubin)


def nvrtcGetCUBINSize(prog: Any) -> tuple[Any, int]:
    """The size of the compiled code object (hiprtcGetCodeSize); see `nvrtcGetCUBIN`."""
    return _hip_function("nvrtcGetPTXSize")(prog)


def nvrtcGetProgramLog(prog: Any, log: Any) -> tuple[Any, ...]:
    """hiprtcGetProgramLog; `log` may also be a bytes object of its size."""
    return _fill("nvrtcGetProgramLog", "nvrtcGetProgramLogSize", prog, log)
