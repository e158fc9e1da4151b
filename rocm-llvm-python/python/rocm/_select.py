"""Which bindings of LLVM and of comgr this process uses, chosen on first use.

A wheel carries the LLVM C API bindings of several LLVM major versions and comgr's of several
interface versions (`_bindings.json`, written by build_pkgs.sh): the default release's in
`rocm._native`, each other version's in an extension of its own (`_llvm19/_bindings.abi3.so`).
Their modules are placeholders until an attribute of one is first asked for. Then the library
is found by `rocm._native`'s search (the `ROCM_PYTHON_LIB*` overrides, `rocm_sdk`, ROCm's
folders, the system loader) and asked its version; the bindings of that version are used, or,
where the wheel has none of it, those of the nearest version (the older of two as near). The
chosen extension loads that same file, and its modules' contents fill the placeholders, so
later lookups cost what a plain module's do. Without the library, or where it reports no
version (LLVM before 16), the default's bindings serve (calls of what it lacks raise
HipLoadError, saying where they looked).

`ROCM_PYTHON_LLVM_BINDINGS=19` (`ROCM_PYTHON_AMD_COMGR_BINDINGS=2`) chooses the bindings of
that version whatever the library; a library whose version they do not fit (comgr's
interface) then raises HipLoadError saying so.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import json
import os
import sys
import threading
import types

from rocm import _native

_HERE = os.path.dirname(__file__)
_LOCK = threading.RLock()


def _catalog() -> dict:
    """The versions the package carries per library; a build without `_bindings.json` has
    only `_native`'s."""
    path = os.path.join(_HERE, "_bindings.json")
    if not os.path.exists(path):
        return {"families": {}}
    with open(path) as f:
        return json.load(f)


#: Per library (`llvm`, `amd_comgr`): its runtime name, its Python modules and its versions.
FAMILIES: dict[str, dict] = _catalog()["families"]
#: Per library, once chosen: (the version entry, the version found or None, why).
CHOSEN: dict[str, tuple[dict, tuple | None, str]] = {}
# The default extension's modules of each library, replaced by placeholders in sys.modules.
_defaults: dict[str, types.ModuleType] = {}
# Attribute lookups that must not choose: the import system's and introspection's probes.
_PROBES = frozenset({"__path__", "__file__", "__wrapped__", "__loader__", "__spec__", "__origin__"})


class Placeholder(types.ModuleType):
    """A generated module whose bindings are chosen on first use (see the module's doc)."""

    def __getattr__(self, name: str):
        if name in _PROBES:
            raise AttributeError(name)
        choose(self._family)
        # Filled now: the module's own lookup, its lazy `__getattr__` (enum classes) included.
        return types.ModuleType.__getattribute__(self, name)

    def __dir__(self):
        choose(self._family)
        return dir(self)


def install() -> None:
    """Puts placeholders in sys.modules for the modules of each library the wheel carries
    several versions of (once, when `rocm._packages` is first imported)."""
    for family, entry in FAMILIES.items():
        if len(entry["versions"]) < 2:
            continue
        for name in entry["modules"]:
            real = sys.modules.get(name)
            if real is None or isinstance(real, Placeholder):
                continue
            _defaults[name] = real
            holder = Placeholder(name, real.__doc__)
            holder._family = family
            sys.modules[name] = holder


def _pick(family: str, versions: list[dict], found: tuple | None) -> tuple[dict, str]:
    """The entry of `versions` for library `family` found as `found` (path, major, minor),
    and why."""
    variable = f"ROCM_PYTHON_{family.upper()}_BINDINGS"
    wanted = os.environ.get(variable, "").strip()
    if wanted:
        for v in versions:
            if str(v["version"]) == wanted:
                return v, f"{variable}={wanted}"
        carried = ", ".join(str(v["version"]) for v in versions)
        raise ImportError(f"{variable}={wanted}: this wheel carries bindings of versions {carried}")
    default = versions[0]
    if found is None:
        return default, "library not found: the default bindings"
    found = found[1]
    if found is None:
        return default, "the library reports no version: the default bindings"
    exact = [v for v in versions if v["version"] == found]
    if exact:
        return exact[0], f"bindings of version {found}"
    nearest = min(versions, key=lambda v: (abs(v["version"] - found), v["version"]))
    return nearest, f"no bindings of version {found}: the nearest, {nearest['version']}'s"


def choose(family: str) -> tuple[dict, tuple | None, str]:
    """Chooses the bindings of `family` (`llvm`, `amd_comgr`) and fills its placeholders, once."""
    done = CHOSEN.get(family)
    if done is not None:
        return done
    with _LOCK:
        if family in CHOSEN:
            return CHOSEN[family]
        entry = FAMILIES[family]
        found = _native.library_version(entry["library"])
        version, why = _pick(family, entry["versions"], found)
        if version["file"] is None:
            modules = {name: _defaults.get(name) for name in entry["modules"]}
        else:
            ext, published = _load_extension(version)
            if found:
                ext.load_library_from(entry["library"], found[0])
            modules = {name: published.get(name) for name in entry["modules"]}
        for name in entry["modules"]:
            holder = sys.modules.get(name)
            if isinstance(holder, Placeholder):
                _fill(holder, modules[name], version)
        CHOSEN[family] = (version, found, why)
        return CHOSEN[family]


def _fill(holder: Placeholder, real: types.ModuleType | None, version: dict) -> None:
    """Gives `holder` the contents of `real` and makes it a plain module again. What Python code
    set on the placeholder already (`rocm.llvm.c._inline`'s helpers) is kept, joins `__all__`,
    and is given to `real` too, whose re-exporting modules then see it."""
    mine = holder.__dict__
    own = {k: v for k, v in mine.items() if not k.startswith("__") and k != "_family"}
    del mine["_family"]
    if real is None:
        mine["__doc__"] = f"Not in the bindings of version {version['version']} (ROCm {version['release']})."
        holder.__class__ = types.ModuleType
        return
    for key, value in own.items():
        setattr(real, key, value)
    keep = ("__name__", "__spec__", "__loader__", "__package__")
    mine.update({k: v for k, v in real.__dict__.items() if k not in keep and k not in own})
    if "__all__" in mine:
        mine["__all__"] = list(mine["__all__"]) + sorted(k for k in own if not k.startswith("_"))
    lazy = real.__dict__.get("__getattr__")
    if lazy is not None:
        # The module makes its classes on first access (PEP 562): kept in this dict too, so that
        # the next lookup is a plain one.
        def __getattr__(name, _lazy=lazy, _mine=mine):
            value = _mine[name] = _lazy(name)
            return value

        mine["__getattr__"] = __getattr__
    # CPython looks attributes of a ModuleType subclass up through the class's hook: a plain
    # module again, lookups cost what any module's do.
    holder.__class__ = types.ModuleType


# Each extension of another version loaded: (extension, the modules it published).
_extensions: dict[str, tuple[types.ModuleType, dict[str, types.ModuleType]]] = {}


def _load_extension(version: dict) -> tuple[types.ModuleType, dict[str, types.ModuleType]]:
    """Loads the extension of `version` from its file, once. Its modules are published in
    sys.modules by its init; they are taken out again (the placeholders and the default's
    runtime classes stay there), and it raises the default's HipLoadError."""
    name = version["module"]
    if name in _extensions:
        return _extensions[name]
    path = os.path.join(_HERE, version["file"])
    if not os.path.exists(path):
        raise ImportError(f"the extension of {name} is missing: {path}")
    loader = importlib.machinery.ExtensionFileLoader(name, path)
    spec = importlib.util.spec_from_file_location(name, path, loader=loader)
    before = dict(sys.modules)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    # The generated modules it published (plain modules whose dict holds `_hipgen_library_`;
    # another package's lazy module is not asked anything), not what other threads imported
    # meanwhile, go back to what sys.modules held.
    published = {
        key: value
        for key, value in dict(sys.modules).items()
        if before.get(key) is not value
        and type(value) is types.ModuleType
        and "_hipgen_library_" in vars(value)
    }
    for key in published:
        if key in before:
            sys.modules[key] = before[key]
        else:
            sys.modules.pop(key, None)
    module.share_load_error(_native.HipLoadError)
    module.HipLoadError = _native.HipLoadError
    _extensions[name] = (module, published)
    return _extensions[name]


def extension(version: dict) -> types.ModuleType:
    """The extension holding the bindings of `version` (loaded if needed)."""
    return _native if version["file"] is None else _load_extension(version)[0]


def in_use() -> dict[types.ModuleType, set[str] | None]:
    """Each extension whose modules serve this process, with those modules (None: every module
    of it not of a library chosen elsewhere); chooses every library's bindings."""
    served: dict[types.ModuleType, set[str] | None] = {_native: None}
    for family, entry in FAMILIES.items():
        version = choose(family)[0] if len(entry["versions"]) > 1 else entry["versions"][0]
        ext = extension(version)
        if ext is not _native:
            served.setdefault(ext, set()).update(entry["modules"])
    return served
