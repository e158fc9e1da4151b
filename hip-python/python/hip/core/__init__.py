"""`hip.core`: devices, streams, events, memory, hiprtc programs and launches in a few lines,
over the generated `hip.hip` and `hip.hiprtc` (AMD and NVIDIA platforms alike). Names follow
NVIDIA's `cuda.core` where the concept is the same. Needs NumPy.

    from hip.core import Device, DeviceArray, LaunchConfig, Program, launch
    dev = Device()
    kernel = Program(SRC).compile(["saxpy<float>"]).get_kernel("saxpy<float>")
    x = DeviceArray.from_numpy(np.ones(n, np.float32))
    launch(kernel, LaunchConfig(grid=(n + 255) // 256, block=256), 2.0, x, y, n)
"""

from ._device import Device, Event, Stream
from ._errors import CompileError, HipError
from ._launch import LaunchConfig, launch
from ._memory import Buffer, DeviceArray
from ._program import Kernel, ObjectCode, Program

__all__ = [
    "Buffer",
    "CompileError",
    "Device",
    "DeviceArray",
    "Event",
    "HipError",
    "Kernel",
    "LaunchConfig",
    "ObjectCode",
    "Program",
    "Stream",
    "launch",
]
