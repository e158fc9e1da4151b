"""Device ordinals, checked: what `Device` and the memory classes both start from."""

from __future__ import annotations

from hip import hip

from ._errors import check


def device_ordinal(device=None) -> int:
    """The ordinal of `device` (a `Device`, an int, or None for the current device), checked
    against the device count (ValueError for one that does not exist)."""
    count = check("hipGetDeviceCount", hip.hipGetDeviceCount())
    if device is None:
        device = check("hipGetDevice", hip.hipGetDevice())
    device = int(getattr(device, "device_id", device))
    if not 0 <= device < count:
        raise ValueError(f"device {device} does not exist ({count} device(s))")
    return device


def set_current(device_id: int) -> None:
    """Makes device `device_id` current for this thread."""
    check("hipSetDevice", hip.hipSetDevice(device_id))
