"""`Context` and `ContextOptions` (cuda.core's). HIP keeps one primary context per device
(what `Device.set_current` makes current) and no green contexts: a `Context` is that primary
context, and `ContextOptions` cannot be used."""

from __future__ import annotations

import dataclasses

from hip import hip

from ._utils.cuda_utils import CUDAError, check


class Context:
    """The current (primary) context of a device: `handle`, compared by handle."""

    __slots__ = ("_handle", "_device_id")

    def __new__(cls, *args, **kwargs):
        raise RuntimeError(
            "Context objects cannot be instantiated directly. Please use Device or Stream APIs."
        )

    @classmethod
    def _current(cls, device_id: int) -> Context:
        self = object.__new__(cls)
        self._handle = check("hipCtxGetCurrent", hip.hipCtxGetCurrent())
        self._device_id = device_id
        return self

    @property
    def handle(self):
        return self._handle

    @property
    def is_green(self) -> bool:
        return False

    def __eq__(self, other):
        return isinstance(other, Context) and int(other._handle) == int(self._handle)

    def __hash__(self):
        return hash(int(self._handle))

    def __repr__(self):
        return f"<Context handle={int(self._handle):#x} device={self._device_id}>"


@dataclasses.dataclass
class ContextOptions:
    resources: tuple = ()

    def __post_init__(self):
        raise CUDAError("HIP has no green contexts: ContextOptions cannot be used")
