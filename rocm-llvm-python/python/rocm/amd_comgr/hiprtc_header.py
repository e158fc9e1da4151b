"""The hipRTC runtime header (`hiprtc_runtime.h`), read from the installed ROCm.

hipRTC prepends this text to every program it compiles: it declares what HIP's own headers
would (`__global__`, `threadIdx`, the `__ocml_*` maths, `malloc`). Compiling HIP source through
comgr directly, as numba-hip does, needs the same text. ROCm keeps it in the data symbols
`__hipRTC_header` (a char array) and `__hipRTC_header_size` of `libhiprtc-builtins`; reading
it there gives the text of the ROCm that is installed, generated for this platform's data
model, rather than a copy frozen into this package.

Where it is looked for, first found wins:

1. `HIP_PYTHON_HIPRTC_RUNTIME_HEADER`: a header file to use instead (AMD's variable, kept so
   that a setting made for AMD's package works here too);
2. `ROCM_PYTHON_LIBHIPRTC_BUILTINS`: an explicit library path (as `ROCM_PYTHON_LIBAMD_COMGR`);
3. `$ROCM_PATH/lib`, then the directory comgr was loaded from (both ship in one ROCm);
4. the system loader, by soname, newest release first.

Nothing is read until asked for, and the text is kept once read (800 KB with ROCm 7).
"""

import ctypes
import os
from pathlib import Path

#: Environment variable naming a header file that replaces the library's text.
HEADER_PATH_ENV_VAR = "HIP_PYTHON_HIPRTC_RUNTIME_HEADER"
#: Environment variable naming the library file explicitly.
LIBRARY_ENV_VAR = "ROCM_PYTHON_LIBHIPRTC_BUILTINS"
#: The library's sonames, newest ROCm first (7: libhiprtc-builtins7, 5: bookworm's), then the
#: unversioned development link.
LIBRARY_NAMES = (
    "libhiprtc-builtins.so.7",
    "libhiprtc-builtins.so.6",
    "libhiprtc-builtins.so.5",
    "libhiprtc-builtins.so",
)
#: The exported symbols; internal to hipRTC (no header declares them).
HEADER_SYMBOL = "__hipRTC_header"
HEADER_SIZE_SYMBOL = "__hipRTC_header_size"

_resolved = None  # (text, origin) once read


class _DlInfo(ctypes.Structure):
    _fields_ = [
        ("dli_fname", ctypes.c_char_p),
        ("dli_fbase", ctypes.c_void_p),
        ("dli_sname", ctypes.c_char_p),
        ("dli_saddr", ctypes.c_void_p),
    ]


def _file_of_address(address):
    """The shared object holding `address` (dladdr), or None: names the origin of a library
    the system loader found by soname, and finds comgr's directory."""
    try:
        dladdr = ctypes.CDLL(None).dladdr
    except (OSError, AttributeError):
        return None
    dladdr.argtypes = (ctypes.c_void_p, ctypes.POINTER(_DlInfo))
    info = _DlInfo()
    if not address or not dladdr(address, ctypes.byref(info)) or not info.dli_fname:
        return None
    return os.fsdecode(info.dli_fname)


def _comgr_directory():
    """Where libamd_comgr was loaded from (loading it if it is not yet), or None."""
    try:
        from rocm.amd_comgr import amd_comgr

        path = _file_of_address(amd_comgr._symbol_address("amd_comgr_get_version"))
    except Exception:  # a missing comgr only removes one place to look
        return None
    return Path(path).parent if path else None


def _candidates():
    """(name or path, what it came from) in search order."""
    explicit = os.environ.get(LIBRARY_ENV_VAR)
    if explicit:
        # An explicit path is tried alone, as the other ROCM_PYTHON_LIB<NAME> variables are.
        return [(explicit, f"${LIBRARY_ENV_VAR}")]
    found = []
    folders = []
    if os.environ.get("ROCM_PATH"):
        folders.append((Path(os.environ["ROCM_PATH"]) / "lib", "$ROCM_PATH/lib"))
    comgr_dir = _comgr_directory()
    if comgr_dir:
        folders.append((comgr_dir, "comgr's directory"))
    for folder, why in folders:
        for name in LIBRARY_NAMES:
            if (folder / name).is_file():
                found.append((str(folder / name), why))
    found += [(name, "system loader") for name in LIBRARY_NAMES]
    return found


def _read_library(library):
    """(header text, address of its first byte) of a loaded library; None if it lacks the
    symbols. The address names the file the system loader chose (dladdr)."""
    try:
        size = ctypes.c_size_t.in_dll(library, HEADER_SIZE_SYMBOL).value
        # The symbol is the array itself, not a pointer to it: take its address.
        start = ctypes.addressof(ctypes.c_char.in_dll(library, HEADER_SYMBOL))
    except ValueError:
        return None
    return ctypes.string_at(start, size).decode("utf-8").replace("\r\n", "\n"), start


def _resolve():
    global _resolved
    if _resolved is not None:
        return _resolved
    override = os.environ.get(HEADER_PATH_ENV_VAR)
    if override:
        text = Path(override).read_text(encoding="utf-8").replace("\r\n", "\n")
        _resolved = (text, override)
        return _resolved
    tried = []
    for name, why in _candidates():
        try:
            library = ctypes.CDLL(name)
        except OSError as e:
            tried.append(f"{name} ({why}): {e}")
            continue
        read = _read_library(library)
        if read is None:
            tried.append(f"{name} ({why}): does not export {HEADER_SYMBOL}/{HEADER_SIZE_SYMBOL}")
            continue
        text, start = read
        _resolved = (text, _file_of_address(start) or name)
        return _resolved
    raise RuntimeError(
        "the hipRTC runtime header, which compiling HIP source through comgr needs, was not "
        "found: libhiprtc-builtins (ROCm's hipRTC builtins library) could not be used. Tried:\n  "
        + "\n  ".join(tried)
        + f"\nSet {LIBRARY_ENV_VAR} to the library, or {HEADER_PATH_ENV_VAR} to a header file."
    )


def get_hiprtc_runtime_header() -> str:
    """The text of `hiprtc_runtime.h` from the installed ROCm; RuntimeError if not found."""
    return _resolve()[0]


def get_hiprtc_runtime_header_origin() -> str:
    """The file the header text was read from (the library, or the override file)."""
    return _resolve()[1]
