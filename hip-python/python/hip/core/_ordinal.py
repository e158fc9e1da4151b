"""Device ordinals, checked, and the `Device` object of one: what the classes of devices,
streams, events and memory share. `_device` registers its class here when imported, so the
modules below it name devices without importing it."""

from __future__ import annotations

from hip import hip

from ._utils.cuda_utils import check

#: The `Device` class (set by `_device`).
device_class = None


def device_ordinal(device=None) -> int:
    """The ordinal of `device` (a `Device`, an int, or None for the current device), checked
    against the device count (ValueError for one that does not exist)."""
    if device is None:
        device = check("hipGetDevice", hip.hipGetDevice())
    device = int(getattr(device, "device_id", device))
    if device < 0:
        raise ValueError(f"device_id must be >= 0, got {device}")
    count = check("hipGetDeviceCount", hip.hipGetDeviceCount())
    if device >= count:
        raise ValueError(f"device_id must be within [0, {count}), got {device}")
    return device


def device(ordinal: int):
    """The `Device` object of `ordinal`."""
    return device_class(ordinal)


def set_current(device_id: int) -> None:
    """Makes device `device_id` current for this thread."""
    check("hipSetDevice", hip.hipSetDevice(device_id))
