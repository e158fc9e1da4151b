"""cuda.core's `system`: the driver and the devices present. NVML's view (`system.Device`) is
not provided: `CUDA_BINDINGS_NVML_IS_COMPATIBLE` is False."""

from __future__ import annotations

from hip import _native, hip

from ._utils.cuda_utils import check

CUDA_BINDINGS_NVML_IS_COMPATIBLE = False


def get_num_devices() -> int:
    """How many GPUs the runtime sees."""
    return check("hipGetDeviceCount", hip.hipGetDeviceCount())


def get_user_mode_driver_version() -> tuple[int, int]:
    """(major, minor) of the driver's version as `hipDriverGetVersion` reports it (CUDA's on
    NVIDIA, `12080` → (12, 8); HIP's on AMD, `70251234` → (7, 2))."""
    version = check("hipDriverGetVersion", hip.hipDriverGetVersion())
    if _native.platform() == "nvidia":
        return version // 1000, version % 1000 // 10
    return version // 10_000_000, version // 100_000 % 100


def get_driver_version() -> tuple[int, int]:
    """cuda.core 0.x's name of `get_user_mode_driver_version`."""
    return get_user_mode_driver_version()


def get_kernel_mode_driver_version():
    raise RuntimeError("the kernel-mode driver's version needs NVML, which hip.core does not use")
