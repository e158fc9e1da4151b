"""Launching kernels: `launch(kernel, LaunchConfig(grid, block), *args)`."""

from __future__ import annotations

import ctypes
from dataclasses import dataclass

import numpy as np

from hip import hip

from ._device import Stream
from ._errors import check
from ._mangled import POINTER
from ._program import Kernel


def _dim3(value, what: str) -> tuple[int, int, int]:
    dims = (value,) if isinstance(value, int) else tuple(value)
    if not 1 <= len(dims) <= 3 or any(int(d) < 1 for d in dims):
        raise ValueError(f"{what} must be 1 to 3 positive sizes, got {value!r}")
    return tuple(int(d) for d in dims) + (1,) * (3 - len(dims))


@dataclass
class LaunchConfig:
    """Grid and block sizes (an int or up to three), dynamic shared memory in bytes, and the
    stream (None: the null stream)."""

    grid: int | tuple = 1
    block: int | tuple = 1
    shmem_size: int = 0
    stream: Stream | None = None

    def __post_init__(self):
        self.grid = _dim3(self.grid, "grid")
        self.block = _dim3(self.block, "block")


def _address(value) -> int:
    if value is None:
        return 0
    if isinstance(value, int):
        return value
    iface = getattr(value, "__cuda_array_interface__", None)
    if iface is not None:
        return int(iface["data"][0])
    if hasattr(value, "ptr"):
        return int(value.ptr)
    try:
        return int(value)
    except TypeError:
        what = type(value).__name__
        raise TypeError(f"expected a device pointer (an array, a buffer, an int), got {what}") from None


def _value(arg, ctype):
    """`arg` as the C value of parameter type `ctype`."""
    if ctype == POINTER:
        return ctypes.c_void_p(_address(arg))
    if isinstance(arg, np.generic):
        arg = arg.item()
    if isinstance(arg, ctypes._SimpleCData):
        arg = arg.value
    if ctype in (ctypes.c_float, ctypes.c_double):
        if not isinstance(arg, (int, float)):
            raise TypeError(f"expected a number, got {type(arg).__name__}")
        return ctype(arg)
    if not isinstance(arg, (int, bool)) and not hasattr(arg, "__index__"):
        raise TypeError(f"expected an integer, got {type(arg).__name__}")
    value = int(arg)
    bits = ctypes.sizeof(ctype) * 8
    signed = ctype(-1).value == -1 if ctype is not ctypes.c_bool else False
    lo, hi = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)
    if ctype is ctypes.c_bool:
        lo, hi = 0, 1
    if not lo <= value <= hi:
        raise OverflowError(f"{value} does not fit {ctype.__name__}")
    return ctype(value)


def _untyped(arg):
    """A C value for a parameter of unknown type: ctypes values as they are, NumPy scalars by
    their dtype, anything pointer-like as an address. A Python int or float is ambiguous."""
    if isinstance(arg, (ctypes._SimpleCData, ctypes.Structure)):
        return arg
    if isinstance(arg, np.generic):
        return np.ctypeslib.as_ctypes_type(arg.dtype)(arg.item())
    if isinstance(arg, (bool, int, float)):
        raise TypeError(
            'the kernel\'s parameter types are not known (an extern "C" kernel): pass a ctypes or '
            "NumPy scalar (np.float32(2.0)), or give param_types to get_kernel"
        )
    return ctypes.c_void_p(_address(arg))


def pack(kernel: Kernel, args) -> list:
    """The C value of each argument, by the kernel's parameter types where known."""
    types = kernel.param_types
    if types is None:
        return [_untyped(a) for a in args]
    if len(args) != len(types):
        raise TypeError(f"{kernel.name} takes {len(types)} arguments, got {len(args)}")
    out = []
    for i, (arg, ctype) in enumerate(zip(args, types, strict=True)):
        try:
            out.append(_value(arg, ctype))
        except (TypeError, OverflowError) as e:
            raise type(e)(f"argument {i} of {kernel.name}: {e}") from None
    return out


def launch(kernel, config, *args) -> None:
    """Launches `kernel` with `config` on `config.stream`. cuda.core's order,
    `launch(stream, config, kernel, *args)`, works too."""
    if isinstance(kernel, Stream):
        stream, config, kernel, args = kernel, config, args[0], args[1:]
        config = LaunchConfig(config.grid, config.block, config.shmem_size, stream)
    if not isinstance(kernel, Kernel):
        raise TypeError(f"expected a Kernel, got {type(kernel).__name__}")
    values = pack(kernel, args)
    params = (ctypes.c_void_p * max(len(values), 1))(*[ctypes.addressof(v) for v in values])
    stream = None if config.stream is None else config.stream.handle
    check(
        "hipModuleLaunchKernel",
        hip.hipModuleLaunchKernel(
            kernel.handle, *config.grid, *config.block, config.shmem_size, stream, params, None
        ),
    )
