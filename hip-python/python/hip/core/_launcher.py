"""`launch(stream, config, kernel, *args)` (cuda.core's): the arguments packed natively
(`hip._native.KernelArgs`: cuda.core's rules, by each value's Python type) and the kernel
queued with `hipModuleLaunchKernel`."""

from __future__ import annotations

from hip import _native, hip

from ._launch_config import LaunchConfig
from ._module import Kernel
from ._stream import Stream_accept
from ._utils.cuda_utils import check


def launch(stream, config: LaunchConfig, kernel: Kernel, *kernel_args) -> None:
    """Queues `kernel` on `stream` (a Stream or GraphBuilder) with `config` and `kernel_args`:
    Buffers and Pointers as addresses, `int` as 8 bytes, `float` as `double`, `bool` as one
    byte, NumPy and ctypes scalars as their own type."""
    stream = Stream_accept(stream, allow_stream_protocol=True)
    if not isinstance(config, LaunchConfig):
        raise TypeError(f"config must be a LaunchConfig, got {type(config).__name__}")
    if not isinstance(kernel, Kernel):
        raise TypeError(f"kernel must be a Kernel, got {type(kernel).__name__}")
    args = _native.KernelArgs(*kernel_args)
    (gx, gy, gz), (bx, by, bz) = config.grid, config.block
    if config.is_cooperative:
        call = hip.hipModuleLaunchCooperativeKernel
        check(
            call.__name__,
            call(kernel.handle, gx, gy, gz, bx, by, bz, config.shmem_size, stream.handle, args.address),
        )
        return
    call = hip.hipModuleLaunchKernel
    check(
        "hipModuleLaunchKernel",
        call(kernel.handle, gx, gy, gz, bx, by, bz, config.shmem_size, stream.handle, args.address, None),
    )
