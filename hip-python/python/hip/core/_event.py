"""`Event` and `EventOptions` (cuda.core's), over HIP events."""

from __future__ import annotations

import dataclasses

from hip import hip

from . import _context, _ordinal
from ._utils.cuda_utils import CUDAError, Exit, check


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


#: The options of events made without any (`Stream.record()`'s): timing off.
_DEFAULT_OPTIONS = EventOptions()


class Event:
    """A point in a stream's work (`Stream.record`): `end - start` is the time between two
    in milliseconds; `is_done` and `sync` ask and wait."""

    __slots__ = ("_handle", "_options", "_device_id", "__weakref__")

    def __new__(cls, *args, **kwargs):
        raise RuntimeError("Event objects cannot be instantiated directly. Please use Stream APIs (record).")

    @classmethod
    def _init(cls, options: EventOptions | None, device_id: int | None) -> Event:
        """A new event (`options` None: timing off, as `Stream.record()` makes them)."""
        self = object.__new__(cls)
        if options is None:
            options, flags = _DEFAULT_OPTIONS, hip.hipEventDisableTiming
        else:
            flags = options._flags()
        self._options, self._device_id, self._handle = options, device_id, None
        status, handle = hip.hipEventCreateWithFlags(flags)
        if status != 0:
            check("hipEventCreateWithFlags", (status,))
        self._handle = handle
        return self

    def __del__(self, _exit=Exit):  # `Exit` bound now: module globals are cleared at exit
        if not _exit.started:
            self.close()

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
        if status == 0:
            return True
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

    def __isub__(self, other):
        return NotImplemented

    @property
    def context(self):
        """The context of the event's device (HIP's primary context)."""
        device_id = self._device_id
        if device_id is None:
            device_id = check("hipGetDevice", hip.hipGetDevice())
        return _context.Context._current(device_id)

    @property
    def ipc_descriptor(self) -> IPCEventDescriptor:
        """What another process opens this event with (`Event.from_ipc_descriptor`)."""
        if not self.is_ipc_enabled:
            raise RuntimeError(f"Event {self!r} is not IPC-enabled")
        handle = hip.hipIpcEventHandle_t()
        check("hipIpcGetEventHandle", hip.hipIpcGetEventHandle(handle, self._handle))
        return IPCEventDescriptor._init(bytes(handle.reserved), self.is_blocking_sync)

    @classmethod
    def from_ipc_descriptor(cls, ipc_descriptor: IPCEventDescriptor) -> Event:
        """The event another process shared (`ipc_descriptor`), opened here."""
        handle = hip.hipIpcEventHandle_t()
        handle.reserved = ipc_descriptor._reserved
        self = object.__new__(cls)
        self._options = EventOptions(blocking_sync=ipc_descriptor._is_blocking_sync, ipc_enabled=True)
        self._device_id, self._handle = None, None
        self._handle = check("hipIpcOpenEventHandle", hip.hipIpcOpenEventHandle(handle))
        return self

    def close(self) -> None:
        """Destroys the event now; a second close does nothing."""
        handle, self._handle = self._handle, None
        if handle is not None:
            hip.hipEventDestroy(handle)

    def _key(self) -> int:
        return 0 if self._handle is None else int(self._handle)

    def __eq__(self, other):
        return isinstance(other, Event) and other._key() == self._key()

    def __hash__(self):
        return hash(self._key())

    def __repr__(self):
        return f"<Event handle={self._key():#x}>"


class IPCEventDescriptor:
    """An IPC-enabled event as another process opens it: HIP's event handle bytes."""

    __slots__ = ("_reserved", "_is_blocking_sync")

    def __new__(cls, *args, **kwargs):
        raise RuntimeError(
            "IPCEventDescriptor objects cannot be instantiated directly. Please use Event APIs."
        )

    @classmethod
    def _init(cls, reserved: bytes, is_blocking_sync: bool) -> IPCEventDescriptor:
        self = object.__new__(cls)
        self._reserved, self._is_blocking_sync = bytes(reserved), bool(is_blocking_sync)
        return self

    def __eq__(self, other):
        if not isinstance(other, IPCEventDescriptor):
            return NotImplemented
        return self._reserved == other._reserved

    def __hash__(self):
        return hash(self._reserved)

    def __reduce__(self):
        return IPCEventDescriptor._init, (self._reserved, self._is_blocking_sync)
