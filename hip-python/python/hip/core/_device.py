"""`Device` (cuda.core's): one object per GPU and thread, its properties, and what is made on
it (streams, events, memory)."""

from __future__ import annotations

import threading

from hip import _native, hip

from . import _ordinal
from ._context import Context
from ._event import Event, EventOptions
from ._memory import Buffer, DeviceMemoryResource, MemoryResource, _SynchronousMemoryResource
from ._stream import Stream, default_stream
from ._utils.cuda_utils import ComputeCapability, CUDAError, check, check_or_create_options

_tls = threading.local()


class DeviceProperties:
    """The device's attributes (`hipDeviceGetAttribute`), by cuda.core's names, each read on
    first use: `dev.properties.multiprocessor_count`. A property HIP has no attribute for is 0,
    as cuda.core answers one the driver does not know."""

    def __init__(self, device_id: int):
        self._id, self._cache = device_id, {}

    def __getattr__(self, name: str):
        if name.startswith("_"):
            raise AttributeError(name)
        if name not in self._cache:
            attr = _attribute(name)
            if attr is None:
                # As cuda.core answers an attribute the driver does not know: HIP has none.
                self._cache[name] = 0
            else:
                self._cache[name] = check("hipDeviceGetAttribute", hip.hipDeviceGetAttribute(attr, self._id))
        return self._cache[name]

    def __dir__(self):
        return sorted(set(_ATTRIBUTE_NAMES) | set(super().__dir__()))


def _camel(name: str) -> str:
    return "".join(p[:1].upper() + p[1:] for p in name.split("_"))


#: cuda.core's property names whose HIP attribute is not the camel-cased name.
_RENAMED = {
    "max_threads_per_block": "MaxThreadsPerBlock",
    "max_shared_memory_per_block": "MaxSharedMemoryPerBlock",
    "total_constant_memory": "TotalConstantMemory",
    "multiprocessor_count": "MultiprocessorCount",
    "clock_rate": "ClockRate",
    "memory_clock_rate": "MemoryClockRate",
    "global_memory_bus_width": "MemoryBusWidth",
    "l2_cache_size": "L2CacheSize",
    "compute_capability_major": "ComputeCapabilityMajor",
    "compute_capability_minor": "ComputeCapabilityMinor",
    "warp_size": "WarpSize",
    "max_registers_per_block": "MaxRegistersPerBlock",
    "max_shared_memory_per_multiprocessor": "MaxSharedMemoryPerMultiprocessor",
    "max_threads_per_multiprocessor": "MaxThreadsPerMultiProcessor",
    "memory_pools_supported": "MemoryPoolsSupported",
    "cooperative_launch": "CooperativeLaunch",
    "concurrent_managed_access": "ConcurrentManagedAccess",
    "managed_memory": "ManagedMemory",
    "pci_bus_id": "PciBusId",
    "pci_device_id": "PciDeviceId",
    "pci_domain_id": "PciDomainID",
    "integrated": "Integrated",
    "can_map_host_memory": "CanMapHostMemory",
    "unified_addressing": "UnifiedAddressing",
    "ecc_enabled": "EccEnabled",
    "max_block_dim_x": "MaxBlockDimX",
    "max_block_dim_y": "MaxBlockDimY",
    "max_block_dim_z": "MaxBlockDimZ",
    "max_grid_dim_x": "MaxGridDimX",
    "max_grid_dim_y": "MaxGridDimY",
    "max_grid_dim_z": "MaxGridDimZ",
    "max_pitch": "MaxPitch",
    "texture_alignment": "TextureAlignment",
    "concurrent_kernels": "ConcurrentKernels",
    "async_engine_count": "AsyncEngineCount",
    "kernel_exec_timeout": "KernelExecTimeout",
    "compute_mode": "ComputeMode",
    "max_shared_memory_per_block_optin": "SharedMemPerBlockOptin",
    "pageable_memory_access": "PageableMemoryAccess",
    "host_native_atomic_supported": "HostNativeAtomicSupported",
    "virtual_memory_management_supported": "VirtualMemoryManagementSupported",
    "max_blocks_per_multiprocessor": "MaxBlocksPerMultiProcessor",
    "stream_priorities_supported": "StreamPrioritiesSupported",
    "global_l1_cache_supported": "GlobalL1CacheSupported",
    "local_l1_cache_supported": "LocalL1CacheSupported",
    "multi_gpu_board": "IsMultiGpuBoard",
    "multi_gpu_board_group_id": "MultiGpuBoardGroupId",
    "direct_managed_mem_access_from_host": "DirectManagedMemAccessFromHost",
    "can_use_host_pointer_for_registered_mem": "CanUseHostPointerForRegisteredMem",
    "pageable_memory_access_uses_host_page_tables": "PageableMemoryAccessUsesHostPageTables",
    "compute_preemption_supported": "ComputePreemptionSupported",
    "single_to_double_precision_perf_ratio": "SingleToDoublePrecisionPerfRatio",
}

_ATTRIBUTE_NAMES = tuple(_RENAMED)


def _attribute(name: str):
    """HIP's `hipDeviceAttribute_t` member for cuda.core's property `name`, or None."""
    members = hip.hipDeviceAttribute_t.__members__
    for candidate in (_RENAMED.get(name), _camel(name)):
        if candidate and f"hipDeviceAttribute{candidate}" in members:
            return members[f"hipDeviceAttribute{candidate}"]
    return None


class Device:
    """A GPU, by ordinal (None: the current one). `Device(0) is Device(0)` in a thread. Call
    `set_current()` before making streams, events or memory on it."""

    __slots__ = ("_id", "_properties", "_mr", "_uuid", "_initialized")

    def __new__(cls, device_id: Device | int | None = None):
        if isinstance(device_id, Device):
            return device_id
        ordinal = _ordinal.device_ordinal(device_id)
        devices = getattr(_tls, "devices", None)
        if devices is None:
            devices = _tls.devices = {}
        device = devices.get(ordinal)
        if device is None:
            device = devices[ordinal] = object.__new__(cls)
            device._id, device._properties, device._mr, device._uuid = ordinal, None, None, None
            device._initialized = False
        return device

    @classmethod
    def get_all_devices(cls) -> tuple[Device, ...]:
        return tuple(cls(i) for i in range(check("hipGetDeviceCount", hip.hipGetDeviceCount())))

    @property
    def device_id(self) -> int:
        return self._id

    def __int__(self):
        return self._id

    def __repr__(self):
        return f"<Device {self._id} ({self.name})>"

    def __eq__(self, other):
        return (
            isinstance(other, Device) and other._id == self._id
            if isinstance(other, Device)
            else NotImplemented
        )

    def __hash__(self):
        return hash(("Device", self._id))

    def __reduce__(self):
        return Device, (self._id,)

    @property
    def name(self) -> str:
        return (
            check("hipDeviceGetName", hip.hipDeviceGetName(256, self._id))
            .split(b"\0")[0]
            .decode(errors="replace")
        )

    @property
    def uuid(self) -> str:
        """The GPU's UUID, `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`."""
        if self._uuid is None:
            raw = bytes(check("hipDeviceGetUuid", hip.hipDeviceGetUuid(self._id)).bytes)[:16]
            h = raw.hex()
            self._uuid = f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:32]}"
        return self._uuid

    @property
    def pci_bus_id(self) -> str:
        text = check("hipDeviceGetPCIBusId", hip.hipDeviceGetPCIBusId(13, self._id))
        return text.split(b"\0")[0].decode()[:12]

    @property
    def compute_capability(self) -> ComputeCapability:
        major, minor = check("hipDeviceComputeCapability", hip.hipDeviceComputeCapability(self._id))
        return ComputeCapability(major, minor)

    @property
    def arch(self) -> str:
        """What programs compile for: `"90"` (sm_90) on NVIDIA, as cuda.core; the gfx name
        (`"gfx90a"`) on AMD."""
        if _native.platform() == "nvidia":
            return "{}{}".format(*self.compute_capability)
        prop = hip.hipDeviceProp_t()
        check("hipGetDeviceProperties", hip.hipGetDeviceProperties(prop, self._id))
        return prop.gcnArchName.decode(errors="replace").split(":")[0]

    @property
    def properties(self) -> DeviceProperties:
        if self._properties is None:
            self._properties = DeviceProperties(self._id)
        return self._properties

    def set_current(self, ctx: object = None) -> None:
        """Makes this device current for the calling thread."""
        if ctx is not None:
            raise CUDAError("HIP has no contexts to set: call set_current() without one")
        _ordinal.set_current(self._id)
        self._initialized = True

    def _check_initialized(self) -> None:
        if not self._initialized:
            raise CUDAError(
                f"Device {self._id} is not yet initialized, perhaps you forgot to call .set_current() first?"
            )

    @property
    def context(self) -> Context:
        """The device's primary context, current in this thread."""
        self._check_initialized()
        return Context._current(self._id)

    @property
    def memory_resource(self) -> MemoryResource:
        if self._mr is None:
            pools = check(
                "hipDeviceGetAttribute",
                hip.hipDeviceGetAttribute(
                    hip.hipDeviceAttribute_t.hipDeviceAttributeMemoryPoolsSupported, self._id
                ),
            )
            self._mr = DeviceMemoryResource(self._id) if pools else _SynchronousMemoryResource(self._id)
        return self._mr

    @memory_resource.setter
    def memory_resource(self, mr: MemoryResource) -> None:
        if not isinstance(mr, MemoryResource):
            raise TypeError(f"memory_resource must be a MemoryResource, got {type(mr).__name__}")
        self._mr = mr

    @property
    def default_stream(self) -> Stream:
        return default_stream()

    def create_stream(self, obj=None, options=None) -> Stream:
        self._check_initialized()
        return Stream._create(self._id, obj, options)

    def create_event(self, options: EventOptions | dict | None = None) -> Event:
        self._check_initialized()
        options = check_or_create_options(EventOptions, options, "Event options")
        if options.ipc_enabled:
            raise TypeError("IPC-enabled events must be bound; use Stream.record for creation.")
        return Event._init(options, self._id)

    def allocate(self, size: int, *, stream) -> Buffer:
        self._check_initialized()
        return self.memory_resource.allocate(size, stream=stream)

    def sync(self) -> None:
        self._check_initialized()
        check("hipDeviceSynchronize", hip.hipDeviceSynchronize())

    def can_access_peer(self, peer) -> bool:
        peer = int(getattr(peer, "device_id", peer))
        if peer == self._id:
            return True
        return bool(check("hipDeviceCanAccessPeer", hip.hipDeviceCanAccessPeer(self._id, peer)))

    def create_graph_builder(self):
        self._check_initialized()
        stream = self.create_stream()
        return stream.create_graph_builder()._owning(stream)


_ordinal.device_class = Device
