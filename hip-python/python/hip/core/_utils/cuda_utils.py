"""Errors and result checks of `hip.core`, under the names cuda.core gives them
(`cuda.core._utils.cuda_utils`): a HIP or hiprtc call that fails raises `CUDAError` (hiprtc's,
`NVRTCError`) whose message starts with the status's name, as cuda.core's starts with the
driver's.
"""

from __future__ import annotations

import atexit
import collections
import dataclasses

from hip import hip, hiprtc


class CUDAError(Exception):
    """A HIP call failed; `.status` is the status member (None for a check of our own)."""

    def __init__(self, message: str, status=None):
        super().__init__(message)
        self.status = status


class NVRTCError(CUDAError):
    """hiprtc could not compile a program; the message ends with the compiler's log."""


class Exit:
    """`Exit.started` is true once the interpreter exits: objects collected then leave their
    HIP handles to the process's end, as the runtime may already be torn down."""

    started = False


atexit.register(setattr, Exit, "started", True)

#: cuda.core's (major, minor) compute capability.
ComputeCapability = collections.namedtuple("ComputeCapability", ("major", "minor"))


def _decoded(value) -> str:
    return value.decode(errors="replace") if isinstance(value, bytes) else str(value)


def _status_text(status) -> str:
    """`"<name>: <the library's explanation>"`."""
    name = getattr(status, "name", str(status))
    if isinstance(status, hiprtc.hiprtcResult):
        return f"{name}: {_decoded(hiprtc.hiprtcGetErrorString(status)[-1])}"
    if isinstance(status, hip.hipError_t):
        return f"{name}: {_decoded(hip.hipGetErrorString(status)[-1])}"
    return str(name)


def handle_return(result: tuple, handle=None):
    """The values of a generated call's result tuple after its status: None, the one value,
    or the tuple of them; raises CUDAError (NVRTCError for hiprtc) on a failed status."""
    status = result[0]
    if int(status) != 0:
        if isinstance(status, hiprtc.hiprtcResult):
            raise NVRTCError(_status_text(status), status)
        raise CUDAError(_status_text(status), status)
    if len(result) == 1:
        return None
    return result[1] if len(result) == 2 else result[1:]


def check(call: str, result: tuple):
    """`handle_return`, the failing function named in the message."""
    status = result[0]
    if status == 0:
        # handle_return's success path, inline: this check is on every hot call.
        n = len(result)
        return None if n == 1 else result[1] if n == 2 else result[1:]
    error = NVRTCError if isinstance(status, hiprtc.hiprtcResult) else CUDAError
    raise error(f"{_status_text(status)} ({call})", status)


def check_or_create_options(cls, options, options_description: str = "", keep_none: bool = False):
    """`options` as a `cls`: None gives `cls()` (None with `keep_none`), a dict `cls(**d)`."""
    if options is None:
        return None if keep_none else cls()
    if isinstance(options, cls):
        return options
    if isinstance(options, dict):
        return cls(**options)
    raise TypeError(
        f"The {options_description} must be provided as an object of type {cls.__name__} or as a dict "
        f"with valid {options_description}. The provided object is '{options}'."
    )


def cast_to_3_tuple(label: str, cfg) -> tuple[int, int, int]:
    """An int or a tuple of up to three ints, padded with 1s; each at least 1."""
    if isinstance(cfg, int) and not isinstance(cfg, bool):
        cfg = (cfg,)
    elif not (isinstance(cfg, tuple) and 1 <= len(cfg) <= 3 and all(isinstance(c, int) for c in cfg)):
        raise ValueError(f"{label} must be an int, or a tuple with up to 3 ints (got {cfg})")
    if any(c < 1 for c in cfg):
        raise ValueError(f"{label} value(s) must be >= 1 (got {cfg})")
    return tuple(cfg) + (1,) * (3 - len(cfg))


def is_sequence(obj) -> bool:
    return isinstance(obj, (list, tuple))


def options_dataclass(cls):
    """An options record as cuda.core's: a dataclass whose repr names the fields set."""
    cls = dataclasses.dataclass(cls)
    return cls
