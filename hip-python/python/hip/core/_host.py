"""`Host` (cuda.core's): the host as a memory location, the whole of it or one NUMA node."""

from __future__ import annotations

import threading

_lock = threading.Lock()
_hosts: dict[tuple, Host] = {}


class Host:
    """The host as a place memory lives or moves to: `Host()`, `Host(numa_id=n)`, or
    `Host.numa_current()` (the NUMA node of the calling thread). One object per place."""

    __slots__ = ("__weakref__", "_is_numa_current", "_numa_id")

    def __new__(cls, numa_id: int | None = None, *, is_numa_current: bool = False):
        if numa_id is not None and is_numa_current:
            raise ValueError("numa_id and is_numa_current are mutually exclusive")
        if numa_id is not None and (isinstance(numa_id, bool) or not isinstance(numa_id, int) or numa_id < 0):
            raise ValueError(f"numa_id must be a non-negative int, got {numa_id!r}")
        key = (numa_id, bool(is_numa_current))
        with _lock:
            host = _hosts.get(key)
            if host is None:
                host = _hosts[key] = object.__new__(cls)
                host._numa_id, host._is_numa_current = key
        return host

    @classmethod
    def numa_current(cls) -> Host:
        return cls(is_numa_current=True)

    @property
    def numa_id(self) -> int | None:
        return self._numa_id

    @property
    def is_numa_current(self) -> bool:
        return self._is_numa_current

    def __eq__(self, other):
        return self is other

    def __hash__(self):
        return hash((Host, self._numa_id, self._is_numa_current))

    def __reduce__(self):
        if self._is_numa_current:
            return Host.numa_current, ()
        return Host, (self._numa_id,)

    def __repr__(self):
        if self._is_numa_current:
            return "Host.numa_current()"
        return "Host()" if self._numa_id is None else f"Host(numa_id={self._numa_id})"
