"""Errors of `hip.core`: a failed status is an exception carrying it."""

from __future__ import annotations


class HipError(RuntimeError):
    """A HIP or hiprtc call returned a failure status (`.status`, the enum member)."""

    def __init__(self, call: str, status, detail: str = ""):
        self.call, self.status = call, status
        name = getattr(status, "name", str(status))
        super().__init__(f"{call} failed: {name} ({int(status)}){': ' + detail if detail else ''}")


class CompileError(HipError):
    """hiprtc could not compile a program; `.log` holds the compiler's messages."""

    def __init__(self, call: str, status, log: str):
        self.log = log
        super().__init__(call, status, "\n" + log if log else "")


def check(call: str, result):
    """The values after the status of a HIP call's result tuple; raises HipError on failure."""
    status = result[0]
    if int(status) != 0:
        raise HipError(call, status)
    rest = result[1:]
    if not rest:
        return None
    return rest[0] if len(rest) == 1 else rest
