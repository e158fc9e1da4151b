"""`DeviceArray`: a NumPy-shaped array in device memory (`hipMalloc`), with NumPy copies,
`__cuda_array_interface__` and DLPack both ways. A convenience of hip.core beside cuda.core's
`Buffer` (bytes) and `StridedMemoryView` (any array's memory)."""

from __future__ import annotations

import math
import weakref
from typing import TYPE_CHECKING

import numpy as np

from hip import _native, hip

from . import _dlpack
from ._ordinal import device_ordinal, set_current
from ._utils.cuda_utils import check

if TYPE_CHECKING:
    from ._device import Device
    from ._stream import Stream


def _free(pointer):
    def free():
        hip.hipFree(pointer)

    return free


#: Whether the runtime's kernel-argument packer knows `DeviceArray` (told on first use).
_registered = False


def _register() -> None:
    global _registered
    if not _registered:
        _native.register_buffer_class(DeviceArray, "ptr")
        _registered = True


class DeviceArray:
    """An array in device memory. `DeviceArray((n,), np.float32)` allocates;
    `DeviceArray.from_numpy(a)` copies a host array in; `.to_numpy()` copies it out."""

    def __init__(
        self, shape, dtype=np.float32, device: Device | int | None = None, stream: Stream | None = None
    ):
        self.shape = (int(shape),) if isinstance(shape, int) else tuple(int(s) for s in shape)
        if any(s < 0 for s in self.shape):
            raise ValueError(f"negative dimension in shape {self.shape}")
        self.dtype = np.dtype(dtype)
        _register()
        self.device_id = device_ordinal(device)
        set_current(self.device_id)
        self._owner = None
        nbytes = max(self.nbytes, 1)
        if stream is None:
            self.handle = check("hipMalloc", hip.hipMalloc(nbytes))
        else:
            self.handle = check("hipMallocAsync", hip.hipMallocAsync(nbytes, stream.handle))
        self._finalizer = weakref.finalize(self, _free(self.handle))
        self._finalizer.atexit = False

    @classmethod
    def _view(cls, data: int, shape, dtype, device_id: int, owner) -> DeviceArray:
        """An array over memory `owner` keeps alive (not freed here)."""
        self = cls.__new__(cls)
        self.shape, self.dtype, self.device_id = tuple(shape), np.dtype(dtype), device_id
        self.handle, self._owner, self._finalizer = data, owner, None
        return self

    # -- description ------------------------------------------------------------------

    @property
    def ptr(self) -> int:
        """The device address; a ValueError once the array is freed (its address would
        reach copies and kernels as a dangling pointer)."""
        if self.handle is None:
            raise ValueError("this DeviceArray was freed")
        return int(self.handle)

    @property
    def size(self) -> int:
        return math.prod(self.shape)

    @property
    def nbytes(self) -> int:
        return self.size * self.dtype.itemsize

    def __repr__(self):
        if self.handle is None:
            return f"<DeviceArray shape={self.shape} dtype={self.dtype}, freed>"
        where = f"{self.ptr:#x} on device {self.device_id}"
        return f"<DeviceArray shape={self.shape} dtype={self.dtype} at {where}>"

    def __int__(self):
        return self.ptr

    def __len__(self):
        return self.shape[0] if self.shape else 1

    # -- copies ---------------------------------------------------------------------------

    def copy_from(self, host, stream: Stream | None = None) -> DeviceArray:
        """Copies a host array or buffer of the same size in (asynchronously on `stream`)."""
        src = np.ascontiguousarray(host)
        if src.nbytes != self.nbytes:
            raise ValueError(f"{src.nbytes} bytes do not fit an array of {self.nbytes}")
        self._copy(self.ptr, src, src.nbytes, hip.hipMemcpyKind.hipMemcpyHostToDevice, stream)
        return self

    def copy_to(self, host, stream: Stream | None = None):
        """Copies into a writable host array or buffer of the same size."""
        dst = np.asarray(host)
        if not dst.flags.c_contiguous or not dst.flags.writeable:
            raise ValueError("the destination must be a writable C-contiguous array")
        if dst.nbytes != self.nbytes:
            raise ValueError(f"an array of {self.nbytes} bytes does not fit {dst.nbytes}")
        self._copy(dst, self.ptr, self.nbytes, hip.hipMemcpyKind.hipMemcpyDeviceToHost, stream)
        return host

    def to_numpy(self, stream: Stream | None = None) -> np.ndarray:
        out = np.empty(self.shape, self.dtype)
        self.copy_to(out, stream)
        if stream is not None:
            stream.sync()
        return out

    def copy(self) -> DeviceArray:
        out = DeviceArray(self.shape, self.dtype, self.device_id)
        self._copy(out.ptr, self.ptr, self.nbytes, hip.hipMemcpyKind.hipMemcpyDeviceToDevice, None)
        return out

    @staticmethod
    def _copy(dst, src, nbytes, kind, stream):
        if nbytes == 0:
            return
        if stream is None:
            check("hipMemcpy", hip.hipMemcpy(dst, src, nbytes, kind))
        else:
            check("hipMemcpyAsync", hip.hipMemcpyAsync(dst, src, nbytes, kind, stream.handle))

    @classmethod
    def from_numpy(
        cls, host, device: Device | int | None = None, stream: Stream | None = None
    ) -> DeviceArray:
        src = np.ascontiguousarray(host)
        return cls(src.shape, src.dtype, device).copy_from(src, stream)

    def free(self) -> None:
        """Frees the memory now; the array is unusable afterwards (`.ptr`, copies and the
        array interfaces raise ValueError), and a second free does nothing."""
        if self._finalizer is not None:
            self._finalizer()
        self._owner = None
        self.handle = None

    # -- interchange ----------------------------------------------------------------------

    @property
    def __cuda_array_interface__(self) -> dict:
        return {
            "shape": self.shape,
            "typestr": self.dtype.str,
            "data": (self.ptr, False),
            "strides": None,
            "version": 3,
        }

    def __dlpack_device__(self) -> tuple[int, int]:
        kind = _dlpack.gpu_kind()
        return kind, self.device_id

    def __dlpack__(self, stream=None, max_version=None, dl_device=None, copy=None):
        """A DLPack capsule over this memory (no copy). Work here is synchronous unless a
        stream was given, so the consumer's stream need not wait."""
        if copy:
            raise BufferError("hip.core's DLPack export does not copy")
        if dl_device is not None and tuple(dl_device) != self.__dlpack_device__():
            raise BufferError(f"the array lives on {self.__dlpack_device__()}, not {tuple(dl_device)}")
        versioned = max_version is not None and tuple(max_version) >= (1, 0)
        return _dlpack.to_capsule(
            self.ptr, self.shape, self.dtype, self.__dlpack_device__(), self, None, versioned
        )

    @classmethod
    def from_dlpack(cls, obj) -> DeviceArray:
        """The device array `obj` (a PyTorch or CuPy tensor, anything with `__dlpack__`) holds,
        without a copy: this array keeps the producer's memory alive."""
        device_type, device_id = obj.__dlpack_device__()
        ours = _dlpack.gpu_kind()
        if int(device_type) != ours:
            theirs = int(device_type)
            raise BufferError(f"the tensor lives on DLPack device type {theirs}, not {ours} (this GPU)")
        imported = _dlpack.Imported(obj.__dlpack__())
        if not imported.is_c_contiguous():
            imported.release()
            raise ValueError("only C-contiguous DLPack tensors can be taken without a copy")
        return cls._view(imported.data, imported.shape, imported.dtype, device_ordinal(device_id), imported)
