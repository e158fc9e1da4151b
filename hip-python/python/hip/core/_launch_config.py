"""`LaunchConfig` (cuda.core's): grid and block sizes, dynamic shared memory, cooperative
launches. HIP has no thread-block clusters: a `cluster` raises `CUDAError`."""

from __future__ import annotations

import types

from hip import hip

from ._device import Device
from ._utils.cuda_utils import CUDAError, cast_to_3_tuple


class LaunchConfig:
    """`grid` and `block`: an int or up to three ints (each at least 1); `shmem_size`: dynamic
    shared memory in bytes; `is_cooperative`: a launch whose blocks may synchronize."""

    __slots__ = ("grid", "block", "cluster", "shmem_size", "is_cooperative")

    def __init__(
        self,
        grid: int | tuple[int, ...] | None = None,
        cluster: int | tuple[int, ...] | None = None,
        block: int | tuple[int, ...] | None = None,
        shmem_size: int | None = None,
        is_cooperative: bool = False,
    ) -> None:
        self.grid = cast_to_3_tuple("LaunchConfig.grid", grid)
        self.block = cast_to_3_tuple("LaunchConfig.block", block)
        if cluster is not None:
            raise CUDAError("thread block clusters are not supported by HIP")
        self.cluster = None
        self.shmem_size = 0 if shmem_size is None else int(shmem_size)
        self.is_cooperative = bool(is_cooperative)
        if self.is_cooperative and not Device().properties.cooperative_launch:
            raise CUDAError("cooperative kernels are not supported on this device")

    def _key(self):
        return (self.grid, self.cluster, self.block, self.shmem_size, self.is_cooperative)

    def __eq__(self, other):
        return isinstance(other, LaunchConfig) and other._key() == self._key()

    def __hash__(self):
        return hash(self._key())

    def __repr__(self):
        return (
            f"LaunchConfig(grid={self.grid}, cluster={self.cluster}, block={self.block}, "
            f"shmem_size={self.shmem_size}, is_cooperative={self.is_cooperative})"
        )


def _to_native_launch_config(config: LaunchConfig) -> types.SimpleNamespace:
    """The launch as the driver's launch config has it (`gridDimX`, ..., `sharedMemBytes`, and
    the attributes: cooperative where asked), as cuda.core gives it to its own tests."""
    (gx, gy, gz), (bx, by, bz) = config.grid, config.block
    attrs = []
    if config.is_cooperative:
        value = types.SimpleNamespace(cooperative=1)
        attrs.append(
            types.SimpleNamespace(id=hip.hipLaunchAttributeID.hipLaunchAttributeCooperative, value=value)
        )
    return types.SimpleNamespace(
        gridDimX=gx,
        gridDimY=gy,
        gridDimZ=gz,
        blockDimX=bx,
        blockDimY=by,
        blockDimZ=bz,
        sharedMemBytes=config.shmem_size,
        numAttrs=len(attrs),
        attrs=attrs,
    )
