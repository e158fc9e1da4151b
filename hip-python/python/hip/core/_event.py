"""`Event` and `EventOptions` (cuda.core's), over HIP events."""

from __future__ import annotations

import dataclasses
import weakref

from hip import hip

from . import _ordinal
from ._utils.cuda_utils import CUDAError, check


@dataclasses.dataclass
class EventOptions:
    """`timing_enabled`: the event records a time (`end - start`); `blocking_sync`: `sync`
    blocks the thread rather than spin; `ipc_enabled`: shareable between processes."""

    timing_enabled: bool | None = False
    blocking_sync: bool | None = False
    ipc_enabled: bool | None = False

    def _flags(self) -> int:
        if self.ipc_enabled and self.timing_enabled:
            raise TypeError("IPC-enabled events cannot use timing.")
        flags = 0 if self.timing_enabled else hip.hipEventDisableTiming
        if self.blocking_sync:
            flags |= hip.hipEventBlockingSync
        if self.ipc_enabled:
            flags |= hip.hipEventInterprocess
        return flags


class Event:
    """A point in a stream's work (`Stream.record`): `end - start` is the time between two
    in milliseconds; `is_done` and `sync` ask and wait."""

    __slots__ = ("_handle", "_options", "_device_id", "_finalizer", "__weakref__")

    def __new__(cls, *args, **kwargs):
        raise RuntimeError("Event objects cannot be instantiated directly. Please use Stream APIs (record).")

    @classmethod
    def _init(cls, options: EventOptions, device_id: int | None) -> Event:
        self = object.__new__(cls)
        self._options, self._device_id = options, device_id
        self._handle = check("hipEventCreateWithFlags", hip.hipEventCreateWithFlags(options._flags()))
        self._finalizer = weakref.finalize(self, hip.hipEventDestroy, self._handle)
        self._finalizer.atexit = False
        return self

    @property
    def handle(self):
        return self._handle

    @property
    def is_timing_enabled(self) -> bool:
        return bool(self._options.timing_enabled)

    @property
    def is_blocking_sync(self) -> bool:
        return bool(self._options.blocking_sync)

    @property
    def is_ipc_enabled(self) -> bool:
        return bool(self._options.ipc_enabled)

    @property
    def device(self):
        return None if self._device_id is None else _ordinal.device(self._device_id)

    def sync(self) -> None:
        """Waits until the work before the event is done."""
        check("hipEventSynchronize", hip.hipEventSynchronize(self._handle))

    @property
    def is_done(self) -> bool:
        (status,) = hip.hipEventQuery(self._handle)
        if status == hip.hipError_t.hipErrorNotReady:
            return False
        check("hipEventQuery", (status,))
        return True

    def __sub__(self, start: Event) -> float:
        """Milliseconds from event `start` to this one (both recorded with timing)."""
        if not isinstance(start, Event):
            return NotImplemented
        status, ms = hip.hipEventElapsedTime(start._handle, self._handle)
        if int(status) == 0:
            return ms
        if status == hip.hipError_t.hipErrorNotReady:
            raise RuntimeError("One or both events have not completed; call sync() on them first.")
        if not (start.is_timing_enabled and self.is_timing_enabled):
            raise RuntimeError(
                "Both Events must be created with timing enabled in order to subtract them; "
                "use EventOptions(timing_enabled=True) when creating both events."
            )
        if status in (hip.hipError_t.hipErrorInvalidHandle, hip.hipError_t.hipErrorInvalidResourceHandle):
            raise RuntimeError(
                "Both Events must be recorded before they can be subtracted; call Stream.record() first."
            )
        raise CUDAError(f"{status.name} (hipEventElapsedTime)", status)

    def __rsub__(self, other):
        return NotImplemented

    def close(self) -> None:
        self._finalizer()

    def __eq__(self, other):
        return isinstance(other, Event) and int(other._handle) == int(self._handle)

    def __hash__(self):
        return hash(int(self._handle))

    def __repr__(self):
        return f"<Event handle={int(self._handle):#x}>"
