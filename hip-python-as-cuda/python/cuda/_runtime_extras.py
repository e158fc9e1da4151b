"""Names of cuda-python's runtime module that are not CUDA API functions.

cuda-python's `runtime` module also has `dim3`, `sizeof()`, the `make_cuda*` constructors of
CUDA's inline header functions and `getLocalRuntimeVersion()`. Here they are built on the HIP
objects the CUDA names stand for.
"""

from __future__ import annotations

import enum
import struct
from typing import Any

from hip import hip
from hip._util.types import Pointer, Struct

from ._handles import CudaHandleMeta, view_struct
from ._structs import CudaStructMeta

__all__ = [
    "dim3",
    "getLocalRuntimeVersion",
    "make_cudaExtent",
    "make_cudaPitchedPtr",
    "make_cudaPos",
    "sizeof",
]

#: HIP's dim3, which also views caller memory (`_ptr=`) as cuda-python's does.
dim3 = CudaStructMeta(
    "dim3",
    (hip.dim3,),
    {
        "__slots__": (),
        "__module__": "cuda.bindings.runtime",
        "__new__": view_struct,
        "__hip_class__": hip.dim3,
    },
)


def make_cudaExtent(w: int, h: int, d: int) -> Any:  # noqa: N802 (CUDA's name)
    """A `cudaExtent` of width `w` bytes, height `h` and depth `d`."""
    return hip.hipExtent(w, h, d)


def make_cudaPos(x: int, y: int, z: int) -> Any:  # noqa: N802 (CUDA's name)
    """A `cudaPos` at `(x, y, z)`."""
    return hip.hipPos(x, y, z)


def make_cudaPitchedPtr(d: Any, p: int, xsz: int, ysz: int) -> Any:  # noqa: N802 (CUDA's name)
    """A `cudaPitchedPtr` to `d` with pitch `p` bytes, `xsz` by `ysz`."""
    return hip.hipPitchedPtr(d, p, xsz, ysz)


#: `(status, version)` of the runtime this process loaded: HIP's, here.
getLocalRuntimeVersion = hip.hipRuntimeGetVersion  # noqa: N816 (cuda-python's name)


def sizeof(obj_type: Any) -> int:
    """The size in bytes of the C type a cuda-python class stands for."""
    if isinstance(obj_type, type):
        if isinstance(obj_type, CudaHandleMeta) or (
            issubclass(obj_type, Pointer) and not issubclass(obj_type, Struct)
        ):
            return struct.calcsize("P")  # handles (a handle class over a HIP struct too)
        size = getattr(obj_type, "_size", None)  # CUDA's integer typedefs
        if size:
            return size
        if issubclass(obj_type, enum.Enum):
            return struct.calcsize("i")  # a C enum
        if hasattr(obj_type, "c_sizeof"):  # HIP's structs
            return obj_type().c_sizeof()
    raise TypeError(f"sizeof: unknown type {obj_type!r}")
