"""`GraphMemoryResource` (cuda.core's): memory allocated inside a graph being captured, from
the device's graph memory pool (`hipMallocAsync` on a capturing stream adds an allocation
node), and the pool's usage figures (`hipDeviceGetGraphMemAttribute`)."""

from __future__ import annotations

import sys
import threading

from hip import hip

from . import _ordinal
from ._memory import Buffer, MemoryResource
from ._stream import Stream_accept
from ._utils import names
from ._utils.cuda_utils import check

_lock = threading.Lock()
_resources: dict[int, GraphMemoryResource] = {}


class GraphMemoryResource(MemoryResource):
    """Allocations that are nodes of the graph being captured; one resource per device."""

    def __new__(cls, device_id):
        ordinal = _ordinal.device_ordinal(device_id)
        with _lock:
            mr = _resources.get(ordinal)
            if mr is None:
                mr = _resources[ordinal] = object.__new__(cls)
                mr._device_id = ordinal
        return mr

    def allocate(self, size: int, *, stream) -> Buffer:
        stream = Stream_accept(stream)
        _require_capture(stream)
        ptr = check("hipMallocAsync", hip.hipMallocAsync(size, stream.handle))
        return Buffer._init(int(ptr) if ptr is not None else 0, size, mr=self, stream=stream)

    def deallocate(self, ptr, size: int, *, stream) -> None:
        stream = Stream_accept(stream)
        check("hipFreeAsync", hip.hipFreeAsync(int(ptr), stream.handle))

    def close(self) -> None:
        """Nothing to release: the pool is the device's."""

    def trim(self) -> None:
        """Gives memory the graphs no longer use back to the system (`hipDeviceGraphMemTrim`)."""
        check("hipDeviceGraphMemTrim", hip.hipDeviceGraphMemTrim(self._device_id))

    @property
    def attributes(self) -> GraphMemoryResourceAttributes:
        return GraphMemoryResourceAttributes._init(self._device_id)

    @property
    def device_id(self) -> int:
        return self._device_id

    is_device_accessible = True
    is_host_accessible = False


def _require_capture(stream) -> None:
    status = check("hipStreamIsCapturing", hip.hipStreamIsCapturing(stream.handle))
    if status != hip.hipStreamCaptureStatus.hipStreamCaptureStatusActive:
        raise RuntimeError("GraphMemoryResource cannot perform memory operations on a non-capturing stream.")


class _ReadOnly:
    """A figure of the pool, read each time; setting it is refused as a C extension's
    read-only attribute is."""

    def __set_name__(self, owner, name):
        self._name = name

    def __get__(self, obj, owner=None):
        return self if obj is None else obj._read(self._name)

    def __set__(self, obj, value):
        raise AttributeError(f"attribute '{self._name}' of '{type(obj).__name__}' objects is not writable")


class _ResettableHigh(_ReadOnly):
    """A high-water mark: set to 0 to reset it (`hipDeviceSetGraphMemAttribute`)."""

    def __set__(self, obj, value):
        if value != 0:
            raise AttributeError(f"Attribute '{self._name}' may only be set to zero (got {value}).")
        obj._reset(self._name)


class GraphMemoryResourceAttributes:
    """The device's graph memory pool, in bytes: used and reserved, now and at most."""

    reserved_mem_current = _ReadOnly()
    reserved_mem_high = _ResettableHigh()
    used_mem_current = _ReadOnly()
    used_mem_high = _ResettableHigh()

    def __init__(self, *args, **kwargs):
        raise RuntimeError("GraphMemoryResourceAttributes cannot be instantiated directly.")

    @classmethod
    def _init(cls, device_id: int) -> GraphMemoryResourceAttributes:
        self = object.__new__(cls)
        self._device_id = device_id
        return self

    @staticmethod
    def _member(name: str):
        return getattr(hip.hipGraphMemAttributeType, f"hipGraphMemAttr{names.camel(name)}")

    def _read(self, name: str) -> int:
        cell = bytearray(8)
        check(
            "hipDeviceGetGraphMemAttribute",
            hip.hipDeviceGetGraphMemAttribute(self._device_id, self._member(name), cell),
        )
        return int.from_bytes(cell, sys.byteorder)

    def _reset(self, name: str) -> None:
        cell = bytearray(8)
        check(
            "hipDeviceSetGraphMemAttribute",
            hip.hipDeviceSetGraphMemAttribute(self._device_id, self._member(name), cell),
        )

    def __repr__(self):
        names = ("reserved_mem_current", "reserved_mem_high", "used_mem_current", "used_mem_high")
        return f"GraphMemoryResourceAttributes({', '.join(f'{n}={self._read(n)}' for n in names)})"
