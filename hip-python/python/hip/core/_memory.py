"""`Buffer` and the memory resources of cuda.core, over HIP: `DeviceMemoryResource` (HIP's
stream-ordered pools), `PinnedMemoryResource` and `LegacyPinnedMemoryResource` (page-locked
host memory), `ManagedMemoryResource` (memory both sides reach)."""

from __future__ import annotations

import dataclasses
import sys

from hip import _native, hip

from . import _dlpack, _ordinal
from ._stream import Stream, Stream_accept, default_stream
from ._utils import names
from ._utils.cuda_utils import CUDAError, Exit, check, check_or_create_options

_DEFAULT_KIND = 4  # hipMemcpyDefault: the runtime tells host from device memory by address


class Buffer:
    """`size` bytes of memory at `handle` (an int address), owned by its memory resource:
    `close()` (or the end of a `with` block, or collection) gives it back."""

    __slots__ = ("_ptr", "_size", "_mr", "_owner", "_stream", "__weakref__")

    def __new__(cls, *args, **kwargs):
        raise RuntimeError("Buffer objects cannot be instantiated directly. Please use MemoryResource APIs.")

    @classmethod
    def _init(cls, ptr: int, size: int, mr=None, owner=None, stream=None) -> Buffer:
        global _registered
        if not _registered:
            _native.register_buffer_class(Buffer, "_ptr")
            _registered = True
        self = object.__new__(cls)
        self._ptr, self._size, self._mr, self._owner, self._stream = int(ptr), int(size), mr, owner, stream
        return self

    def __del__(self, _exit=Exit):  # `Exit` bound now: module globals are cleared at exit
        if self._mr is not None and not _exit.started:
            try:
                self._give_back(None)
            except Exception as e:  # noqa: BLE001 - a collected buffer cannot raise
                print(f"Warning: mr.deallocate() failed during Buffer destruction: {e}", file=sys.stderr)

    @staticmethod
    def from_handle(ptr, size: int, mr: MemoryResource | None = None, owner=None) -> Buffer:
        """A buffer over `ptr`: given back to `mr` on close, or keeping `owner` alive, or neither."""
        if mr is not None and owner is not None:
            raise ValueError("owner and memory resource cannot be both specified together")
        return Buffer._init(int(ptr) if ptr is not None else 0, size, mr=mr, owner=owner)

    @property
    def handle(self) -> int:
        return self._ptr

    @property
    def size(self) -> int:
        return self._size

    @property
    def memory_resource(self):
        return self._mr

    @property
    def owner(self):
        return self._owner

    @property
    def device_id(self) -> int:
        if self._mr is not None:
            return self._mr.device_id
        return _pointer_device(self._ptr)

    @property
    def is_device_accessible(self) -> bool:
        return self._mr.is_device_accessible if self._mr is not None else _pointer_kind(self._ptr)[0]

    @property
    def is_host_accessible(self) -> bool:
        return self._mr.is_host_accessible if self._mr is not None else _pointer_kind(self._ptr)[1]

    @property
    def is_managed(self) -> bool:
        return bool(getattr(self._mr, "is_managed", False))

    def close(self, stream=None) -> None:
        """Gives the memory back now (on `stream` if given); a second close does nothing."""
        if self._mr is not None:
            self._give_back(None if stream is None else Stream_accept(stream))
        self._ptr, self._size, self._owner = 0, 0, None

    def _give_back(self, stream) -> None:
        """Hands the memory to its resource (once: the buffer forgets it first), on `stream`, else
        the one it was allocated on, else the default stream."""
        mr, ptr, size, self._mr = self._mr, self._ptr, self._size, None
        if stream is None:
            stream = self._stream if self._stream is not None else default_stream()
        mr.deallocate(ptr, size, stream=stream)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def copy_to(self, dst: Buffer | None = None, *, stream) -> Buffer:
        """Copies this buffer into `dst` (a new one from this buffer's resource if None)."""
        stream = Stream_accept(stream)
        if dst is None:
            if self._mr is None:
                raise ValueError("a destination buffer must be provided (this buffer has no memory resource)")
            dst = self._mr.allocate(self._size, stream=stream)
        _check_sizes(self, dst)
        check(
            "hipMemcpyAsync",
            hip.hipMemcpyAsync(dst.handle, self._ptr, self._size, _DEFAULT_KIND, stream.handle),
        )
        return dst

    def copy_from(self, src: Buffer, *, stream) -> None:
        """Copies `src` (of the same size) into this buffer."""
        stream = Stream_accept(stream)
        _check_sizes(src, self)
        check(
            "hipMemcpyAsync",
            hip.hipMemcpyAsync(self._ptr, src.handle, self._size, _DEFAULT_KIND, stream.handle),
        )

    def fill(self, value, *, stream) -> None:
        """Sets every byte (an int 0-255, or 1 byte), or every 2 or 4 bytes (a bytes value that long)."""
        stream = Stream_accept(stream)
        width, pattern = fill_pattern(value)
        if self._size % width:
            raise ValueError(f"buffer size ({self._size}) must be divisible by {width}")
        call = {1: "hipMemsetD8Async", 2: "hipMemsetD16Async", 4: "hipMemsetD32Async"}[width]
        check(call, getattr(hip, call)(self._ptr, pattern, self._size // width, stream.handle))

    def __dlpack_device__(self) -> tuple[int, int]:
        device, host = self.is_device_accessible, self.is_host_accessible
        if device and not host:
            return _dlpack.gpu_kind(), self.device_id
        if device and host:
            return _dlpack.gpu_host_kind(self.is_managed), 0
        if host:
            return _dlpack.CPU, 0
        raise BufferError("buffer is neither device-accessible nor host-accessible")

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        """A DLPack capsule over the bytes (a one-dimensional int8 tensor), no copy."""
        if dl_device is not None:
            raise BufferError("Sorry, not supported: dl_device other than None")
        if copy is True:
            raise BufferError("Sorry, not supported: copy=True")
        if max_version is not None and not (isinstance(max_version, tuple) and len(max_version) == 2):
            raise BufferError(f"Expected max_version tuple[int, int], got {max_version}")
        versioned = max_version is not None and tuple(max_version) >= (1, 0)
        return _dlpack.to_capsule(
            self._ptr, (self._size,), "int8", self.__dlpack_device__(), self, None, versioned
        )

    def __eq__(self, other):
        return isinstance(other, Buffer) and (other._ptr, other._size) == (self._ptr, self._size)

    def __hash__(self):
        return hash((self._ptr, self._size))

    def __repr__(self):
        return f"<Buffer ptr={self._ptr:#x} size={self._size}>"


#: Whether the runtime's kernel-argument packer knows `Buffer` (told on the first buffer made,
#: not at import: that would load the extension).
_registered = False


def _check_sizes(src: Buffer, dst: Buffer) -> None:
    if src.size != dst.size:
        raise ValueError(
            f"buffer sizes mismatch between src and dst (sizes are: src={src.size}, dst={dst.size})"
        )


def fill_pattern(value, what: str = "fill") -> tuple[int, int]:
    """(width, pattern) of a fill or memset value (`what` names it in errors): an int is one
    byte; bytes or a NumPy scalar their own width (1, 2 or 4), read in the host's byte order."""
    if isinstance(value, int) and not isinstance(value, bool):
        if not 0 <= value <= 255:
            raise OverflowError(f"{what} value {value} does not fit in one byte (0-255)")
        return 1, value
    try:
        data = bytes(memoryview(value))
    except TypeError:
        raise TypeError(
            f"{what} value must be an int or a bytes-like object, got {type(value).__name__}"
        ) from None
    if len(data) not in (1, 2, 4):
        raise ValueError(f"value must be 1, 2, or 4 bytes, got {len(data)}")
    return len(data), int.from_bytes(data, sys.byteorder)


def _attributes(ptr: int):
    attrs = hip.hipPointerAttribute_t()
    status = hip.hipPointerGetAttributes(attrs, ptr)[0]
    return attrs if int(status) == 0 else None


def _pointer_kind(ptr: int) -> tuple[bool, bool]:
    """(device-accessible, host-accessible) of memory HIP did not allocate for us."""
    attrs = _attributes(ptr)
    if attrs is None:
        return False, True
    kind = int(attrs.type)
    managed = bool(getattr(attrs, "isManaged", False)) or kind == int(hip.hipMemoryType.hipMemoryTypeManaged)
    if managed or kind == int(hip.hipMemoryType.hipMemoryTypeHost):
        return True, True
    if kind in (int(hip.hipMemoryType.hipMemoryTypeDevice), int(hip.hipMemoryType.hipMemoryTypeArray)):
        return True, False
    return False, True


def _pointer_device(ptr: int) -> int:
    attrs = _attributes(ptr)
    return int(attrs.device) if attrs is not None else -1


class MemoryResource:
    """What allocates and frees buffers; subclasses give `allocate`, `deallocate`,
    `is_device_accessible`, `is_host_accessible` and `device_id`."""

    def allocate(self, size: int, *, stream) -> Buffer:
        raise TypeError("MemoryResource.allocate must be implemented by subclasses.")

    def deallocate(self, ptr, size: int, *, stream) -> None:
        raise TypeError("MemoryResource.deallocate must be implemented by subclasses.")

    @property
    def is_device_accessible(self) -> bool:
        raise TypeError("MemoryResource.is_device_accessible must be implemented by subclasses.")

    @property
    def is_host_accessible(self) -> bool:
        raise TypeError("MemoryResource.is_host_accessible must be implemented by subclasses.")

    @property
    def device_id(self) -> int:
        raise TypeError("MemoryResource.device_id must be implemented by subclasses.")

    is_managed = False


@dataclasses.dataclass
class DeviceMemoryResourceOptions:
    """A pool of its own: `ipc_enabled` (shareable with other processes), `max_size` (0: no limit)."""

    ipc_enabled: bool = False
    max_size: int = 0


class MemoryPoolAttributes:
    """A pool's attributes (`hipMemPoolGetAttribute`) by cuda.core's names, read when asked."""

    _BOOLS = (
        "reuse_follow_event_dependencies",
        "reuse_allow_opportunistic",
        "reuse_allow_internal_dependencies",
    )
    _SIZES = (
        "release_threshold",
        "reserved_mem_current",
        "reserved_mem_high",
        "used_mem_current",
        "used_mem_high",
    )

    def __init__(self, pool):
        self._pool = pool

    def __getattr__(self, name: str):
        if name not in self._BOOLS + self._SIZES:
            raise AttributeError(name)
        words = names.camel(name)
        members = hip.hipMemPoolAttr.__members__
        attr = members.get(f"hipMemPool{words}") or members[f"hipMemPoolAttr{words}"]
        cell = bytearray(8)
        check("hipMemPoolGetAttribute", hip.hipMemPoolGetAttribute(self._pool, attr, cell))
        value = int.from_bytes(cell, sys.byteorder)
        return bool(value) if name in self._BOOLS else value

    def __dir__(self):
        return sorted(self._BOOLS + self._SIZES)


class DeviceMemoryResource(MemoryResource):
    """Device memory from a HIP stream-ordered pool: the device's current pool (its release
    threshold raised so freed memory is kept for reuse), or a pool of its own (`options`)."""

    def __init__(self, device_id, options: DeviceMemoryResourceOptions | dict | None = None):
        self._device_id = _ordinal.device_ordinal(device_id)
        self._owned = options is not None
        if options is None:
            self._pool = check("hipDeviceGetMemPool", hip.hipDeviceGetMemPool(self._device_id))
            _set_pool_attribute(self._pool, hip.hipMemPoolAttr.hipMemPoolAttrReleaseThreshold, 2**64 - 1)
        else:
            options = check_or_create_options(
                DeviceMemoryResourceOptions, options, "Device memory resource options"
            )
            self._pool = _create_pool(self._device_id, options)
        self._ipc = bool(getattr(options, "ipc_enabled", False))

    def allocate(self, size: int, *, stream) -> Buffer:
        if type(stream) is not Stream:
            stream = Stream_accept(stream)
        status, ptr = hip.hipMallocFromPoolAsync(size, self._pool, stream._handle)
        if status != 0:
            check("hipMallocFromPoolAsync", (status,))
        return Buffer._init(int(ptr) if ptr is not None else 0, size, mr=self, stream=stream)

    def deallocate(self, ptr, size: int, *, stream) -> None:
        if type(stream) is not Stream:
            stream = Stream_accept(stream)
        (status,) = hip.hipFreeAsync(ptr, stream._handle)
        if status != 0:
            check("hipFreeAsync", (status,))

    def close(self) -> None:
        if self._owned and self._pool is not None:
            check("hipMemPoolDestroy", hip.hipMemPoolDestroy(self._pool))
        self._pool = None

    @property
    def handle(self):
        return self._pool

    @property
    def attributes(self) -> MemoryPoolAttributes:
        return MemoryPoolAttributes(self._pool)

    @property
    def is_handle_owned(self) -> bool:
        return self._owned

    @property
    def is_ipc_enabled(self) -> bool:
        return self._ipc

    @property
    def device_id(self) -> int:
        return self._device_id

    is_device_accessible = True
    is_host_accessible = False


def _set_pool_attribute(pool, attribute: int, value: int) -> None:
    cell = bytearray(value.to_bytes(8, sys.byteorder))
    check("hipMemPoolSetAttribute", hip.hipMemPoolSetAttribute(pool, attribute, cell))


def _create_pool(device_id: int, options: DeviceMemoryResourceOptions):
    props = hip.hipMemPoolProps()
    props.allocType = hip.hipMemAllocationType.hipMemAllocationTypePinned
    props.location.type = hip.hipMemLocationType.hipMemLocationTypeDevice
    props.location.id = device_id
    if options.ipc_enabled:
        props.handleTypes = hip.hipMemAllocationHandleType.hipMemHandleTypePosixFileDescriptor
    if options.max_size:
        props.maxSize = options.max_size
    return check("hipMemPoolCreate", hip.hipMemPoolCreate(props))


class _SynchronousMemoryResource(MemoryResource):
    """Device memory from `hipMalloc`/`hipFree` (devices without stream-ordered pools)."""

    def __init__(self, device_id):
        self._device_id = _ordinal.device_ordinal(device_id)

    def allocate(self, size: int, *, stream=None) -> Buffer:
        if stream is not None:
            Stream_accept(stream)
        ptr = check("hipMalloc", hip.hipMalloc(size)) if size else 0
        return Buffer._init(int(ptr) if ptr else 0, size, mr=self)

    def deallocate(self, ptr, size: int, *, stream=None) -> None:
        if stream is not None:
            Stream_accept(stream).sync()
        if size:
            check("hipFree", hip.hipFree(int(ptr)))

    @property
    def device_id(self) -> int:
        return self._device_id

    is_device_accessible = True
    is_host_accessible = False


class LegacyPinnedMemoryResource(MemoryResource):
    """Page-locked host memory from `hipHostMalloc`/`hipHostFree`: both sides reach it."""

    def allocate(self, size: int, *, stream=None) -> Buffer:
        if stream is not None:
            Stream_accept(stream)
        ptr = check("hipHostMalloc", hip.hipHostMalloc(size, 0)) if size else 0
        return Buffer._init(int(ptr) if ptr else 0, size, mr=self)

    def deallocate(self, ptr, size: int, *, stream=None) -> None:
        if stream is not None:
            Stream_accept(stream).sync()
        if size:
            check("hipHostFree", hip.hipHostFree(int(ptr)))

    @property
    def device_id(self) -> int:
        raise RuntimeError("a pinned memory resource is not bound to any GPU")

    is_device_accessible = True
    is_host_accessible = True


@dataclasses.dataclass
class PinnedMemoryResourceOptions:
    ipc_enabled: bool = False
    max_size: int = 0
    numa_id: int | None = None


class PinnedMemoryResource(LegacyPinnedMemoryResource):
    """Page-locked host memory. HIP has no stream-ordered pool of host memory: allocations are
    `hipHostMalloc`'s, freed after the stream's work (the stream is synchronized)."""

    def __init__(self, options: PinnedMemoryResourceOptions | dict | None = None):
        options = check_or_create_options(
            PinnedMemoryResourceOptions, options, "Pinned memory resource options"
        )
        if options.numa_id is not None and options.numa_id < 0:
            raise ValueError(f"numa_id must be >= 0, got {options.numa_id}")
        if options.ipc_enabled:
            raise CUDAError("IPC-enabled pinned memory pools are not supported by HIP")
        self.numa_id = options.numa_id

    @property
    def device_id(self) -> int:
        return -1


@dataclasses.dataclass
class ManagedMemoryResourceOptions:
    preferred_location: int | None = None
    preferred_location_type: str | None = None


#: The class of managed buffers (`_managed`'s `ManagedBuffer`, which builds on this module).
managed_buffer_class = Buffer


class ManagedMemoryResource(MemoryResource):
    """Managed memory (`hipMallocManaged`): one address both the host and devices reach."""

    def __init__(self, options: ManagedMemoryResourceOptions | dict | None = None):
        self._options = check_or_create_options(
            ManagedMemoryResourceOptions, options, "Managed memory options"
        )

    def allocate(self, size: int, *, stream) -> Buffer:
        stream = Stream_accept(stream)
        ptr = check("hipMallocManaged", hip.hipMallocManaged(size, hip.hipMemAttachGlobal)) if size else 0
        return managed_buffer_class._init(int(ptr) if ptr else 0, size, mr=self, stream=stream)

    def deallocate(self, ptr, size: int, *, stream) -> None:
        Stream_accept(stream).sync()
        if size:
            check("hipFree", hip.hipFree(int(ptr)))

    @property
    def device_id(self) -> int:
        location = self._options.preferred_location
        return location if location is not None and location >= 0 else -1

    is_device_accessible = True
    is_host_accessible = True
    is_managed = True


class IPCBufferDescriptor:
    """Not provided: HIP's IPC of pool allocations is not built into hip.core."""

    def __new__(cls, *args, **kwargs):
        raise CUDAError("hip.core does not share buffers between processes (IPC)")


class VirtualMemoryResource(MemoryResource):
    """Not provided yet: HIP's virtual memory calls (`hipMemCreate`, `hipMemMap`) are bound
    in `hip.hip`, but this resource is not built on them."""

    def __init__(self, *args, **kwargs):
        raise NotImplementedError(
            "hip.core's VirtualMemoryResource is not implemented; use hip.hipMemCreate/hipMemMap"
        )


@dataclasses.dataclass
class VirtualMemoryResourceOptions:
    allocation_type: str = "pinned"
    location_type: str = "device"
    handle_type: str | None = "posix_fd"
    granularity: str = "recommended"
    gpu_direct_rdma: bool = False
    addr_hint: int = 0
    addr_align: int | None = None
    peers: tuple = ()
    self_access: str = "rw"
    peer_access: str | None = "rw"
