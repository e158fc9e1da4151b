"""DLPack (https://dmlc.github.io/dlpack/latest/) in both directions, over ctypes.

A producer hands out a PyCapsule named "dltensor" holding a `DLManagedTensor *`; the consumer
renames it "used_dltensor" and calls the tensor's deleter when it is done with the memory.
A capsule no one consumed calls the deleter when it is collected.
"""

from __future__ import annotations

import ctypes

import numpy as np

from hip import _native

#: DLPack device types: the host, CUDA (HIP's NVIDIA platform), pinned host memory and
#: managed memory of CUDA, ROCm and ROCm's pinned host memory.
CPU, CUDA, CUDA_HOST, CUDA_MANAGED, ROCM, ROCM_HOST = 1, 2, 3, 13, 10, 11


def _nvidia() -> bool:
    return _native.platform() == "nvidia"


def gpu_kind() -> int:
    """The device type of this platform's device memory."""
    return CUDA if _nvidia() else ROCM


def gpu_host_kind(managed: bool) -> int:
    """The device type of memory both sides reach: managed, else pinned host memory. ROCm has
    no managed type: its managed memory is described as the device's."""
    if _nvidia():
        return CUDA_MANAGED if managed else CUDA_HOST
    return ROCM if managed else ROCM_HOST


class DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class DLTensor(ctypes.Structure):
    _fields_ = [
        ("data", ctypes.c_void_p),
        ("device", DLDevice),
        ("ndim", ctypes.c_int32),
        ("dtype", DLDataType),
        ("shape", ctypes.POINTER(ctypes.c_int64)),
        ("strides", ctypes.POINTER(ctypes.c_int64)),
        ("byte_offset", ctypes.c_uint64),
    ]


_DELETER = ctypes.CFUNCTYPE(None, ctypes.c_void_p)


class DLManagedTensor(ctypes.Structure):
    _fields_ = [("dl_tensor", DLTensor), ("manager_ctx", ctypes.c_void_p), ("deleter", ctypes.c_void_p)]


#: DLPack type codes by NumPy kind, and back.
_CODES = {"i": 0, "u": 1, "f": 2, "c": 5, "b": 6}
_KINDS = {v: k for k, v in _CODES.items()}

_NAME = b"dltensor"
_USED = b"used_dltensor"

_api = ctypes.pythonapi
_api.PyCapsule_New.restype = ctypes.py_object
_api.PyCapsule_New.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
_api.PyCapsule_GetPointer.restype = ctypes.c_void_p
_api.PyCapsule_GetPointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
_api.PyCapsule_SetName.restype = ctypes.c_int
_api.PyCapsule_SetName.argtypes = [ctypes.py_object, ctypes.c_char_p]
# Called from the capsule's destructor with the dying object: no reference counting there.
_RAW = ctypes.c_void_p, ctypes.c_char_p
_is_valid = ctypes.PYFUNCTYPE(ctypes.c_int, *_RAW)(("PyCapsule_IsValid", _api))
_get_pointer = ctypes.PYFUNCTYPE(ctypes.c_void_p, *_RAW)(("PyCapsule_GetPointer", _api))

#: What each tensor handed out keeps alive (its struct, shape, and the array), by address.
_LIVE: dict[int, tuple] = {}


@_DELETER
def _delete(address):
    _LIVE.pop(address, None)


@ctypes.CFUNCTYPE(None, ctypes.c_void_p)
def _capsule_destructor(capsule):
    # Not consumed (still "dltensor"): nobody else will call the deleter.
    if _is_valid(capsule, _NAME):
        _delete(_get_pointer(capsule, _NAME))


def dtype_of(dtype: np.dtype) -> DLDataType:
    code = _CODES.get(dtype.kind)
    if code is None:
        raise TypeError(f"DLPack has no type for {dtype}")
    return DLDataType(code, dtype.itemsize * 8, 1)


def to_capsule(data: int, shape: tuple[int, ...], dtype: np.dtype, device: tuple[int, int], owner):
    """A "dltensor" capsule over C-contiguous memory at `data`; `owner` stays alive until the
    consumer is done with it."""
    ndim = len(shape)
    dims = (ctypes.c_int64 * max(ndim, 1))(*shape)
    managed = DLManagedTensor()
    tensor = managed.dl_tensor
    tensor.data, tensor.ndim, tensor.dtype = data, ndim, dtype_of(np.dtype(dtype))
    tensor.device = DLDevice(*device)
    tensor.shape = ctypes.cast(dims, ctypes.POINTER(ctypes.c_int64))
    tensor.strides = None  # C-contiguous
    managed.deleter = ctypes.cast(_delete, ctypes.c_void_p)
    address = ctypes.addressof(managed)
    _LIVE[address] = (managed, dims, owner)
    return _api.PyCapsule_New(address, _NAME, ctypes.cast(_capsule_destructor, ctypes.c_void_p))


class Imported:
    """A tensor taken from a "dltensor" capsule: its memory stays valid while this lives."""

    def __init__(self, capsule):
        self._address = 0
        address = _api.PyCapsule_GetPointer(capsule, _NAME)  # ValueError if not a dltensor
        _api.PyCapsule_SetName(capsule, _USED)
        self._managed = DLManagedTensor.from_address(address)
        self._address = address
        tensor = self._managed.dl_tensor
        self.device = (tensor.device.device_type, tensor.device.device_id)
        self.shape = tuple(tensor.shape[i] for i in range(tensor.ndim))
        kind = _KINDS.get(tensor.dtype.code)
        if kind is None or tensor.dtype.lanes != 1:
            self.release()
            code, bits = tensor.dtype.code, tensor.dtype.bits
            raise TypeError(f"DLPack type code {code} ({bits} bits) has no NumPy dtype")
        self.dtype = np.dtype(f"{kind}{tensor.dtype.bits // 8}") if kind != "b" else np.dtype(bool)
        self.data = (tensor.data or 0) + tensor.byte_offset
        if tensor.strides and not self._c_contiguous(tensor):
            self.release()
            raise ValueError("only C-contiguous DLPack tensors can be taken without a copy")

    def _c_contiguous(self, tensor) -> bool:
        expected = 1
        for i in reversed(range(tensor.ndim)):
            if self.shape[i] != 1 and tensor.strides[i] != expected:
                return False
            expected *= self.shape[i]
        return True

    def release(self) -> None:
        """Tells the producer the memory is no longer used (once)."""
        if self._address and self._managed.deleter:
            _DELETER(self._managed.deleter)(self._address)
        self._address = 0

    def __del__(self):
        self.release()
