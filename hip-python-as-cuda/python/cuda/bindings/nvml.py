"""cuda-python's `cuda.bindings.nvml` over ROCm SMI (`hip.rocm_smi`, librocm_smi64).

The calls that NVIDIA's `nvidia_smi.py` example and pynvml-style monitoring programs make,
with cuda-python's conventions: values are returned, a failure raises `NvmlError` (its
subclass per NVML return code, `.status` the code), device handles are integers. What AMD's
GPUs have no notion of (persistence mode, display, compute modes) answers as NVML does on a
GPU without the feature: `NotSupportedError`, or for compute modes the one AMD's driver has,
`COMPUTEMODE_DEFAULT`. Units are NVML's (mW, mJ, MHz, KB/s, °C, bytes). docs/cuda.md#nvml lists
each call and what it reads; any other NVML name is an AttributeError that says so.
"""

from __future__ import annotations

from enum import IntEnum

from cuda import _smi

__all__ = [
    "BAR1Memory",
    "ClockType",
    "ComputeMode",
    "EnableState",
    "Memory",
    "Memory_v2",
    "NvmlError",
    "PcieUtilCounter",
    "PciInfo",
    "Return",
    "TemperatureSensors",
    "Utilization",
    "device_get_bar1_memory_info",
    "device_get_clock_info",
    "device_get_compute_mode",
    "device_get_count_v2",
    "device_get_display_active",
    "device_get_display_mode",
    "device_get_ecc_mode",
    "device_get_enforced_power_limit",
    "device_get_fan_speed",
    "device_get_handle_by_index_v2",
    "device_get_handle_by_pci_bus_id_v2",
    "device_get_handle_by_uuid",
    "device_get_index",
    "device_get_max_clock_info",
    "device_get_memory_info_v2",
    "device_get_minor_number",
    "device_get_name",
    "device_get_pci_info_v3",
    "device_get_pcie_throughput",
    "device_get_performance_state",
    "device_get_persistence_mode",
    "device_get_power_management_default_limit",
    "device_get_power_management_limit",
    "device_get_power_management_limit_constraints",
    "device_get_power_usage",
    "device_get_serial",
    "device_get_temperature_v",
    "device_get_total_energy_consumption",
    "device_get_utilization_rates",
    "device_get_uuid",
    "device_get_vbios_version",
    "error_string",
    "init_v2",
    "init_with_flags",
    "shutdown",
    "system_get_cuda_driver_version",
    "system_get_cuda_driver_version_v2",
    "system_get_driver_version",
    "system_get_nvml_version",
]


class Return(IntEnum):
    """nvmlReturn_t."""

    SUCCESS = 0
    ERROR_UNINITIALIZED = 1
    ERROR_INVALID_ARGUMENT = 2
    ERROR_NOT_SUPPORTED = 3
    ERROR_NO_PERMISSION = 4
    ERROR_ALREADY_INITIALIZED = 5
    ERROR_NOT_FOUND = 6
    ERROR_INSUFFICIENT_SIZE = 7
    ERROR_INSUFFICIENT_POWER = 8
    ERROR_DRIVER_NOT_LOADED = 9
    ERROR_TIMEOUT = 10
    ERROR_IRQ_ISSUE = 11
    ERROR_LIBRARY_NOT_FOUND = 12
    ERROR_FUNCTION_NOT_FOUND = 13
    ERROR_CORRUPTED_INFOROM = 14
    ERROR_GPU_IS_LOST = 15
    ERROR_RESET_REQUIRED = 16
    ERROR_OPERATING_SYSTEM = 17
    ERROR_LIB_RM_VERSION_MISMATCH = 18
    ERROR_IN_USE = 19
    ERROR_MEMORY = 20
    ERROR_NO_DATA = 21
    ERROR_VGPU_ECC_NOT_SUPPORTED = 22
    ERROR_INSUFFICIENT_RESOURCES = 23
    ERROR_FREQ_NOT_SUPPORTED = 24
    ERROR_ARGUMENT_VERSION_MISMATCH = 25
    ERROR_DEPRECATED = 26
    ERROR_NOT_READY = 27
    ERROR_GPU_NOT_FOUND = 28
    ERROR_INVALID_STATE = 29
    ERROR_RESET_TYPE_NOT_SUPPORTED = 30
    ERROR_UNKNOWN = 999


class EnableState(IntEnum):
    FEATURE_DISABLED = 0
    FEATURE_ENABLED = 1


class TemperatureSensors(IntEnum):
    TEMPERATURE_GPU = 0
    TEMPERATURE_COUNT = 1


class ComputeMode(IntEnum):
    COMPUTEMODE_DEFAULT = 0
    COMPUTEMODE_EXCLUSIVE_THREAD = 1
    COMPUTEMODE_PROHIBITED = 2
    COMPUTEMODE_EXCLUSIVE_PROCESS = 3
    COMPUTEMODE_COUNT = 4


class ClockType(IntEnum):
    CLOCK_GRAPHICS = 0
    CLOCK_SM = 1
    CLOCK_MEM = 2
    CLOCK_VIDEO = 3
    CLOCK_COUNT = 4


class PcieUtilCounter(IntEnum):
    PCIE_UTIL_TX_BYTES = 0
    PCIE_UTIL_RX_BYTES = 1
    PCIE_UTIL_COUNT = 2


_MESSAGES = {
    0: "Success",
    1: "Uninitialized",
    2: "Invalid Argument",
    3: "Not Supported",
    4: "Insufficient Permissions",
    5: "Already Initialized",
    6: "Not Found",
    7: "Insufficient Size",
    8: "Insufficient External Power",
    9: "Driver Not Loaded",
    10: "Timeout",
    11: "Interrupt Request Issue",
    12: "NVML Shared Library Not Found",
    13: "Function Not Found",
    14: "Corrupted infoROM",
    15: "GPU is lost",
    16: "GPU requires restart",
    17: "The operating system has blocked the request",
    18: "RM has detected an NVML/RM version mismatch",
    19: "In use by another client",
    20: "Insufficient Memory",
    21: "No data",
    22: "The requested vgpu operation is not available on target device, because ECC is enabled",
    23: "Ran out of critical resources, other than memory",
    24: "The requested frequency is not supported",
    25: "The provided version is invalid/unsupported",
    26: "The requested functionality has been deprecated",
    27: "The system is not ready for the request",
    28: "No GPUs were found",
    29: "Resource not in correct state to perform requested operation",
    30: "Reset not supported for given device/parameters",
    999: "Unknown Error",
}


def error_string(result: int) -> str:
    """NVML's message for return code `result`."""
    return _MESSAGES.get(int(result), "Unknown Error")


class NvmlError(Exception):
    """An NVML call failed: `status` is its return code; the message adds what rocm-smi said."""

    def __init__(self, status, detail=None):
        self.status = status
        self.detail = detail
        text = error_string(status)
        super().__init__(f"{text} ({detail})" if detail else text)

    def __reduce__(self):
        return (type(self), (self.status, self.detail))


def _error_class(name: str, status: int) -> type:
    return type(name, (NvmlError,), {"__module__": __name__, "__doc__": f"NVML return code {status}."})


# One subclass per return code, named as cuda-python names them.
_CLASSES = {
    status: _error_class(name, status)
    for status, name in (
        (1, "UninitializedError"),
        (2, "InvalidArgumentError"),
        (3, "NotSupportedError"),
        (4, "NoPermissionError"),
        (5, "AlreadyInitializedError"),
        (6, "NotFoundError"),
        (7, "InsufficientSizeError"),
        (8, "InsufficientPowerError"),
        (9, "DriverNotLoadedError"),
        (10, "TimeoutError"),
        (11, "IrqIssueError"),
        (12, "LibraryNotFoundError"),
        (13, "FunctionNotFoundError"),
        (14, "CorruptedInforomError"),
        (15, "GpuIsLostError"),
        (16, "ResetRequiredError"),
        (17, "OperatingSystemError"),
        (18, "LibRmVersionMismatchError"),
        (19, "InUseError"),
        (20, "MemoryError"),
        (21, "NoDataError"),
        (22, "VgpuEccNotSupportedError"),
        (23, "InsufficientResourcesError"),
        (24, "FreqNotSupportedError"),
        (25, "ArgumentVersionMismatchError"),
        (26, "DeprecatedError"),
        (27, "NotReadyError"),
        (28, "GpuNotFoundError"),
        (29, "InvalidStateError"),
        (30, "ResetTypeNotSupportedError"),
        (999, "UnknownError"),
    )
}
globals().update({cls.__name__: cls for cls in _CLASSES.values()})
__all__ += sorted(cls.__name__ for cls in _CLASSES.values())


def _raise(failure: _smi.Failure):
    raise _CLASSES.get(failure.status, NvmlError)(failure.status, failure.detail) from None


def _checked(fn):
    """`fn` with rocm-smi's failures raised as NVML's errors."""

    def call(*args):
        try:
            return fn(*args)
        except _smi.Failure as f:
            _raise(f)

    call.__name__ = call.__qualname__ = fn.__name__
    call.__doc__ = fn.__doc__
    call.__wrapped__ = fn
    return call


class _Record:
    """An NVML output struct as plain read-only values (cuda-python's class has these names)."""

    __slots__ = ()

    def __init__(self, **values):
        for name in self.__slots__:
            object.__setattr__(self, name, values[name])

    def __setattr__(self, name, value):
        raise AttributeError(f"{type(self).__name__}.{name} is read-only")

    def __repr__(self):
        inner = ", ".join(f"{n}={getattr(self, n)!r}" for n in self.__slots__)
        return f"{type(self).__name__}({inner})"


class PciInfo(_Record):
    __slots__ = ("bus_id_legacy", "domain", "bus", "device_", "pci_device_id", "pci_sub_system_id", "bus_id")


class Memory(_Record):
    __slots__ = ("total", "free", "used")


class Memory_v2(_Record):  # noqa: N801 (cuda-python's name)
    __slots__ = ("version", "total", "reserved", "free", "used")


class BAR1Memory(_Record):
    __slots__ = ("bar1_total", "bar1_free", "bar1_used")


class Utilization(_Record):
    __slots__ = ("gpu", "memory")


# rocm_smi's enum values used below (rocm_smi.h): rsmi_sw_component_t, rsmi_memory_type_t,
# rsmi_temperature_type_t, rsmi_temperature_metric_t, rsmi_clk_type_t.
_SW_COMP_DRIVER = 0
_MEM_VRAM, _MEM_VIS_VRAM = 0, 1
_TEMP_EDGE, _TEMP_JUNCTION, _TEMP_CURRENT = 0, 1, 0
_CLK_SYS, _CLK_MEM = 0, 4
# NVML clock domain → rocm-smi's (the graphics and SM clocks are one on AMD GPUs: SCLK).
_CLOCKS = {0: _CLK_SYS, 1: _CLK_SYS, 2: _CLK_MEM}


@_checked
def init_v2():
    """Starts rocm-smi (reference counted, as NVML's init is)."""
    _smi.init()


@_checked
def init_with_flags(flags):
    """`init_v2`; NVML's flags (no GPUs, no attach) change nothing rocm-smi does."""
    int(flags)
    _smi.init()


@_checked
def shutdown():
    _smi.shutdown()


@_checked
def system_get_driver_version() -> str:
    """The amdgpu kernel driver's version, as rocm-smi reports it."""
    _smi.initialized()
    return _smi.text("rsmi_version_str_get", _SW_COMP_DRIVER, size=80)


@_checked
def system_get_nvml_version() -> str:
    """rocm-smi's library version (`major.minor.patch`)."""
    lib = _smi._lib()
    v = lib.rsmi_version_t()
    _smi.call("rsmi_version_get", v)
    return f"{v.major}.{v.minor}.{v.patch}"


@_checked
def system_get_cuda_driver_version() -> int:
    """The CUDA version these bindings implement, as NVML encodes it (13000 for 13.0): what a
    program reading it decides by is which CUDA API it may call, and `cuda.bindings`
    implements that one over HIP (`cuda.bindings.__version__`)."""
    from cuda import _plan

    v = _plan.tables().cuda_version
    return v if v else int(_plan.api_version()) * 1000


system_get_cuda_driver_version_v2 = system_get_cuda_driver_version


@_checked
def device_get_count_v2() -> int:
    return _smi.count()


@_checked
def device_get_handle_by_index_v2(index) -> int:
    return _smi.handle(index)


def _find(match) -> int:
    for i in range(_smi.count()):
        if match(i):
            return _smi.handle(i)
    raise _smi.Failure(_smi.NOT_FOUND, "no such device")


@_checked
def device_get_handle_by_pci_bus_id_v2(pci_bus_id) -> int:
    """The device at PCI address `domain:bus:device.function` (hex; the domain 4 or 8 digits)."""
    wanted = _parse_bus_id(pci_bus_id)
    return _find(lambda i: _smi.call("rsmi_dev_pci_id_get", i)[0] == wanted)


@_checked
def device_get_handle_by_uuid(uuid) -> int:
    wanted = uuid.decode() if isinstance(uuid, bytes) else str(uuid)
    return _find(lambda i: _uuid(i) == wanted)


@_checked
def device_get_index(device) -> int:
    return _smi.index(device)


@_checked
def device_get_name(device) -> str:
    return _smi.text("rsmi_dev_name_get", _smi.index(device), size=96)


@_checked
def device_get_serial(device) -> str:
    return _smi.text("rsmi_dev_serial_number_get", _smi.index(device), size=30)


@_checked
def device_get_vbios_version(device) -> str:
    return _smi.text("rsmi_dev_vbios_version_get", _smi.index(device), size=32)


def _uuid(i: int) -> str:
    return f"GPU-{_smi.call('rsmi_dev_unique_id_get', i)[0]:016x}"


@_checked
def device_get_uuid(device) -> str:
    """`GPU-` and the GPU's 64-bit unique id (rocm-smi's), in hex."""
    return _uuid(_smi.index(device))


@_checked
def device_get_minor_number(device) -> int:
    """The device's DRM render node minor (/dev/dri/renderD<minor>)."""
    return _smi.call("rsmi_dev_drm_render_minor_get", _smi.index(device))[0]


def _parse_bus_id(text) -> int:
    text = text.decode() if isinstance(text, bytes) else str(text)
    try:
        domain, bus, rest = text.split(":")
        dev, fn = rest.split(".")
        domain, bus, dev, fn = int(domain, 16), int(bus, 16), int(dev, 16), int(fn, 16)
    except ValueError:
        what = f"{text!r} is not a PCI bus id (domain:bus:device.function)"
        raise _smi.Failure(_smi.INVALID_ARGUMENT, what) from None
    # rocm-smi's BDF id: domain << 32 | bus << 8 | device << 3 | function.
    return domain << 32 | bus << 8 | dev << 3 | fn


@_checked
def device_get_pci_info_v3(device) -> PciInfo:
    i = _smi.index(device)
    bdf = _smi.call("rsmi_dev_pci_id_get", i)[0]
    domain, bus, dev, fn = bdf >> 32 & 0xFFFFFFFF, bdf >> 8 & 0xFF, bdf >> 3 & 0x1F, bdf & 0x7
    vendor = _smi.call("rsmi_dev_vendor_id_get", i)[0]
    device_id = _smi.call("rsmi_dev_id_get", i)[0]
    sub_vendor = _smi.call("rsmi_dev_subsystem_vendor_id_get", i)[0]
    sub_id = _smi.call("rsmi_dev_subsystem_id_get", i)[0]
    return PciInfo(
        bus_id_legacy=f"{domain:04x}:{bus:02x}:{dev:02x}.{fn:x}",
        bus_id=f"{domain:08x}:{bus:02x}:{dev:02x}.{fn:x}",
        domain=domain,
        bus=bus,
        device_=dev,
        pci_device_id=device_id << 16 | vendor,
        pci_sub_system_id=sub_id << 16 | sub_vendor,
    )


def _not_supported(name: str, what: str):
    def answer(device) -> int:
        _smi.index(device)
        raise _smi.Failure(_smi.NOT_SUPPORTED, f"AMD GPUs have no {what}")

    answer.__name__ = answer.__qualname__ = name
    return _checked(answer)


device_get_persistence_mode = _not_supported(
    "device_get_persistence_mode", "persistence mode (the amdgpu driver always persists)"
)
device_get_display_active = _not_supported("device_get_display_active", "display state in rocm-smi")
device_get_display_mode = _not_supported("device_get_display_mode", "display state in rocm-smi")


@_checked
def device_get_ecc_mode(device) -> tuple:
    """(current, pending): enabled where rocm-smi reports any GPU block with ECC on."""
    blocks = _smi.call("rsmi_dev_ecc_enabled_get", _smi.index(device))[0]
    state = EnableState.FEATURE_ENABLED if blocks else EnableState.FEATURE_DISABLED
    return (int(state), int(state))


@_checked
def device_get_fan_speed(device) -> int:
    """Percent of the fan's maximum speed (sensor 0)."""
    i = _smi.index(device)
    speed = _smi.call("rsmi_dev_fan_speed_get", i, 0)[0]
    top = _smi.call("rsmi_dev_fan_speed_max_get", i, 0)[0]
    if top <= 0:
        raise _smi.Failure(_smi.NOT_SUPPORTED, "rocm-smi reports no fan maximum")
    return round(speed * 100 / top)


@_checked
def device_get_temperature_v(device, sensorType) -> int:
    """°C of the GPU: its edge sensor, or its junction (hotspot) where it has no edge sensor."""
    if int(sensorType) != TemperatureSensors.TEMPERATURE_GPU:
        raise _smi.Failure(_smi.INVALID_ARGUMENT, f"temperature sensor {int(sensorType)}")
    i = _smi.index(device)
    try:
        milli = _smi.call("rsmi_dev_temp_metric_get", i, _TEMP_EDGE, _TEMP_CURRENT)[0]
    except _smi.Failure:
        milli = _smi.call("rsmi_dev_temp_metric_get", i, _TEMP_JUNCTION, _TEMP_CURRENT)[0]
    return milli // 1000


def _frequencies(i: int, clock: int):
    lib = _smi._lib()
    f = lib.rsmi_frequencies_t()
    _smi.call("rsmi_dev_gpu_clk_freq_get", i, clock, f)
    hz = f.frequency[: f.num_supported]
    if not hz or not 0 <= f.current < len(hz):
        raise _smi.Failure(_smi.NOT_SUPPORTED, "rocm-smi reports no current clock level")
    return hz, f.current


@_checked
def device_get_performance_state(device) -> int:
    """NVML's P-state: P0 at the highest graphics clock level, one more per level below it."""
    hz, current = _frequencies(_smi.index(device), _CLK_SYS)
    return min(len(hz) - 1 - current, 15)


def _clock_domain(type_) -> int:
    clock = _CLOCKS.get(int(type_))
    if clock is None:
        raise _smi.Failure(_smi.NOT_SUPPORTED, f"clock type {int(type_)} has no rocm-smi counterpart")
    return clock


@_checked
def device_get_clock_info(device, type) -> int:  # noqa: A002 (cuda-python's name)
    """The clock's current frequency in MHz."""
    hz, current = _frequencies(_smi.index(device), _clock_domain(type))
    return hz[current] // 1_000_000


@_checked
def device_get_max_clock_info(device, type) -> int:  # noqa: A002
    hz, _ = _frequencies(_smi.index(device), _clock_domain(type))
    return max(hz) // 1_000_000


@_checked
def device_get_power_usage(device) -> int:
    """mW drawn now (the socket's power, else the average rocm-smi reports)."""
    i = _smi.index(device)
    try:
        micro = _smi.call("rsmi_dev_current_socket_power_get", i)[0]
    except _smi.Failure:
        micro = _smi.call("rsmi_dev_power_ave_get", i, 0)[0]
    return micro // 1000


@_checked
def device_get_power_management_limit(device) -> int:
    """mW: the power cap in force."""
    return _smi.call("rsmi_dev_power_cap_get", _smi.index(device), 0)[0] // 1000


device_get_enforced_power_limit = _checked(device_get_power_management_limit.__wrapped__)
device_get_enforced_power_limit.__name__ = "device_get_enforced_power_limit"


@_checked
def device_get_power_management_default_limit(device) -> int:
    return _smi.call("rsmi_dev_power_cap_default_get", _smi.index(device))[0] // 1000


@_checked
def device_get_power_management_limit_constraints(device) -> tuple:
    """(min, max) mW the power cap may be set to."""
    top, bottom = _smi.call("rsmi_dev_power_cap_range_get", _smi.index(device), 0)
    return (bottom // 1000, top // 1000)


@_checked
def device_get_total_energy_consumption(device) -> int:
    """mJ since the driver loaded: rocm-smi's counter times its resolution (µJ per count)."""
    counter, resolution, _ = _smi.call("rsmi_dev_energy_count_get", _smi.index(device))
    return int(counter * resolution) // 1000


def _memory(i: int, kind: int):
    total = _smi.call("rsmi_dev_memory_total_get", i, kind)[0]
    used = _smi.call("rsmi_dev_memory_usage_get", i, kind)[0]
    return total, used


@_checked
def device_get_memory_info_v2(device) -> Memory_v2:
    """VRAM in bytes (rocm-smi reserves none apart: `reserved` is 0)."""
    total, used = _memory(_smi.index(device), _MEM_VRAM)
    return Memory_v2(version=2 << 24 | 40, total=total, reserved=0, free=total - used, used=used)


@_checked
def device_get_bar1_memory_info(device) -> BAR1Memory:
    """The CPU-visible VRAM (AMD's counterpart of NVIDIA's BAR1) in bytes."""
    total, used = _memory(_smi.index(device), _MEM_VIS_VRAM)
    return BAR1Memory(bar1_total=total, bar1_free=total - used, bar1_used=used)


@_checked
def device_get_utilization_rates(device) -> Utilization:
    """Percent busy: the GPU's engines and its memory controller."""
    i = _smi.index(device)
    return Utilization(
        gpu=_smi.call("rsmi_dev_busy_percent_get", i)[0],
        memory=_smi.call("rsmi_dev_memory_busy_percent_get", i)[0],
    )


@_checked
def device_get_compute_mode(device) -> int:
    """COMPUTEMODE_DEFAULT: AMD's driver shares a GPU among processes, as NVML's default does."""
    _smi.index(device)
    return int(ComputeMode.COMPUTEMODE_DEFAULT)


@_checked
def device_get_pcie_throughput(device, counter) -> int:
    """KB/s sent (TX) or received (RX) over PCIe; rocm-smi measures over one second."""
    which = int(counter)
    if which not in (0, 1):
        raise _smi.Failure(_smi.INVALID_ARGUMENT, f"PCIe counter {which}")
    sent, received, max_packet = _smi.call("rsmi_dev_pci_throughput_get", _smi.index(device))
    packets = sent if which == 0 else received
    return packets * max_packet // 1024


def __getattr__(name):
    raise AttributeError(
        f"cuda.bindings.nvml.{name} is not provided over ROCm SMI: hip-python-as-cuda implements "
        "the NVML calls of nvidia_smi.py and common monitoring programs (docs/cuda.md#nvml)"
    )
