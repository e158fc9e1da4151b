"""cuda.core's `typing`: the string enums its API takes and answers (each member equal to its
string, as a `StrEnum`), and the stream protocol."""

from __future__ import annotations

import enum
from typing import Protocol


class _StrEnum(str, enum.Enum):
    """A member is its string (`SourceCodeType.CXX == "c++"`)."""

    def __str__(self) -> str:
        return str(self.value)


class SourceCodeType(_StrEnum):
    CXX = "c++"
    PTX = "ptx"
    NVVM = "nvvm"


class ObjectCodeFormatType(_StrEnum):
    PTX = "ptx"
    CUBIN = "cubin"
    LTOIR = "ltoir"
    FATBIN = "fatbin"
    OBJECT = "object"
    LIBRARY = "library"


class CompilerBackendType(_StrEnum):
    NVRTC = "NVRTC"
    NVVM = "NVVM"
    NVJITLINK = "nvJitLink"
    DRIVER = "driver"
    HIPRTC = "hiprtc"


class PCHStatusType(_StrEnum):
    CREATED = "created"
    NOT_ATTEMPTED = "not_attempted"
    FAILED = "failed"


class GraphConditionalType(_StrEnum):
    IF = "if"
    WHILE = "while"
    SWITCH = "switch"


class GraphMemoryType(_StrEnum):
    DEVICE = "device"
    HOST = "host"
    MANAGED = "managed"


class ManagedMemoryLocationType(_StrEnum):
    DEVICE = "device"
    HOST = "host"
    HOST_NUMA = "host_numa"


class VirtualMemoryHandleType(_StrEnum):
    POSIX_FD = "posix_fd"
    WIN32_KMT = "win32_kmt"
    FABRIC = "fabric"


class VirtualMemoryLocationType(_StrEnum):
    DEVICE = "device"
    HOST = "host"
    HOST_NUMA = "host_numa"
    HOST_NUMA_CURRENT = "host_numa_current"


class VirtualMemoryGranularityType(_StrEnum):
    MINIMUM = "minimum"
    RECOMMENDED = "recommended"


class VirtualMemoryAccessType(_StrEnum):
    READ_WRITE = "rw"
    READ = "r"


class VirtualMemoryAllocationType(_StrEnum):
    PINNED = "pinned"
    MANAGED = "managed"


class IsStreamType(Protocol):
    """An object with `__cuda_stream__()` giving `(0, address)`."""

    def __cuda_stream__(self) -> tuple[int, int]: ...
