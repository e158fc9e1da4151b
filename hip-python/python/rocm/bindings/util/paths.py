"""Where ROCm's libraries are (AMD 10.0's `rocm.bindings.util.paths`), for programs that open
a library themselves (numba-hip opens libamdhip64 and libclang so).

`get_library_path("amdhip64")` gives the file a program should load: found beside the
package, through TheRock's `rocm_sdk`, under `$ROCM_PATH` / `$ROCM_HOME` / `/opt/rocm`
(`llvm/lib` for LLVM and clang), in the system's LLVM installations (clang), else the bare
file name for the system loader. It never raises: a name that cannot be found is returned as
the loader would be asked for it.
"""

import glob
import os
import re
from pathlib import Path

__all__ = ["get_clang_resource_dir", "get_library_path"]

#: Libraries that live in ROCm's `llvm/lib` rather than `lib`.
_LLVM_LIBRARIES = ("LLVM", "clang")


def _rocm_roots():
    """The ROCm installations to look in, the environment's first."""
    roots = [os.environ.get("ROCM_PATH"), os.environ.get("ROCM_HOME"), "/opt/rocm"]
    return [Path(r) for r in roots if r]


def _versioned(folder: Path, filename: str):
    """`folder/filename`, or the file with the highest version suffix (`libclang.so.19.1`)."""
    exact = folder / filename
    if exact.exists():
        return exact
    found = sorted(glob.glob(str(folder / (filename + ".*"))), key=_version_key)
    return Path(found[-1]) if found else None


def _folder_version(folder: str):
    """`/usr/lib/llvm-19/lib` → [19]."""
    return [int(n) for n in re.findall(r"\d+", folder)]


def _version_key(path: str):
    return [int(n) for n in re.findall(r"\d+", os.path.basename(path))]


def _rocm_sdk(shortname: str):
    """The library from TheRock's `rocm_sdk` wheels, if installed."""
    try:
        import rocm_sdk
    except ImportError:
        return None
    try:
        found = rocm_sdk.find_libraries(shortname)
    except Exception:  # noqa: BLE001 - rocm_sdk raises its own types for unknown names
        return None
    return Path(found[0]) if found else None


def _system_clang():
    """libclang of the system's newest LLVM installation (Debian's `/usr/lib/llvm-<N>`)."""
    newest_first = sorted(glob.glob("/usr/lib/llvm-*/lib"), key=_folder_version, reverse=True)
    for folder in newest_first:
        # `libclang.so` comes with the -dev package; the library itself is libclang-<N>.so.1.
        found = _versioned(Path(folder), "libclang.so") or next(
            iter(sorted(Path(folder).glob("libclang-[0-9]*.so*"))), None
        )
        if found:
            return found
    return None


def get_library_path(shortname: str, bundled_location=None) -> bytes:
    """The path of library `lib<shortname>.so` to load, as bytes (AMD's return type)."""
    filename = f"lib{shortname}.so"
    candidates = []
    if bundled_location:
        candidates.append(_versioned(Path(bundled_location), filename))
    candidates.append(_rocm_sdk(shortname))
    sub = "llvm/lib" if shortname in _LLVM_LIBRARIES else "lib"
    candidates += [_versioned(root / sub, filename) for root in _rocm_roots()]
    if shortname == "clang":
        candidates.append(_system_clang())
    for found in candidates:
        if found is not None and found.exists():
            return os.fsencode(found)
    return filename.encode()


def get_clang_resource_dir(libclang_file=None):
    """The resource folder (`lib/clang/<version>`, with clang's own headers) of the libclang
    at `libclang_file` (default: the one `get_library_path("clang")` finds), the highest
    version if there are several; None if there is none."""
    if libclang_file is None:
        libclang_file = os.fsdecode(get_library_path("clang"))
    # Beside the file as named (Debian's /usr/lib/llvm-15/lib/libclang.so links elsewhere),
    # then beside the file it links to.
    named = Path(os.fsdecode(libclang_file))
    folders = [named.parent / "clang", named.resolve().parent / "clang"]
    folders += [root / "llvm/lib/clang" for root in _rocm_roots()]
    for folder in folders:
        versions = sorted(glob.glob(str(folder / "*")), key=_version_key)
        if versions:
            return versions[-1]
    return None
