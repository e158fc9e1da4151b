"""`StridedMemoryView` and `args_viewable_as_strided_memory` (cuda.core's `cuda.core.utils`):
a view of any array's memory (DLPack, `__cuda_array_interface__`, `__array_interface__`, or a
`Buffer`) as pointer, shape, strides and dtype, without a copy."""

from __future__ import annotations

import functools
import warnings

import numpy as np

from hip import hip

from . import _dlpack
from ._utils.cuda_utils import CUDAError, check


def _kinds() -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """DLPack's device types of host, device, and shared (pinned or managed) memory."""
    d = _dlpack
    return (d.CPU,), (d.CUDA, d.ROCM), (d.CUDA_HOST, d.CUDA_MANAGED, d.ROCM_HOST)


class StridedMemoryView:
    """`ptr`, `shape`, `strides` (in elements; None when C-contiguous), `dtype`, `device_id`
    (-1 for the host), `is_device_accessible`, `readonly`, and the `exporting_obj` kept alive."""

    def __init__(self, obj=None, stream_ptr=None):
        if obj is None:
            return
        warnings.warn(
            "StridedMemoryView(obj) is deprecated; use StridedMemoryView.from_any_interface(obj, stream_ptr)",
            DeprecationWarning,
            stacklevel=2,
        )
        view = StridedMemoryView.from_any_interface(obj, stream_ptr)
        self.__dict__.update(view.__dict__)

    @classmethod
    def _make(cls, ptr, shape, strides, dtype, device_id, device_accessible, readonly, owner, keep=None):
        self = cls.__new__(cls)
        self.ptr, self.shape, self.strides = (
            int(ptr),
            tuple(shape),
            None if strides is None else tuple(strides),
        )
        self.dtype = None if dtype is None else np.dtype(dtype)
        self.device_id, self.is_device_accessible, self.readonly = device_id, device_accessible, readonly
        self.exporting_obj, self._keep = owner, keep
        return self

    @property
    def size(self) -> int:
        n = 1
        for d in self.shape:
            n *= d
        return n

    @classmethod
    def from_dlpack(cls, obj, stream_ptr=None) -> StridedMemoryView:
        kind, device_id = (int(v) for v in obj.__dlpack_device__())
        host_kinds, device_kinds, shared_kinds = _kinds()
        if kind in host_kinds + device_kinds and stream_ptr is None:
            raise BufferError("stream=None is ambiguous with view()")
        if kind not in host_kinds + device_kinds + shared_kinds:
            raise BufferError("device not supported")
        stream = None if stream_ptr in (None, -1) or kind in host_kinds else int(stream_ptr)
        try:
            capsule = obj.__dlpack__(stream=stream)
        except TypeError:
            capsule = obj.__dlpack__()
        tensor = _dlpack.Imported(capsule)
        host = kind in host_kinds
        return cls._make(
            tensor.data,
            tensor.shape,
            None,
            tensor.dtype,
            -1 if host else device_id,
            not host,
            False,
            obj,
            tensor,
        )

    @classmethod
    def from_cuda_array_interface(cls, obj, stream_ptr=None) -> StridedMemoryView:
        cai = obj.__cuda_array_interface__
        if cai.get("version", 0) < 3:
            raise BufferError("only CUDA Array Interface v3 or above is supported")
        if cai.get("mask") is not None:
            raise BufferError("mask is not supported")
        if stream_ptr is None:
            raise BufferError("stream=None is ambiguous with view()")
        dtype = np.dtype(cai["typestr"])
        ptr, readonly = cai["data"]
        strides = cai.get("strides")
        if strides is not None:
            strides = tuple(s // dtype.itemsize for s in strides)
        return cls._make(ptr, cai["shape"], strides, dtype, _device_of(ptr), True, bool(readonly), obj)

    @classmethod
    def from_array_interface(cls, obj) -> StridedMemoryView:
        ai = obj.__array_interface__
        if ai.get("version", 0) < 3:
            raise BufferError("only NumPy Array Interface v3 or above is supported")
        if ai.get("mask") is not None:
            raise BufferError("mask is not supported")
        dtype = np.dtype(ai["typestr"])
        ptr, readonly = ai["data"]
        strides = ai.get("strides")
        if strides is not None:
            strides = tuple(s // dtype.itemsize for s in strides)
        return cls._make(ptr, ai["shape"], strides, dtype, -1, False, bool(readonly), obj)

    @classmethod
    def from_any_interface(cls, obj, stream_ptr=None) -> StridedMemoryView:
        if hasattr(obj, "__dlpack__"):
            return cls.from_dlpack(obj, stream_ptr)
        return cls.from_cuda_array_interface(obj, stream_ptr)

    @classmethod
    def from_buffer(cls, buffer, shape, strides=None, *, itemsize=None, dtype=None, is_readonly=False):
        if dtype is None and itemsize is None:
            raise ValueError("either itemsize or dtype must be given")
        dtype = np.dtype(dtype) if dtype is not None else np.dtype(f"V{itemsize}")
        if itemsize is not None and itemsize != dtype.itemsize:
            raise ValueError(f"itemsize {itemsize} does not match dtype {dtype} ({dtype.itemsize} bytes)")
        shape = tuple(shape)
        extent = _extent(shape, strides) * dtype.itemsize
        if extent > buffer.size:
            raise ValueError(f"the view covers {extent} bytes, more than the buffer's {buffer.size}")
        device = buffer.is_device_accessible and not buffer.is_host_accessible
        return cls._make(
            buffer.handle,
            shape,
            strides,
            dtype,
            buffer.device_id if device else -1,
            buffer.is_device_accessible,
            is_readonly,
            buffer,
        )

    def view(self, layout=None, dtype=None) -> StridedMemoryView:
        if layout is None and dtype is None:
            return self
        raise NotImplementedError("Sorry, not supported: a view with another layout or dtype")

    def __dlpack_device__(self) -> tuple[int, int]:
        if self.device_id < 0:
            return _dlpack.CPU, 0
        return _dlpack.gpu_kind(), self.device_id

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        """A DLPack capsule over the viewed memory (no copy)."""
        if copy is True:
            raise BufferError("Sorry, not supported: copy=True")
        versioned = max_version is not None and tuple(max_version) >= (1, 0)
        device = self.__dlpack_device__()
        return _dlpack.to_capsule(self.ptr, self.shape, self.dtype, device, self, self.strides, versioned)

    def as_tensor_map(self, *args, **kwargs):
        raise CUDAError("HIP has no tensor maps (CUDA's TMA descriptors)")

    def copy_from(self, *args, **kwargs):
        raise NotImplementedError("Sorry, not supported: copy_from")

    def copy_to(self, *args, **kwargs):
        raise NotImplementedError("Sorry, not supported: copy_to")

    def __repr__(self):
        return (
            f"StridedMemoryView(ptr={self.ptr:#x}, shape={self.shape}, strides={self.strides}, "
            f"dtype={self.dtype}, device_id={self.device_id}, "
            f"is_device_accessible={self.is_device_accessible}, readonly={self.readonly})"
        )


def _extent(shape, strides) -> int:
    if not shape:
        return 1
    if strides is None:
        n = 1
        for d in shape:
            n *= d
        return n
    return 1 + sum((d - 1) * s for d, s in zip(shape, strides, strict=True) if d > 0)


def _device_of(ptr: int) -> int:
    attrs = hip.hipPointerAttribute_t()
    if int(hip.hipPointerGetAttributes(attrs, ptr)[0]) != 0:
        return check("hipGetDevice", hip.hipGetDevice())
    return int(attrs.device)


class _StridedMemoryViewProxy:
    def __init__(self, obj):
        self.obj = obj

    def view(self, stream_ptr=None) -> StridedMemoryView:
        if hasattr(self.obj, "__dlpack__"):
            return StridedMemoryView.from_dlpack(self.obj, stream_ptr)
        if hasattr(self.obj, "__cuda_array_interface__"):
            return StridedMemoryView.from_cuda_array_interface(self.obj, stream_ptr)
        return StridedMemoryView.from_array_interface(self.obj)


def args_viewable_as_strided_memory(arg_indices: tuple):
    """Decorates a function so that the positional arguments at `arg_indices` get a
    `.view(stream_ptr)` giving their `StridedMemoryView`."""

    def decorator(func):
        @functools.wraps(func)
        def wrapped(*args, **kwargs):
            args = list(args)
            for i in arg_indices:
                args[i] = _StridedMemoryViewProxy(args[i])
            return func(*args, **kwargs)

        return wrapped

    return decorator
