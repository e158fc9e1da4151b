"""Which release's bindings this process uses, chosen on first use.

A wheel carries the bindings of one ROCm release per major version (`_releases.json`, written
by build_pkgs.sh: the default release's extension is `hip._native`, each other one a file
`_rocm<major>/_bindings.abi3.so` of the package). Importing `hip` or `hip.hip` loads none of
them: the modules are placeholders until an attribute is first asked for. Then the HIP runtime
is found by the runtime's own search under each release's file names, newest first
(`HIP_PYTHON_LIBAMDHIP64`, TheRock's `rocm_sdk`, `$ROCM_PATH/lib` or `/opt/rocm*/lib`, the
system loader) and asked its version; the release of
that major version is loaded and its modules' contents are copied into the placeholders, so
later lookups cost what a plain module's do.

`HIP_PYTHON_ROCM_RELEASE` (`6`, `6.4` or `6.4.3`) overrides the choice. Without a runtime, or on
the NVIDIA platform, the default release serves. A runtime of a major version the wheel has no
bindings for makes every use raise `HipLoadError`, naming both.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import json
import os
import sys
import threading
import types

_HERE = os.path.dirname(__file__)
_LOCK = threading.RLock()
_chosen: dict | None = None
_native: types.ModuleType | None = None
_hooks: list = []


def _catalog() -> dict:
    """The releases the package carries; a build without `_releases.json` has just `_native`."""
    path = os.path.join(_HERE, "_releases.json")
    if os.path.exists(path):
        with open(path) as f:
            return json.load(f)
    return {"releases": [{"release": None, "module": "hip._native", "default": True, "modules": None}]}


CATALOG = _catalog()
RELEASES: list[dict] = CATALOG["releases"]


def _default() -> dict:
    return next(r for r in RELEASES if r.get("default")) if RELEASES else {}


def _major(release: str) -> str:
    return release.split(".")[0]


def _default_extension() -> types.ModuleType:
    """The default release's extension, loaded to ask its runtime (the platform, where a HIP
    runtime is); the generated modules it published leave sys.modules again. Only those: another
    thread may import others meanwhile."""
    before = dict(sys.modules)
    ext, published = _load_extension(_default())
    for name in published:
        if name in before:
            sys.modules[name] = before[name]
        else:
            sys.modules.pop(name, None)
    return ext


def _probe_runtime(release: dict) -> tuple[str, int | None] | None:
    """(path, major version or None) of the HIP runtime under `release`'s file names, found by
    the runtime's own search (`$HIP_PYTHON_LIBAMDHIP64`, `rocm_sdk`, ROCm's folders, the system
    loader)."""
    probe = release.get("probe") or {}
    found = _default_extension().library_version(probe.get("library", "amdhip64"), probe.get("sonames", []))
    if found is None:
        return None
    path, major, _minor = found
    return path, major


def _platform_is_nvidia() -> bool:
    """Whether the runtime runs HIP on NVIDIA here (`HIP_PLATFORM`, else the GPUs present)."""
    return _default_extension().platform() == "nvidia"


class ReleaseError(RuntimeError):
    """No bindings of this wheel fit the runtime (raised as HipLoadError once a module loads)."""


def choose() -> tuple[dict, str]:
    """(the release entry, why it was chosen)."""
    wanted = os.environ.get("HIP_PYTHON_ROCM_RELEASE", "").strip()
    carried = ", ".join(r["release"] or "?" for r in RELEASES)
    if wanted:
        for r in RELEASES:
            if r["release"] and (r["release"] == wanted or r["release"].startswith(wanted + ".")):
                return r, f"HIP_PYTHON_ROCM_RELEASE={wanted}"
        raise ReleaseError(
            f"HIP_PYTHON_ROCM_RELEASE={wanted}: this wheel carries bindings of ROCm {carried} only"
        )
    if len(RELEASES) == 1:
        return RELEASES[0], "the only release this package carries"
    if _platform_is_nvidia():
        return _default(), "the NVIDIA platform runs the default release"
    for r in RELEASES:  # newest first: each release's own sonames
        found = _probe_runtime(r)
        if found is None:
            continue
        path, major = found
        if major is None:
            return r, f"{path} loads"
        for fit in RELEASES:
            if _major(fit["release"]) == str(major):
                return fit, f"{path} is ROCm {major}.x"
        raise ReleaseError(
            f"the HIP runtime {path} is ROCm {major}.x; this wheel carries bindings of ROCm {carried} "
            "only. Install a supported ROCm, or set HIP_PYTHON_ROCM_RELEASE to one of those releases "
            "to use its bindings anyway."
        )
    return _default(), "no HIP runtime found: the default release"


def _published_since(before: dict) -> dict:
    """The generated modules an extension published in sys.modules since the snapshot `before`
    (plain modules whose dict holds `_hipgen_library_`; another package's lazy module is asked
    nothing): not what other threads imported meanwhile."""
    return {
        name: module
        for name, module in dict(sys.modules).items()
        if before.get(name) is not module
        and type(module) is types.ModuleType
        and "_hipgen_library_" in vars(module)
    }


# Each extension loaded, by module name: (extension, the modules it published in sys.modules).
_extensions: dict[str, tuple[types.ModuleType, dict[str, types.ModuleType]]] = {}


def _load_extension(entry: dict) -> tuple[types.ModuleType, dict[str, types.ModuleType]]:
    """Loads the extension of release `entry` from its file (`file`, relative to the package;
    the default release's is `hip._native`'s own), once, without the import system, which finds
    the placeholder under `hip._native`. The module name (`module`) names its init function.
    Returns it with the modules it published in sys.modules."""
    name = entry["module"]
    if name in _extensions:
        return _extensions[name]
    if entry.get("file"):
        paths = [os.path.join(_HERE, entry["file"])]
    else:
        paths = [os.path.join(_HERE, "_native" + s) for s in importlib.machinery.EXTENSION_SUFFIXES]
    for path in paths:
        if os.path.exists(path):
            loader = importlib.machinery.ExtensionFileLoader(name, path)
            spec = importlib.util.spec_from_file_location(name, path, loader=loader)
            before = dict(sys.modules)
            module = importlib.util.module_from_spec(spec)
            loader.exec_module(module)
            published = _published_since(before)
            _extensions[name] = (module, published)
            return _extensions[name]
    raise ImportError(f"the extension of ROCm {entry.get('release')} ({name}) is missing: {paths[0]}")


# (extension, chosen release or None, error text or None), once loaded.
_state: tuple[types.ModuleType, dict | None, str | None] | None = None


def _load() -> tuple[types.ModuleType, dict | None, str | None]:
    """Chooses the release and loads its extension, once; fills the placeholders from it."""
    global _state
    if _state is not None:
        return _state
    with _LOCK:
        if _state is not None:
            return _state
        # By their own names: a placeholder may be in sys.modules under an alias too
        # (`rocm.bindings.hip` is `hip.hip`), and is filled once. A snapshot, tested by exact
        # type: `isinstance` asks a module's `__class__`, which a lazy module of another package
        # (CuPy's) answers by importing, changing sys.modules while it is read.
        placeholders = {m.__name__: m for m in list(sys.modules.values()) if type(m) is Placeholder}
        try:
            entry, why = choose()
            error = None
        except ReleaseError as e:
            # Every use raises; the default release's extension supplies HipLoadError.
            entry, why, error = _default(), None, str(e)
        ext, published = _load_extension(entry)
        sys.modules.update(published)
        chosen = None
        if error is None:
            chosen = dict(entry, reason=why, release=entry["release"] or ext.ROCM_RELEASE)
            for name, holder in placeholders.items():
                real = ext if name == "hip._native" else published.get(name)
                if real is not None and real is not holder:
                    holder._fill(real, chosen["release"])
                else:
                    holder._missing(chosen["release"])
        # Loading the extension published its modules in sys.modules: the placeholders stay.
        sys.modules.update(placeholders)
        _state = (ext, chosen, error)
        if error is None:
            for hook in _hooks:
                hook()
        return _state


def native() -> types.ModuleType:
    """The chosen release's extension (loading it once); HipLoadError if none fits."""
    ext, _, error = _state or _load()
    if error is not None:
        raise ext.HipLoadError(error)
    return ext


def load_error_type() -> type:
    """The HipLoadError class of the extension in use."""
    return (_state or _load())[0].HipLoadError


def chosen() -> dict:
    """The chosen release: `release`, `module` (its extension) and `reason`."""
    native()
    return _state[1]


def on_load(hook) -> None:
    """Runs `hook()` once the release is loaded (at once if it already is)."""
    if _state is not None and _state[2] is None:
        hook()
    else:
        _hooks.append(hook)


class Placeholder(types.ModuleType):
    """A module whose contents come from the chosen release on first attribute access."""

    def __getattr__(self, name: str):
        if name.startswith("__") and name.endswith("__") and name != "__rocm_release__":
            raise AttributeError(name)
        native()
        try:
            # Now filled: the module's own lookup, its lazy `__getattr__` included.
            return types.ModuleType.__getattribute__(self, name)
        except AttributeError:
            missing = self.__dict__.get("__hip_missing__")
            raise AttributeError(missing or f"module {self.__name__!r} has no attribute {name!r}") from None

    def __dir__(self):
        native()
        # Filled, the module lists itself (the `__dir__` _fill installs); else what it holds.
        own = self.__dict__.get("__dir__")
        return own() if own is not None else sorted(self.__dict__)

    def _fill(self, real: types.ModuleType, release: str) -> None:
        keep = ("__name__", "__spec__", "__loader__", "__path__", "__file__", "__package__")
        mine = self.__dict__
        mine.update({k: v for k, v in real.__dict__.items() if k not in keep})
        mine["__rocm_release__"] = release
        lazy = real.__dict__.get("__getattr__")
        if lazy is not None:
            # The module makes its classes on first access (PEP 562) and keeps them in its
            # own dict: keep them in this one too, so that the next lookup is a plain one.
            def __getattr__(name, _lazy=lazy, _mine=mine):
                value = _mine[name] = _lazy(name)
                return value

            mine["__getattr__"] = __getattr__
        own_dir = real.__dict__.get("__dir__")

        def __dir__(_own=own_dir, _mine=mine):
            # The module's own list (its lazy classes) and what was set on it since (hiprtc.ext).
            return sorted(set(_own() if _own is not None else ()) | set(_mine))

        mine["__dir__"] = __dir__
        # Filled, it is a plain module again: CPython looks attributes of a ModuleType subclass
        # up through the class's `__getattr__` hook, ~100 ns on every `hip.hipX` access.
        self.__class__ = types.ModuleType

    def _missing(self, release: str) -> None:
        self.__dict__["__rocm_release__"] = release
        self.__dict__["__hip_missing__"] = (
            f"{self.__name__} is not in the bindings of ROCm {release}, which this process uses"
        )


def placeholder(name: str) -> Placeholder:
    """The placeholder published as `name` in sys.modules (made once)."""
    existing = sys.modules.get(name)
    if isinstance(existing, Placeholder):
        return existing
    module = Placeholder(name)
    module.__dict__["__package__"] = name.rpartition(".")[0]
    sys.modules[name] = module
    return module
