"""ROCm SMI (`hip.rocm_smi`, librocm_smi64) as `cuda.bindings.nvml` reads it: the library
loaded on first use, NVML's reference-counted init over `rsmi_init`, and each `rsmi_status_t`
turned into NVML's return code (`Return`) with rocm-smi's own words kept for the message.
"""

from __future__ import annotations

import importlib
import operator
import threading

# rsmi_status_t → nvmlReturn_t. rocm-smi reports a sensor the kernel does not expose as a file
# error or "not supported"; NVML's programs expect NOT_SUPPORTED there and print "N/A".
_RETURN = {
    1: 2,  # INVALID_ARGS → ERROR_INVALID_ARGUMENT
    2: 3,  # NOT_SUPPORTED
    3: 3,  # FILE_ERROR (no such sysfs file) → ERROR_NOT_SUPPORTED
    4: 4,  # PERMISSION → ERROR_NO_PERMISSION
    5: 20,  # OUT_OF_RESOURCES → ERROR_MEMORY
    7: 2,  # INPUT_OUT_OF_BOUNDS → ERROR_INVALID_ARGUMENT
    8: 9,  # INIT_ERROR (no amdgpu driver or device) → ERROR_DRIVER_NOT_LOADED
    9: 3,  # NOT_YET_IMPLEMENTED → ERROR_NOT_SUPPORTED
    10: 6,  # NOT_FOUND
    11: 7,  # INSUFFICIENT_SIZE
    14: 21,  # NO_DATA
    16: 19,  # BUSY → ERROR_IN_USE
    18: 3,  # SETTING_UNAVAILABLE → ERROR_NOT_SUPPORTED
    19: 16,  # AMDGPU_RESTART_ERR → ERROR_RESET_REQUIRED
    21: 12,  # FAIL_LOAD_MODULE → ERROR_LIBRARY_NOT_FOUND
    22: 13,  # FAIL_LOAD_SYMBOL → ERROR_FUNCTION_NOT_FOUND
}
UNKNOWN = 999
UNINITIALIZED = 1
INVALID_ARGUMENT = 2
NOT_SUPPORTED = 3
NOT_FOUND = 6
LIBRARY_NOT_FOUND = 12
FUNCTION_NOT_FOUND = 13

#: NVML device handles are opaque addresses (`intptr_t` in cuda-python); ours carry this tag
#: over rocm-smi's device index, so that a plain index passed as a handle is refused.
_HANDLE_TAG = 0x5D1 << 20

_lock = threading.Lock()
_inits = 0
_module = None


class Failure(Exception):
    """An NVML return code and what rocm-smi said; `cuda.bindings.nvml` raises its NvmlError."""

    def __init__(self, status: int, detail: str):
        super().__init__(status, detail)
        self.status = status
        self.detail = detail


def _lib():
    global _module
    if _module is None:
        try:
            _module = importlib.import_module("hip.rocm_smi")
            _module.rsmi_init  # noqa: B018 (a placeholder module fills itself here)
        except Exception as e:  # not in these bindings, or no hip-python release fits
            raise Failure(LIBRARY_NOT_FOUND, f"ROCm SMI (hip.rocm_smi) is not available: {e}") from None
    return _module


def _load_error() -> type:
    import hip

    return hip.HipLoadError


def call(name: str, *args, loading: bool = False):
    """`rocm_smi.<name>(*args)`'s outputs after its status; Failure unless it succeeded."""
    lib = _lib()
    try:
        out = getattr(lib, name)(*args)
    except _load_error() as e:  # the library or one of its symbols is missing
        raise Failure(LIBRARY_NOT_FOUND if loading else FUNCTION_NOT_FOUND, str(e)) from None
    status = int(out[0])
    if status != 0:
        detail = f"rocm_smi's {name} returned {_status_name(lib, status)}"
        if status == 8:  # INIT_ERROR
            detail += ": no AMD GPU in the amdgpu driver's /sys/class/drm and KFD's /sys/class/kfd"
        raise Failure(_RETURN.get(status, UNKNOWN), detail)
    return out[1:]


def _status_name(lib, status: int) -> str:
    try:
        return lib.rsmi_status_t(status).name
    except ValueError:
        return str(status)


def text(name: str, *args, size: int = 256) -> str:
    """A string rocm-smi copies into a caller's buffer (`name(*args, buf, len)`)."""
    buf = bytearray(size)
    call(name, *args, buf, size)
    return bytes(buf).split(b"\0", 1)[0].decode(errors="replace")


def init() -> None:
    global _inits
    with _lock:
        if _inits == 0:
            call("rsmi_init", 0, loading=True)
        _inits += 1


def shutdown() -> None:
    global _inits
    with _lock:
        if _inits == 0:
            raise Failure(UNINITIALIZED, "shutdown without a matching init")
        if _inits == 1:
            call("rsmi_shut_down")
        _inits -= 1


def initialized() -> None:
    if _inits == 0:
        raise Failure(UNINITIALIZED, "call nvml.init_v2() first")


def count() -> int:
    initialized()
    return call("rsmi_num_monitor_devices")[0]


def handle(index: int) -> int:
    index = operator.index(index)
    n = count()
    if not 0 <= index < n:
        raise Failure(INVALID_ARGUMENT, f"device index {index}: rocm-smi has {n} device(s)")
    return _HANDLE_TAG | index


def index(device) -> int:
    """rocm-smi's device index behind an NVML handle; Failure for anything else."""
    try:
        value = operator.index(device)
    except TypeError:
        raise TypeError(f"an NVML device handle (int) is required, not {type(device).__name__}") from None
    initialized()
    if value & ~0xFFFFF != _HANDLE_TAG or (value & 0xFFFFF) >= count():
        raise Failure(INVALID_ARGUMENT, f"{value:#x} is not a device handle of nvml.device_get_handle_by_*")
    return value & 0xFFFFF
