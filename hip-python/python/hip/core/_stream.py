"""`Stream` and `StreamOptions` (cuda.core's), over HIP streams, with the `__cuda_stream__`
protocol both ways."""

from __future__ import annotations

import dataclasses
import os
import warnings

from hip import hip

from . import _context, _ordinal
from ._event import Event, EventOptions
from ._utils.cuda_utils import Exit, check, check_or_create_options


@dataclasses.dataclass
class StreamOptions:
    """`nonblocking`: the stream does not wait for the legacy default stream; `priority`:
    lower numbers run first, within `hipDeviceGetStreamPriorityRange` (None: the lowest)."""

    nonblocking: bool = True
    priority: int | None = None


def _foreign_handle(obj) -> int:
    """The stream address an object gives through `__cuda_stream__()` (version 0)."""
    protocol = getattr(obj, "__cuda_stream__", None)
    if protocol is None:
        raise TypeError(f"{type(obj)} object does not have a '__cuda_stream__' attribute")
    if callable(protocol):
        info = protocol()
    else:
        warnings.warn(
            "Implementing __cuda_stream__ as an attribute is deprecated; it must be a method.",
            DeprecationWarning,
            stacklevel=3,
        )
        info = protocol
    try:
        version, address = info
    except (TypeError, ValueError):
        raise RuntimeError(
            f"__cuda_stream__ must return a 2-tuple (version, address), got {info!r}"
        ) from None
    if version != 0:
        raise RuntimeError(f"unsupported __cuda_stream__ version {version}")
    return int(address)


#: Options of streams made without any.
_DEFAULT_OPTIONS = StreamOptions()

#: Each device's (least, greatest) stream priority, asked once.
_priority_ranges: dict[int, tuple[int, int]] = {}


def _priority_range(device_id: int) -> tuple[int, int]:
    found = _priority_ranges.get(device_id)
    if found is None:
        found = check("hipDeviceGetStreamPriorityRange", hip.hipDeviceGetStreamPriorityRange())
        _priority_ranges[device_id] = found = tuple(found)
    return found


#: The `GraphBuilder` class (set by `_graph`, which builds on streams).
graph_builder_class = None


class Stream:
    """A queue of GPU work. Made by `Device.create_stream`, or `Stream.from_handle` over a
    stream made elsewhere (not destroyed here)."""

    __slots__ = ("_handle", "_owner", "_nonblocking", "_priority", "_device_id", "_owned", "__weakref__")

    def __new__(cls, *args, **kwargs):
        raise RuntimeError(
            "Stream objects cannot be instantiated directly. Please use Device APIs (create_stream) "
            "or other Stream APIs (from_handle)."
        )

    @classmethod
    def _wrap(cls, handle, owner=None, device_id: int | None = None) -> Stream:
        self = object.__new__(cls)
        self._handle, self._owner, self._device_id = handle, owner, device_id
        self._nonblocking = self._priority = None
        self._owned = False
        return self

    @classmethod
    def _init(cls, obj=None, options=None, device_id: int | None = None) -> Stream:
        """A new stream on device `device_id` (the current one if None) made with `options`,
        or one over `obj`'s stream (`__cuda_stream__`), not owned."""
        if device_id is None:
            device_id = check("hipGetDevice", hip.hipGetDevice())
        if obj is not None and options is not None:
            raise ValueError("obj and options cannot be both specified")
        if obj is not None:
            return cls._wrap(_foreign_handle(obj), owner=obj, device_id=device_id)
        if options is None:
            options = _DEFAULT_OPTIONS
        else:
            options = check_or_create_options(StreamOptions, options, "Stream options")
        least, greatest = _priority_range(device_id)
        priority = least if options.priority is None else options.priority
        if not greatest <= priority <= least:
            raise ValueError(f"priority={priority} is out of range {[greatest, least]}")
        flags = hip.hipStreamNonBlocking if options.nonblocking else hip.hipStreamDefault
        handle = check("hipStreamCreateWithPriority", hip.hipStreamCreateWithPriority(flags, priority))
        self = cls._wrap(handle, device_id=device_id)
        self._nonblocking, self._priority, self._owned = bool(options.nonblocking), priority, True
        return self

    def __del__(self, _exit=Exit):  # `Exit` bound now: module globals are cleared at exit
        if not _exit.started:
            self.close()

    @classmethod
    def _legacy_default(cls) -> Stream:
        return _special(cls, 0)

    @classmethod
    def _per_thread_default(cls) -> Stream:
        return _special(cls, 2)

    @staticmethod
    def from_handle(handle: int) -> Stream:
        """A stream over `handle` (an address), not owned: never destroyed here."""
        return Stream._wrap(hip.hipStream_t.fromObj(int(handle)) if int(handle) else None)

    @property
    def handle(self):
        return self._handle

    def __cuda_stream__(self) -> tuple[int, int]:
        return (0, int(self))

    def __int__(self):
        return 0 if self._handle is None else int(self._handle)

    @property
    def is_nonblocking(self) -> bool:
        if self._nonblocking is None:
            flags = check("hipStreamGetFlags", hip.hipStreamGetFlags(self._handle))
            self._nonblocking = bool(flags & hip.hipStreamNonBlocking)
        return self._nonblocking

    @property
    def priority(self) -> int:
        if self._priority is None:
            self._priority = check("hipStreamGetPriority", hip.hipStreamGetPriority(self._handle))
        return self._priority

    @property
    def device(self):
        if self._device_id is None:
            getter = getattr(hip, "hipStreamGetDevice", None)
            if getter is None or self._handle is None:
                self._device_id = check("hipGetDevice", hip.hipGetDevice())
            else:
                self._device_id = check("hipStreamGetDevice", getter(self._handle))
        return _ordinal.device(self._device_id)

    @property
    def context(self):
        """The context of the stream's device (HIP's primary context)."""
        return _context.Context._current(self.device.device_id)

    def sync(self) -> None:
        """Waits until the work queued so far is done."""
        check("hipStreamSynchronize", hip.hipStreamSynchronize(self._handle))

    def record(self, event: Event | None = None, options: EventOptions | None = None) -> Event:
        """Records `event` (a new one made with `options`, timing off by default) here."""
        if event is None:
            if options is not None:
                options = check_or_create_options(EventOptions, options, "Event options")
            event = Event._init(options, self._device_id)
        elif event.is_ipc_enabled:
            raise TypeError("IPC-enabled events should not be re-recorded; create a new event with options.")
        (status,) = hip.hipEventRecord(event._handle, self._handle)
        if status != 0:
            check("hipEventRecord", (status,))
        return event

    def wait(self, event_or_stream) -> None:
        """Later work here waits for an Event, or for another stream's work queued so far."""
        if isinstance(event_or_stream, Event):
            event = event_or_stream
        else:
            if isinstance(event_or_stream, Stream):
                other = event_or_stream
            else:
                try:
                    other = Stream._wrap(_foreign_handle(event_or_stream), owner=event_or_stream)
                except (TypeError, RuntimeError):
                    raise ValueError(
                        "only an Event, Stream, or object supporting __cuda_stream__ can be waited, "
                        f"got {type(event_or_stream)}"
                    ) from None
            event = other.record(options=EventOptions(timing_enabled=False))
        check("hipStreamWaitEvent", hip.hipStreamWaitEvent(self._handle, event.handle, 0))

    def create_graph_builder(self):
        """A `GraphBuilder` capturing work queued on this stream."""
        return graph_builder_class._init(self, owns_stream=False)

    def close(self) -> None:
        """Destroys a stream made here (after its queued work); one from elsewhere is left."""
        if self._owned:
            handle, self._handle, self._owned = self._handle, None, False
            hip.hipStreamDestroy(handle)

    def __eq__(self, other):
        return isinstance(other, Stream) and int(other) == int(self)

    def __hash__(self):
        return hash(int(self))

    def __repr__(self):
        return f"<Stream handle={int(self):#x}>"


def _special(cls, address: int) -> Stream:
    # The address itself (HIP's calls take an int as a stream): making a `hipStream_t` here
    # would load the extension at import.
    stream = cls._wrap(address or None)
    stream._nonblocking, stream._priority = False, 0
    return stream


#: HIP's legacy default stream (`hipStreamLegacy`; CUDA's `CU_STREAM_LEGACY`) and the
#: per-thread one (`hipStreamPerThread`).
LEGACY_DEFAULT_STREAM = _special(Stream, 0)
PER_THREAD_DEFAULT_STREAM = _special(Stream, 2)


def default_stream() -> Stream:
    """The default stream: the per-thread one where `CUDA_PYTHON_CUDA_PER_THREAD_DEFAULT_STREAM`
    is a non-zero number, else the legacy one."""
    value = os.environ.get("CUDA_PYTHON_CUDA_PER_THREAD_DEFAULT_STREAM", "0")
    try:
        per_thread = int(value, 0) != 0
    except ValueError:
        per_thread = False
    return PER_THREAD_DEFAULT_STREAM if per_thread else LEGACY_DEFAULT_STREAM


def Stream_accept(arg, allow_stream_protocol: bool = False) -> Stream:  # noqa: N802 - cuda.core's name
    """`arg` as the Stream a call runs on: a Stream, a GraphBuilder's, or (deprecated) an object
    with `__cuda_stream__`."""
    if arg is None:
        raise TypeError("stream is required and must not be None; pass device.default_stream explicitly")
    if isinstance(arg, Stream):
        return arg
    builder_stream = getattr(arg, "_graph_builder_stream", None)
    if builder_stream is not None:
        return builder_stream
    if allow_stream_protocol and hasattr(arg, "__cuda_stream__"):
        warnings.warn(
            "Passing foreign stream objects to this function via the stream protocol is deprecated. "
            "Convert the object explicitly using Stream(obj) instead.",
            DeprecationWarning,
            stacklevel=3,
        )
        return Stream._wrap(_foreign_handle(arg), owner=arg)
    raise TypeError(f"Stream or GraphBuilder expected, got {type(arg).__name__}")
