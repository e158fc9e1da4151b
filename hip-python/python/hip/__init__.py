"""HIP and ROCm libraries for Python: `from hip import hip, hiprtc`.

Each module binds one ROCm library, loaded on first use; a module left out of the build is
simply absent. Names, calling conventions and results follow hip-python 6.4.3.

The package carries the bindings of one ROCm release per major version; the first use of a
module picks the one that matches the installed HIP runtime (see `hip._select`):
`hip.hip.__rocm_release__` says which, `HIP_PYTHON_ROCM_RELEASE` overrides it.
"""

import sys as _sys

from hip import _select, _util  # noqa: F401 - hip-python's `import hip` makes `hip._util` available

__all__ = ["HipLoadError", "platform", "ROCM_VERSION", "ROCM_VERSION_NAME", "ROCM_VERSION_TUPLE"]

# The modules the package's releases have, as placeholders filled on first use.
_modules = sorted({m for r in _select.RELEASES for m in (r.get("modules") or ())})
_native = _select.placeholder("hip._native")
if _modules:
    for _name in _modules:
        globals()[_name] = _select.placeholder(f"hip.{_name}")
else:
    # A build without `_releases.json` (`maturin develop`) has one release: load it now.
    _modules = list(_select.native().MODULES)
    globals().update({n: _sys.modules[f"hip.{n}"] for n in _modules})
__all__ += _modules


def __getattr__(name):
    # What depends on the chosen release is looked up once it is chosen.
    if name == "HipLoadError":
        return _select.load_error_type()
    if name == "__version__":
        return _select.CATALOG.get("version") or _select.native().__version__
    if name == "platform":
        return _select.native().platform
    if name in ("ROCM_VERSION_NAME", "rocm_version_name"):
        return _select.chosen()["release"]
    if name in ("ROCM_VERSION_TUPLE", "rocm_version_tuple"):
        return tuple(int(p) for p in _select.chosen()["release"].split("."))
    if name == "ROCM_VERSION":
        major, minor, patch = __getattr__("ROCM_VERSION_TUPLE")
        return major * 10_000_000 + minor * 100_000 + patch
    if name in (
        "HIP_VERSION",
        "HIP_VERSION_NAME",
        "hip_version_name",
        "HIP_VERSION_TUPLE",
        "hip_version_tuple",
    ):
        if "hip" not in _modules:
            raise AttributeError(name)
        h = _sys.modules["hip.hip"]
        if name == "HIP_VERSION":
            return h.HIP_VERSION
        # As hip-python: (major, minor, patch, git hash) and "major.minor.patch-hash".
        githash = getattr(h, "HIP_VERSION_GITHASH", "")
        githash = githash.decode() if isinstance(githash, bytes) else str(githash)
        parts = (h.HIP_VERSION_MAJOR, h.HIP_VERSION_MINOR, h.HIP_VERSION_PATCH, githash)
        if name.lower() != "hip_version_name":
            return parts
        return ".".join(map(str, parts[:3])) + (f"-{githash}" if githash else "")
    raise AttributeError(f"module 'hip' has no attribute {name!r}")


def get_include() -> str:
    """The folder holding the package's Cython declarations (`hip/chip.pxd`, ...), for a
    build's include path (`cythonize(..., include_path=[hip.get_include()])`): those of the
    release hip-python chooses for this machine's runtime (their types are laid out for it;
    the default release's are beside the package, where Cython finds them on `sys.path` too;
    docs/cython.md)."""
    import os

    here = os.path.dirname(os.path.abspath(__file__))
    try:
        entry = _select.chosen()
    except Exception:  # noqa: BLE001 - no release loads here: the default release's
        entry = None
    if entry and entry.get("file"):
        include = os.path.join(here, os.path.dirname(entry["file"]), "include")
        if os.path.isdir(include):
            return include
    return os.path.dirname(here)


def _c_lookup():
    """The loader the `.pxd` trampolines call (a capsule of the chosen release's extension):
    a Cython extension finds each function where the Python bindings find it."""
    return _select.native()._c_lookup


def _attach_hiprtc_extras():
    """hiprtc's Python extras, once the release's hiprtc is in place."""
    from hip import _nvidia_options
    from hip import hiprtc_pyext as _ext

    hiprtc = _sys.modules.get("hip.hiprtc")
    if hiprtc is None or "__hip_missing__" in vars(hiprtc):
        return
    hiprtc.ext = _ext
    # On NVIDIA, hiprtc is NVRTC: AMD target options are translated there; on AMD
    # hiprtcCompileProgram stays the native one.
    if _select.native().platform() == "nvidia":
        hiprtc.hiprtcCompileProgram = _nvidia_options.compile_program(hiprtc.hiprtcCompileProgram)


if "hiprtc" in _modules:
    _select.on_load(_attach_hiprtc_extras)
