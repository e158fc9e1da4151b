"""Devices, streams and events."""

from __future__ import annotations

import weakref

import hip as _hip_package
from hip import hip

from ._errors import check
from ._memory import Buffer
from ._ordinal import device_ordinal


class Device:
    """A GPU by ordinal (default: the current one). Raises HipError where there is none."""

    def __init__(self, device_id: int | None = None):
        self.device_id = device_ordinal(device_id)
        self._properties = None

    def __repr__(self):
        return f"<Device {self.device_id}: {self.name}>"

    def __eq__(self, other):
        return isinstance(other, Device) and other.device_id == self.device_id

    def __hash__(self):
        return hash(("hip.core.Device", self.device_id))

    def __int__(self):
        return self.device_id

    @property
    def properties(self) -> hip.hipDeviceProp_t:
        """The device's `hipDeviceProp_t` (read once)."""
        if self._properties is None:
            prop = hip.hipDeviceProp_t()
            check("hipGetDeviceProperties", hip.hipGetDeviceProperties(prop, self.device_id))
            self._properties = prop
        return self._properties

    @property
    def name(self) -> str:
        return self.properties.name.decode(errors="replace")

    @property
    def compute_capability(self) -> tuple[int, int]:
        return self.properties.major, self.properties.minor

    @property
    def arch(self) -> str:
        """The target hiprtc compiles for: `gfx90a:sramecc+:xnack-` on AMD, `sm_90` on NVIDIA."""
        if _hip_package.platform() == "nvidia":
            major, minor = self.compute_capability
            return f"sm_{major}{minor}"
        return self.properties.gcnArchName.decode(errors="replace")

    def set_current(self) -> Device:
        check("hipSetDevice", hip.hipSetDevice(self.device_id))
        return self

    def sync(self) -> None:
        self.set_current()
        check("hipDeviceSynchronize", hip.hipDeviceSynchronize())

    def create_stream(self, non_blocking: bool = False) -> Stream:
        self.set_current()
        return Stream(non_blocking=non_blocking)

    def create_event(self, timing: bool = True) -> Event:
        self.set_current()
        return Event(timing=timing)

    def allocate(self, size: int, stream: Stream | None = None):
        """`size` bytes of device memory (a `Buffer`)."""
        self.set_current()
        return Buffer(size, device=self, stream=stream)


def _destroyer(fn_name: str, handle):
    """A finalizer body destroying `handle`, skipped at interpreter exit (the runtime may be
    gone then; the process's end releases everything anyway)."""
    fn = getattr(hip, fn_name)

    def destroy():
        fn(handle)

    return destroy


class Stream:
    """A HIP stream; `Stream.default()` is the null stream. As a context manager it waits for
    its work on exit. Speaks the CUDA stream protocol (`__cuda_stream__`)."""

    def __init__(self, non_blocking: bool = False):
        flags = hip.hipStreamNonBlocking if non_blocking else hip.hipStreamDefault
        self.handle = check("hipStreamCreateWithFlags", hip.hipStreamCreateWithFlags(flags))
        self._finalizer = weakref.finalize(self, _destroyer("hipStreamDestroy", self.handle))
        self._finalizer.atexit = False

    @classmethod
    def default(cls) -> Stream:
        stream = cls.__new__(cls)
        stream.handle, stream._finalizer = None, None
        return stream

    def __repr__(self):
        return f"<Stream {int(self):#x}>"

    def __int__(self):
        return 0 if self.handle is None else int(self.handle)

    def __cuda_stream__(self):
        return (0, int(self))

    def sync(self) -> None:
        check("hipStreamSynchronize", hip.hipStreamSynchronize(self.handle))

    def record(self, event: Event | None = None) -> Event:
        event = event if event is not None else Event()
        event.record(self)
        return event

    def wait(self, event_or_stream) -> None:
        """Later work on this stream waits for `event_or_stream` (an Event, or another Stream's
        work so far)."""
        event = event_or_stream
        if isinstance(event, Stream):
            event = event.record(Event(timing=False))
        check("hipStreamWaitEvent", hip.hipStreamWaitEvent(self.handle, event.handle, 0))

    def close(self) -> None:
        if self._finalizer is not None:
            self._finalizer()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.sync()
        self.close()


class Event:
    """A HIP event; `end - start` (or `end.elapsed_since(start)`) is the time between two
    recorded events in milliseconds."""

    def __init__(self, timing: bool = True):
        flags = hip.hipEventDefault if timing else hip.hipEventDisableTiming
        self.handle = check("hipEventCreateWithFlags", hip.hipEventCreateWithFlags(flags))
        self._finalizer = weakref.finalize(self, _destroyer("hipEventDestroy", self.handle))
        self._finalizer.atexit = False

    def record(self, stream: Stream | None = None) -> Event:
        check("hipEventRecord", hip.hipEventRecord(self.handle, None if stream is None else stream.handle))
        return self

    def sync(self) -> None:
        check("hipEventSynchronize", hip.hipEventSynchronize(self.handle))

    @property
    def is_done(self) -> bool:
        (status,) = hip.hipEventQuery(self.handle)
        if status == hip.hipError_t.hipErrorNotReady:
            return False
        check("hipEventQuery", (status,))
        return True

    def elapsed_since(self, start: Event) -> float:
        return check("hipEventElapsedTime", hip.hipEventElapsedTime(start.handle, self.handle))

    def __sub__(self, start: Event) -> float:
        return self.elapsed_since(start)

    def close(self) -> None:
        self._finalizer()
