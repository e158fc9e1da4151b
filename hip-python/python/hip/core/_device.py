"""`Device` (cuda.core's): one object per GPU and thread, its properties, and what is made on
it (streams, events, memory)."""

from __future__ import annotations

import threading

from hip import _native, hip

from . import _device_properties as _properties
from . import _ordinal
from ._context import Context
from ._event import Event, EventOptions
from ._memory import Buffer, DeviceMemoryResource, MemoryResource, _SynchronousMemoryResource
from ._stream import Stream, default_stream
from ._utils import names
from ._utils.cuda_utils import ComputeCapability, CUDAError, check, check_or_create_options
from ._utils.version import binding_version


class _ThreadDevices(threading.local):
    """This thread's `Device` objects by ordinal (cuda.core's test helpers read `devices`)."""

    def __init__(self):
        self.devices = {}


_tls = _ThreadDevices()


class DeviceProperties:
    """The device's attributes (`hipDeviceGetAttribute`), by cuda.core's names, each read on
    first use: `dev.properties.multiprocessor_count`. A property HIP has no attribute for, or
    one the platform's driver does not answer, is 0 (False), as cuda.core answers one the
    driver does not know."""

    def __new__(cls, *args, **kwargs):
        raise RuntimeError("DeviceProperties cannot be instantiated directly. Please use Device APIs.")

    @classmethod
    def _init(cls, device_id: int) -> DeviceProperties:
        self = object.__new__(cls)
        self._id, self._cache = device_id, {}
        return self

    def __getattr__(self, name: str):
        if name.startswith("_") or name not in _property_names():
            raise AttributeError(f"'DeviceProperties' object has no attribute '{name}'")
        value = self._cache.get(name)
        if value is None:
            value = self._cache[name] = self._read(name)
        return value

    def _read(self, name: str):
        attr = _attribute(name)
        value = 0
        if attr is not None:
            status, answer = hip.hipDeviceGetAttribute(attr, self._id)
            if status != hip.hipError_t.hipErrorInvalidValue:
                value = check("hipDeviceGetAttribute", (status, answer))
        return bool(value) if name in _properties.BOOLS else value

    def __dir__(self):
        return sorted(_property_names() | set(super().__dir__()))


def _property_names() -> frozenset[str]:
    """cuda.core's property names, those of CUDA 13 only with CUDA 13's bindings (as cuda.core)."""
    if binding_version() >= (13, 0, 0):
        return _properties.BOOLS | _properties.INTS
    return (_properties.BOOLS | _properties.INTS) - _properties.CUDA_13


def _attribute(name: str):
    """HIP's `hipDeviceAttribute_t` member for cuda.core's property `name`, or None."""
    members = hip.hipDeviceAttribute_t.__members__
    for candidate in (_properties.RENAMED.get(name), names.camel(name)):
        if candidate and f"hipDeviceAttribute{candidate}" in members:
            return members[f"hipDeviceAttribute{candidate}"]
    return None


class Device:
    """A GPU, by ordinal (None: the current one). `Device(0) is Device(0)` in a thread. Call
    `set_current()` before making streams, events or memory on it."""

    __slots__ = ("_id", "_properties", "_mr", "_uuid", "_initialized")

    def __new__(cls, device_id: Device | int | None = None):
        if device_id is None:
            status, device_id = hip.hipGetDevice()
            if status != 0:
                check("hipGetDevice", (status,))
        try:
            # The common case, kept short: a device this thread has asked for before.
            return _tls.devices[device_id]
        except (KeyError, TypeError):
            return cls._make(device_id)

    @classmethod
    def _make(cls, device_id) -> Device:
        if isinstance(device_id, Device):
            return device_id
        ordinal = _ordinal.device_ordinal(device_id)
        devices = _tls.devices
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
            self._properties = DeviceProperties._init(self._id)
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
        return Stream._init(obj, options, self._id)

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
