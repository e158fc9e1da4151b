"""`hip.core`: NVIDIA's `cuda.core` API over HIP, on AMD and NVIDIA GPUs alike (the `cuda`
package serves the same objects as `cuda.core`). Devices, streams, events, buffers and memory
resources, programs compiled by hiprtc, kernels and launches, graphs.

    from hip.core import Device, LaunchConfig, Program, ProgramOptions, launch
    dev = Device()
    dev.set_current()
    prog = Program(src, code_type="c++", options=ProgramOptions(arch=f"sm_{dev.arch}"))
    kernel = prog.compile("cubin", name_expressions=("saxpy<float>",)).get_kernel("saxpy<float>")
    launch(dev.create_stream(), LaunchConfig(grid=n // 256, block=256), kernel, a, x, y, n)

What HIP lacks (thread-block clusters, green contexts, tensor maps, NVVM, virtual memory
resources) raises `CUDAError` naming it. `DeviceArray` is hip.core's own convenience: a
NumPy-shaped device array.
"""

from . import graph, system, typing, utils
from ._array import DeviceArray
from ._context import Context, ContextOptions
from ._device import Device, DeviceProperties
from ._event import Event, EventOptions
from ._graph_memory import GraphMemoryResource
from ._host import Host
from ._launch_config import LaunchConfig
from ._launcher import launch
from ._linker import Linker, LinkerOptions
from ._managed import ManagedBuffer
from ._memory import (
    Buffer,
    DeviceMemoryResource,
    DeviceMemoryResourceOptions,
    LegacyPinnedMemoryResource,
    ManagedMemoryResource,
    ManagedMemoryResourceOptions,
    MemoryResource,
    PinnedMemoryResource,
    PinnedMemoryResourceOptions,
    VirtualMemoryResource,
    VirtualMemoryResourceOptions,
)
from ._module import Kernel, ObjectCode
from ._program import Program, ProgramOptions
from ._stream import LEGACY_DEFAULT_STREAM, PER_THREAD_DEFAULT_STREAM, Stream, StreamOptions
from ._utils.cuda_utils import CUDAError, NVRTCError

__version__ = "1.1.0"

__all__ = [
    "LEGACY_DEFAULT_STREAM",
    "PER_THREAD_DEFAULT_STREAM",
    "Buffer",
    "CUDAError",
    "Context",
    "ContextOptions",
    "Device",
    "DeviceArray",
    "DeviceMemoryResource",
    "DeviceMemoryResourceOptions",
    "DeviceProperties",
    "Event",
    "EventOptions",
    "GraphMemoryResource",
    "Host",
    "Kernel",
    "LaunchConfig",
    "Linker",
    "LinkerOptions",
    "LegacyPinnedMemoryResource",
    "ManagedBuffer",
    "ManagedMemoryResource",
    "ManagedMemoryResourceOptions",
    "MemoryResource",
    "NVRTCError",
    "ObjectCode",
    "PinnedMemoryResource",
    "PinnedMemoryResourceOptions",
    "Program",
    "ProgramOptions",
    "Stream",
    "StreamOptions",
    "VirtualMemoryResource",
    "VirtualMemoryResourceOptions",
    "graph",
    "launch",
    "system",
    "typing",
    "utils",
]
