"""libclang's Python API (rocm-llvm-python's `rocm.clang.cindex`): LLVM's own bindings, the
`clang` package on PyPI (`clang.cindex`, the very module object), set up to load the libclang
of the ROCm installation or of the system.

Unless the program names a library (`Config.set_library_file` / `set_library_path`), libclang
is looked for in `$ROCM_PYTHON_LIBCLANG` (a file), `$ROCM_PATH/llvm/lib`, `$ROCM_HOME/llvm/lib`,
`/opt/rocm/llvm/lib`, then the system's LLVM installations (`/usr/lib/llvm-<N>/lib`, newest
first); if none is found, the first use raises `LibclangError` naming every place tried. The
bindings may be newer than that libclang, so their compatibility check is off: functions the
library lacks fail when called, not when it loads.
"""

import glob
import os
import re
import sys
from pathlib import Path

from clang import cindex as _cindex

#: Environment variable naming a libclang file to load.
ENV_VAR = "ROCM_PYTHON_LIBCLANG"


def _version_key(path: str):
    """Orders `/usr/lib/llvm-<N>/lib/libclang.so*` by N, then by the file's version."""
    return [int(n) for n in re.findall(r"\d+", path)]


def candidates() -> list:
    """The libclang files looked for, in order (existing or not)."""
    found = []
    if os.environ.get(ENV_VAR):
        found.append(os.environ[ENV_VAR])
    roots = [os.environ.get("ROCM_PATH"), os.environ.get("ROCM_HOME"), "/opt/rocm"]
    found += [str(Path(r) / "llvm/lib/libclang.so") for r in roots if r]
    # `libclang.so` comes with the -dev package; the library itself is libclang-<N>.so.1.
    system = glob.glob("/usr/lib/llvm-*/lib/libclang.so*") + glob.glob(
        "/usr/lib/llvm-*/lib/libclang-[0-9]*.so*"
    )
    found += sorted(system, key=_version_key, reverse=True)
    return found


def _get_filename(config, _original=_cindex.Config.get_filename):
    """The library to load: the program's choice, else the first of `candidates()` that
    exists; LibclangError naming them all if none does."""
    if _cindex.Config.library_file or _cindex.Config.library_path:
        return _original(config)
    tried = _cindex.candidates()  # the module's, which a program (or a test) may replace
    for path in tried:
        if os.path.exists(path):
            return path
    raise _cindex.LibclangError(
        "libclang was not found; tried " + ", ".join(tried or ["(nothing)"]) + f". Set {ENV_VAR} to its "
        "path, ROCM_PATH to a ROCm installation with llvm/lib/libclang.so, or call "
        "Config.set_library_file()."
    )


if not _cindex.Config.loaded:
    _cindex.Config.get_filename = _get_filename
    _cindex.Config.compatibility_check = False
    _cindex.candidates = candidates

sys.modules[__name__] = _cindex
