"""`launch(stream, config, kernel, *args)` (cuda.core's): the arguments packed and the kernel
queued with `hipModuleLaunchKernel` in one native call (`hip._native.launch_kernel`, the
runtime's kernel-argument rules: cuda.core's, by each value's Python type); a cooperative
launch checks its grid fits first."""

from __future__ import annotations

from hip import _native, hip

from . import _ordinal
from ._launch_config import LaunchConfig
from ._module import Kernel
from ._stream import Stream, Stream_accept
from ._utils.cuda_utils import check


def launch(stream, config: LaunchConfig, kernel: Kernel, *kernel_args) -> None:
    """Queues `kernel` on `stream` (a Stream or GraphBuilder) with `config` and `kernel_args`:
    Buffers and Pointers as addresses, `int` as 8 bytes, `float` as `double`, `bool` as one
    byte, NumPy and ctypes scalars as their own type."""
    if type(stream) is not Stream:
        stream = Stream_accept(stream, allow_stream_protocol=True)
    if type(config) is not LaunchConfig and not isinstance(config, LaunchConfig):
        raise TypeError(f"config must be a LaunchConfig, got {type(config).__name__}")
    if type(kernel) is not Kernel and not isinstance(kernel, Kernel):
        raise TypeError(f"kernel must be a Kernel, got {type(kernel).__name__}")
    if not config.is_cooperative:
        status = _native.launch_kernel(
            kernel._handle, config.grid, config.block, config.shmem_size, stream._handle, kernel_args
        )
        if status != 0:
            check("hipModuleLaunchKernel", (hip.hipError_t(status),))
        return
    _check_cooperative_grid(kernel, config)
    args = _native.KernelArgs(*kernel_args)
    (gx, gy, gz), (bx, by, bz) = config.grid, config.block
    call = hip.hipModuleLaunchCooperativeKernel
    status = call(kernel._handle, gx, gy, gz, bx, by, bz, config.shmem_size, stream._handle, args.address)[0]
    if status != 0:
        check(call.__name__, (status,))


def _check_cooperative_grid(kernel: Kernel, config: LaunchConfig) -> None:
    """A cooperative launch's blocks must all be resident at once (ValueError otherwise, as
    cuda.core checks before the driver would fail the launch)."""
    (gx, gy, gz), (bx, by, bz) = config.grid, config.block
    per_sm = kernel.occupancy.max_active_blocks_per_multiprocessor(bx * by * bz, config.shmem_size)
    device = _ordinal.device(_ordinal.device_ordinal())
    most = per_sm * device.properties.multiprocessor_count
    if gx * gy * gz > most:
        raise ValueError(
            f"cooperative launch of {gx * gy * gz} blocks: at most {most} fit on the device at once"
        )
