"""Builds the CUDA modules from the generated alias tables (`cuda._native`): the top of the
package (it imports `_conventions`, `_enums` and `_plan`; none of them imports it).

Every CUDA name is the HIP object itself: `cuda.cudart.cudaMalloc is hip.hip.hipMalloc`,
`cudaDeviceProp is hip.hip.hipDeviceProp_t`, except where cuda-python's conventions differ
(`_conventions`: adapters, stubs, CUDA's integer, handle and struct classes) and for enums
(`_enums`). Names are resolved on first access, so importing a CUDA module costs no more
than reading the tables.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import types

# Whole, before any `import_module("hip.hip")`: hip's modules are placeholders its `__init__`
# makes, not files, so a thread asking for `hip.hip` while another thread is still running that
# `__init__` finds the package half made and no such module (ModuleNotFoundError). Importing
# the package itself waits for that thread.
import hip  # noqa: F401

from . import _conventions, _enums, _handles, _native, _plan

#: Names a module provides itself instead of the HIP object (see `cuda._nvrtc`), from the
#: spec's `overrides`.
_OVERRIDES: dict[str, str] = _native.overrides()

#: The package's modules by name (legacy names too): (module, hip_modules, extras, emulated),
#: from the spec's `python_modules`.
_MODULES: dict[str, tuple] = {
    name: (module, tuple(hip_modules), tuple(extras), emulated)
    for module, legacy, hip_modules, extras, emulated in _native.python_modules()
    for name in (module, legacy)
    if name
}


def _imported(names):
    return [importlib.import_module(n) for n in names]


def _pointer_class() -> type:
    from hip._util.types import Pointer

    return Pointer


#: CUDA handle classes over HIP's, by CUDA name.
_HANDLES: dict[str, type] = {}


def _handle_class(cuda_name: str, hip_cls: type) -> type:
    """CUDA's handle class `cuda_name`: HIP's class with cuda-python's `repr`."""
    cls = _HANDLES.get(cuda_name)
    if cls is None:
        cls = _HANDLES[cuda_name] = _handles.handle_class(
            cuda_name,
            hip_cls,
            _plan.home(cuda_name),
            f"CUDA's {cuda_name}: HIP's {hip_cls.__name__}, printed as cuda-python prints it.",
            hip=hip_cls,
        )
    return cls


class _Names:
    """The names of one cuda-python module (`driver`, `runtime`, `nvrtc`), resolved on first
    use: what its module objects (`cuda.bindings.driver`, the legacy `cuda.cuda`) show, and
    what the conventions resolve in it (a struct field's type) without importing its file."""

    def __init__(self, canonical: str):
        _, self.hip_modules, self.extras, self.emulated = _MODULES[canonical]
        self.kind = canonical.rpartition(".")[2]
        self.made: dict[str, object] = {}

    def get(self, name: str):
        """The object `name` stands for, or `_MISSING`."""
        value = self.made.get(name, _MISSING)
        if value is _MISSING:
            value = self._resolve(name)
            if value is not _MISSING:
                self.made[name] = value
        return value

    def entry(self, name):
        """(HIP module, HIP name, kind) of a CUDA name of this module, or None."""
        for hip_module in self.hip_modules:
            entry = _plan.names(hip_module).get(name)
            if entry is not None:
                return entry
        return None

    def flag_enum(self, name):
        """The CUDA enum whose switch `HIP_PYTHON_<enum>_HALLUCINATE` names, if this module has it."""
        if not (name.startswith("HIP_PYTHON_") and name.endswith("_HALLUCINATE")):
            return None
        cuda_enum = name[len("HIP_PYTHON_") : -len("_HALLUCINATE")]
        entry = self.entry(cuda_enum)
        return cuda_enum if entry is not None and entry[2] == "enum" else None

    def _resolve(self, name):
        override = _OVERRIDES.get(name)
        if override is not None and self.entry(name) is not None:
            return getattr(importlib.import_module(override), name)
        emulated = self.emulated and importlib.import_module(self.emulated)
        # Only where this API version has the function (as a stub the emulation replaces).
        if emulated and name in emulated.__all__ and name in _plan.tables().stubs:
            return getattr(emulated, name)
        # cuda-python's conventions: adapted functions, stubs, integer typedef classes.
        value = _conventions.resolve(name, self.kind)
        if value is not None:
            return value
        entry = self.entry(name)
        if entry is None:
            for extras in _imported(self.extras):
                if name in extras.__all__:
                    return getattr(extras, name)
            value = self._cuda_type(name)
            return _MISSING if value is None else value
        hip_module, hip_name, kind = entry
        try:
            if kind == "enum":
                return _enums.enum_class(name, hip_module, hip_name)
            value = getattr(importlib.import_module(f"hip.{hip_module}"), hip_name)
            if kind == "handle" and isinstance(value, type) and issubclass(value, _pointer_class()):
                return _handle_class(name, value)
            if kind == "record":
                return _conventions.record_class(name, value, lookup_in)
            return value
        except AttributeError:
            # HIPIFY's table is newer than these bindings' HIP (the NVIDIA platform's 5.7):
            # CUDA's own type, where CUDA declares one.
            value = self._cuda_type(name)
            if value is None:
                raise
            return value

    def _cuda_type(self, name):
        """CUDA's own type (or handle constant) `name` of this module, or None."""
        return _conventions.cuda_type(name, self.kind, lookup_in)


_MISSING = object()

#: `_Names` of each cuda-python module, by kind (`driver`).
_NAMES: dict[str, _Names] = {}


def _names(kind: str) -> _Names:
    names = _NAMES.get(kind)
    if names is None:
        names = _NAMES[kind] = _Names(f"cuda.bindings.{kind}")
    return names


def lookup_in(kind: str, name: str):
    """CUDA name `name` of cuda-python module `kind` (`driver`, `runtime`): what the conventions
    use to resolve the names a struct's fields or a constant use."""
    value = _names(kind).get(name)
    if value is _MISSING:
        raise AttributeError(f"module 'cuda.bindings.{kind}' has no attribute '{name}'")
    return value


class CudaModule(types.ModuleType):
    """A CUDA module whose names resolve to HIP objects on first access (`_Names`).

    The lookup is the module's PEP 562 `__getattr__` (set by `install`), not a method of the
    class: a class `__getattr__` would route every attribute access, found ones included,
    through a slower hook (~40 ns per `driver.cuX` on CPython 3.12)."""

    def _lookup(self, name):
        names = self.__dict__["_names_"]
        if name == "__all__":
            extra = _plan.tables().names(names.kind)
            for module in _imported(names.extras):
                extra += module.__all__
            listed = list(dict.fromkeys(self.__dict__["_hip_names_"] + extra))
            # HIPIFY's table and the conventions are the default release's: under the
            # bindings of another release (a ROCm 5 runtime binds 5.x's) some names need what
            # that release lacks. Only names that resolve are listed, so `import *` and
            # `dir()` never name what raises (`import *` resolves each name anyway).
            listed = [n for n in listed if self._resolves(n)]
            object.__setattr__(self, "__all__", listed)
            return listed
        cuda_enum = names.flag_enum(name)
        if cuda_enum is not None:
            return _enums.flag(cuda_enum)
        value = names.get(name)
        if value is _MISSING:
            raise AttributeError(f"module '{self.__name__}' has no attribute '{name}'")
        object.__setattr__(self, name, value)
        return value

    def __setattr__(self, name, value):
        cuda_enum = self.__dict__["_names_"].flag_enum(name)
        if cuda_enum is None:
            object.__setattr__(self, name, value)
        else:
            # One switch per CUDA enum, whichever module it is set through.
            _enums.set_flag(cuda_enum, value)

    def _resolves(self, name):
        """Whether `name` resolves here (resolving it, as `import *` would)."""
        try:
            getattr(self, name)
        except AttributeError:
            return False
        return True

    def __dir__(self):
        return sorted(set(self.__dict__) | set(self.__all__))


def install(module_name: str) -> None:
    """Turns module `module_name` (one of the spec's `python_modules`, or its legacy name)
    into its CUDA module over its HIP modules."""
    module = sys.modules[module_name]
    canonical, hip_modules, _, _ = _MODULES[module_name]
    main = importlib.import_module(f"hip.{hip_modules[0]}")
    module.__class__ = CudaModule
    object.__setattr__(module, "_names_", _names(canonical.rpartition(".")[2]))
    object.__setattr__(module, "__getattr__", module._lookup)
    # hip-python's markers: code checks these to tell HIP from CUDA.
    object.__setattr__(module, "HIP_PYTHON", True)
    object.__setattr__(module, "hip_python_mod", main)
    object.__setattr__(module, hip_modules[0], main)
    names = ["HIP_PYTHON", "hip_python_mod", hip_modules[0]]
    for hip_module in hip_modules:
        for cuda_name, (_, _, kind) in _plan.names(hip_module).items():
            names.append(cuda_name)
            if kind == "enum":
                names.append(_enums.flag_name(cuda_name))
    # `__all__` adds the conventions' names (stubs, integer classes) on first use.
    object.__setattr__(module, "_hip_names_", names)


def import_present(package: str) -> list[str]:
    """Imports those of `package`'s modules (the spec's `python_modules`) that this build
    includes; their names."""
    found = []
    parent = sys.modules[package]
    modules = [m.rpartition(".")[2] for m, *_ in _native.python_modules() if m.rpartition(".")[0] == package]
    for name in modules:
        if importlib.util.find_spec(f"{package}.{name}") is None:
            continue
        setattr(parent, name, importlib.import_module(f"{package}.{name}"))
        found.append(name)
    return found
