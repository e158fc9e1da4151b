"""DLPack (https://dmlc.github.io/dlpack/latest/) in both directions, through the runtime
(`hip._native.to_dlpack`, `from_dlpack`: DLPack's own structs from `dlpack.h`): NumPy dtypes to
DLPack's type codes and back, and the device types of each platform's memory."""

from __future__ import annotations

import functools

import numpy as np

from hip import _native

#: DLPack's device types by this module's names (the runtime reads them from dlpack.h).
_DEVICE_NAMES = ("CPU", "CUDA", "CUDA_HOST", "CUDA_MANAGED", "ROCM", "ROCM_HOST")
#: DLPack type codes by NumPy kind.
_KIND_NAMES = {"i": "INT", "u": "UINT", "f": "FLOAT", "c": "COMPLEX", "b": "BOOL"}


@functools.cache
def _constants() -> dict[str, int]:
    """DLPack's device types and type codes, asked of the extension on first use (importing
    this module loads nothing)."""
    return _native.DLPackTensor.constants()


@functools.cache
def _device_type_enum() -> type:
    import enum

    c = _constants()
    names = {"CPU": "kDLCPU", "CUDA": "kDLCUDA", "CUDA_HOST": "kDLCUDAHost"}
    names.update({"CUDA_MANAGED": "kDLCUDAManaged", "ROCM": "kDLROCM", "ROCM_HOST": "kDLROCMHost"})
    return enum.IntEnum("DLDeviceType", {names[n]: c[n] for n in _DEVICE_NAMES}, module=__name__)


def __getattr__(name: str):
    """`CPU`, `CUDA`, `CUDA_HOST`, `CUDA_MANAGED`, `ROCM`, `ROCM_HOST`: DLPack's device types;
    `DLDeviceType`: the same as cuda.core's enum (`kDLCPU`, `kDLCUDA`, ...)."""
    if name in _DEVICE_NAMES:
        return _constants()[name]
    if name == "DLDeviceType":
        return _device_type_enum()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _code(kind: str) -> int | None:
    name = _KIND_NAMES.get(kind)
    return None if name is None else _constants()[name]


def _kind(code: int) -> str | None:
    return next((k for k, n in _KIND_NAMES.items() if _constants()[n] == code), None)


def _nvidia() -> bool:
    return _native.platform() == "nvidia"


def gpu_kind() -> int:
    """The device type of this platform's device memory."""
    return _constants()["CUDA" if _nvidia() else "ROCM"]


def gpu_host_kind(managed: bool) -> int:
    """The device type of memory both sides reach: managed, else pinned host memory. ROCm has
    no managed type: its managed memory is described as the device's."""
    c = _constants()
    if _nvidia():
        return c["CUDA_MANAGED"] if managed else c["CUDA_HOST"]
    return c["ROCM"] if managed else c["ROCM_HOST"]


def dtype_of(dtype) -> tuple[int, int, int]:
    """DLPack's `(code, bits, lanes)` of a NumPy dtype."""
    dtype = np.dtype(dtype)
    code = _code(dtype.kind)
    if code is None:
        raise TypeError(f"DLPack has no type for {dtype}")
    return code, dtype.itemsize * 8, 1


def to_capsule(data: int, shape, dtype, device: tuple[int, int], owner, strides=None, versioned=False):
    """A DLPack capsule over the memory at `data` (C-contiguous unless `strides`, in elements);
    `owner` stays alive until the consumer is done with it."""
    shape = tuple(int(d) for d in shape)
    return _native.to_dlpack(data, shape, dtype_of(dtype), tuple(device), owner, strides, versioned)


def live_exports() -> int:
    """How many capsules this package made are still held by a consumer (or unconsumed)."""
    return _native.dlpack_live_exports()


class Imported:
    """A tensor taken from a DLPack capsule: its memory stays valid while this lives."""

    def __init__(self, capsule):
        self._tensor = _native.from_dlpack(capsule)
        t = self._tensor
        self.device = tuple(t.device)
        self.shape = tuple(t.shape)
        code, bits, lanes = t.dtype
        kind = _kind(code)
        if kind is None or lanes != 1:
            self.release()
            raise TypeError(f"DLPack type code {code} ({bits} bits) has no NumPy dtype")
        self.dtype = np.dtype(f"{kind}{bits // 8}") if kind != "b" else np.dtype(bool)
        self.data = t.data
        self.strides = None if t.strides is None else tuple(t.strides)

    def is_c_contiguous(self) -> bool:
        """Whether the elements lie in C order without gaps (no strides, or those of it)."""
        expected = 1
        for extent, stride in zip(reversed(self.shape), reversed(self.strides or ()), strict=False):
            if extent != 1 and stride != expected:
                return False
            expected *= extent
        return True

    def release(self) -> None:
        """Tells the producer the memory is no longer used (once)."""
        self._tensor.release()
