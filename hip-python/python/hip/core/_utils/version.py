"""Versions as cuda.core's `_utils.version` gives them: the CUDA bindings' and the driver's."""

from __future__ import annotations

import functools
import sys

from hip import _native, hip

from .cuda_utils import check


def binding_version() -> tuple[int, int, int]:
    """The version of the `cuda.bindings` imported (the cuda package's follows the CUDA headers
    it was made from), or (0, 0, 0) where none is: hip-python does not import the cuda package."""
    bindings = sys.modules.get("cuda.bindings")
    if bindings is None:
        return (0, 0, 0)
    parts = [int(p) for p in str(bindings.__version__).split(".")[:3] if p.isdigit()]
    return tuple(parts + [0] * (3 - len(parts)))


@functools.cache
def driver_version() -> tuple[int, int, int]:
    """(major, minor, patch) of the driver: CUDA's on NVIDIA (`13000` → (13, 0, 0)), HIP's on AMD."""
    version = check("hipDriverGetVersion", hip.hipDriverGetVersion())
    if _native.platform() == "nvidia":
        return version // 1000, version % 1000 // 10, version % 10
    return version // 10_000_000, version // 100_000 % 100, version % 100_000
