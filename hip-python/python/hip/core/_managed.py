"""Managed memory's places and hints (cuda.core's `ManagedBuffer`, its locations, and the
`utils` batch calls): where memory is preferred, read mostly, accessed from, and prefetched
to, over `hipMemAdvise`, `hipMemRangeGetAttribute` and `hipMemPrefetchAsync`. HIP has no
host NUMA node as a place, and no batched discard: asking for either raises."""

from __future__ import annotations

import collections.abc
import dataclasses
import sys

from hip import hip

from . import _memory, _ordinal
from ._host import Host
from ._memory import Buffer
from ._stream import Stream_accept
from ._utils.cuda_utils import check
from ._utils.version import binding_version, driver_version

_HOST_ID, _NO_DEVICE = -1, -2  # hipCpuDeviceId, hipInvalidDeviceId as the range attributes give them


@dataclasses.dataclass(frozen=True)
class _LocSpec:
    """A place: `kind` "device" (`id` its ordinal), "host", "host_numa" (`id` the node) or
    "host_numa_current"."""

    kind: str
    id: int = 0


def _coerce_location(value, *, allow_none: bool = False) -> _LocSpec | None:
    """`value` (a Device, a Host, or None where `allow_none`) as a place."""
    if value is None:
        if allow_none:
            return None
        raise ValueError("location is required")
    if isinstance(value, _ordinal.device_class):
        return _LocSpec("device", value.device_id)
    if isinstance(value, Host):
        if value.numa_id is None and not value.is_numa_current:
            return _LocSpec("host", _HOST_ID)
        if binding_version() < (13, 0, 0) or driver_version() < (13, 0, 0):
            raise TypeError(
                "Host(numa_id=...) / Host.numa_current() require both cuda-bindings 13.0+ and a CUDA 13+ "
                "runtime driver; use Host() instead"
            )
        if value.is_numa_current:
            return _LocSpec("host_numa_current")
        return _LocSpec("host_numa", value.numa_id)
    raise TypeError(f"location must be a Device, Host, or None; got {type(value).__name__}")


def _device_or_host(spec: _LocSpec, advice: str) -> int:
    """The device argument HIP's calls take for a place: an ordinal, or -1 for the host."""
    if spec.kind not in ("device", "host"):
        raise ValueError(f"advise {advice} does not support location_type='{spec.kind}'")
    return spec.id


def _place(value: int):
    """A range attribute's place as cuda.core answers it: a Device, Host(), or None."""
    if value == _NO_DEVICE:
        return None
    return Host() if value == _HOST_ID else _ordinal.device(value)


def _get_int_attr(buf: Buffer, attribute) -> int:
    """One 32-bit range attribute of `buf` (`hipMemRangeGetAttribute`)."""
    cell = bytearray(4)
    check(
        "hipMemRangeGetAttribute", hip.hipMemRangeGetAttribute(cell, 4, int(attribute), buf.handle, buf.size)
    )
    return int.from_bytes(cell, sys.byteorder, signed=True)


def _advise(buf: Buffer, advice, device: int) -> None:
    check("hipMemAdvise", hip.hipMemAdvise(buf.handle, buf.size, advice, device))


class ManagedBuffer(Buffer):
    """A buffer of managed memory, with its hints: `read_mostly`, `preferred_location`,
    `accessed_by`, and `prefetch` to a place. Each checks the memory is managed."""

    __slots__ = ()

    @staticmethod
    def from_handle(ptr, size: int, mr=None, owner=None) -> ManagedBuffer:
        if mr is not None and owner is not None:
            raise ValueError("owner and memory resource cannot be both specified together")
        return ManagedBuffer._init(int(ptr) if ptr is not None else 0, size, mr=mr, owner=owner)

    @property
    def is_managed(self) -> bool:
        if self._mr is not None and self._mr.is_managed:
            return True
        attrs = hip.hipPointerAttribute_t()
        status = hip.hipPointerGetAttributes(attrs, self._ptr)[0]
        return status == 0 and bool(attrs.isManaged)

    def _require_managed(self, what: str) -> None:
        if not self.is_managed:
            raise ValueError(f"{what} requires a managed-memory allocation")

    @property
    def read_mostly(self) -> bool:
        self._require_managed("read_mostly")
        return _get_int_attr(self, hip.hipMemRangeAttribute.hipMemRangeAttributeReadMostly) != 0

    @read_mostly.setter
    def read_mostly(self, value: bool) -> None:
        self._require_managed("read_mostly")
        advice = hip.hipMemoryAdvise
        _advise(self, advice.hipMemAdviseSetReadMostly if value else advice.hipMemAdviseUnsetReadMostly, 0)

    @property
    def preferred_location(self):
        self._require_managed("preferred_location")
        return _place(_get_int_attr(self, hip.hipMemRangeAttribute.hipMemRangeAttributePreferredLocation))

    @preferred_location.setter
    def preferred_location(self, value) -> None:
        self._require_managed("preferred_location")
        spec = _coerce_location(value, allow_none=True)
        advice = hip.hipMemoryAdvise
        if spec is None:
            _advise(self, advice.hipMemAdviseUnsetPreferredLocation, 0)
        else:
            _advise(
                self, advice.hipMemAdviseSetPreferredLocation, _device_or_host(spec, "set_preferred_location")
            )

    @property
    def accessed_by(self) -> AccessedBySetProxy:
        self._require_managed("accessed_by")
        return AccessedBySetProxy(self)

    @accessed_by.setter
    def accessed_by(self, places) -> None:
        proxy = self.accessed_by
        wanted = set(places)
        for place in wanted:
            _device_or_host(_coerce_location(place), "set_accessed_by")
        for place in set(proxy) - wanted:
            proxy.discard(place)
        for place in wanted - set(proxy):
            proxy.add(place)

    def prefetch(self, location, *, stream) -> None:
        """Moves the memory to `location` (a Device or Host()) in `stream`'s order."""
        self._require_managed("prefetch")
        spec = _coerce_location(location)
        device = _device_or_host(spec, "prefetch")
        stream = Stream_accept(stream)
        check("hipMemPrefetchAsync", hip.hipMemPrefetchAsync(self._ptr, self._size, device, stream.handle))

    def discard(self, *, stream) -> None:
        self._require_managed("discard")
        raise NotImplementedError("discard needs CUDA 13's batched discard, which HIP does not have")

    def discard_prefetch(self, location, *, stream) -> None:
        self._require_managed("discard_prefetch")
        raise NotImplementedError("discard_prefetch needs CUDA 13's batched discard, which HIP does not have")


_memory.managed_buffer_class = ManagedBuffer


class AccessedBySetProxy(collections.abc.MutableSet):
    """The places a managed buffer is mapped for (`hipMemAdviseSetAccessedBy`), as a live set."""

    def __init__(self, buf: ManagedBuffer):
        self._buf = buf

    def _places(self) -> set:
        count = check("hipGetDeviceCount", hip.hipGetDeviceCount()) + 1
        cells = bytearray(4 * count)
        attribute = hip.hipMemRangeAttribute.hipMemRangeAttributeAccessedBy
        buf = self._buf
        check(
            "hipMemRangeGetAttribute",
            hip.hipMemRangeGetAttribute(cells, len(cells), attribute, buf.handle, buf.size),
        )
        ids = [int.from_bytes(cells[i : i + 4], sys.byteorder, signed=True) for i in range(0, len(cells), 4)]
        return {_place(i) for i in ids if i != _NO_DEVICE}

    def __contains__(self, place) -> bool:
        return place in self._places()

    def __iter__(self):
        return iter(self._places())

    def __len__(self) -> int:
        return len(self._places())

    def add(self, place) -> None:
        device = _device_or_host(_coerce_location(place), "set_accessed_by")
        _advise(self._buf, hip.hipMemoryAdvise.hipMemAdviseSetAccessedBy, device)

    def discard(self, place) -> None:
        spec = _coerce_location(place)
        if spec.kind not in ("device", "host"):
            return  # never a member: nothing to remove
        _advise(self._buf, hip.hipMemoryAdvise.hipMemAdviseUnsetAccessedBy, spec.id)

    def __repr__(self):
        return f"AccessedBySetProxy({self._places()!r})"


def _buffers_and_places(name: str, buffers, locations, *, need_locations: bool):
    if isinstance(buffers, Buffer) or not isinstance(buffers, collections.abc.Sequence):
        raise TypeError(f"{name}: pass a sequence of Buffers; got {type(buffers).__name__}")
    if not buffers:
        raise ValueError(f"{name}: no buffers given")
    if not need_locations:
        return list(buffers), None
    if isinstance(locations, collections.abc.Sequence) and not isinstance(locations, (str, bytes)):
        if len(locations) != len(buffers):
            raise ValueError(
                f"{name}: location length {len(locations)} does not match targets length {len(buffers)}"
            )
        return list(buffers), list(locations)
    return list(buffers), [locations] * len(buffers)


def prefetch_batch(stream, buffers, locations) -> None:
    """Prefetches each buffer to its location (one for all, or one per buffer)."""
    buffers, locations = _buffers_and_places("prefetch_batch", buffers, locations, need_locations=True)
    for buf, place in zip(buffers, locations, strict=True):
        ManagedBuffer.prefetch(buf, place, stream=stream)


def discard_batch(stream, buffers) -> None:
    _buffers_and_places("discard_batch", buffers, None, need_locations=False)
    raise NotImplementedError("discard_batch needs CUDA 13's batched discard, which HIP does not have")


def discard_prefetch_batch(stream, buffers, locations) -> None:
    _buffers_and_places("discard_prefetch_batch", buffers, locations, need_locations=True)
    raise NotImplementedError(
        "discard_prefetch_batch needs CUDA 13's batched discard, which HIP does not have"
    )
