"""Builds the CUDA modules from the generated alias tables (`cuda._native`).

Every CUDA name is the HIP object itself: `cuda.cudart.cudaMalloc is hip.hip.hipMalloc`,
`cudaDeviceProp is hip.hip.hipDeviceProp_t`. Enums are the exception: a CUDA enum class is a
new `IntEnum` holding the HIP members and the CUDA members (with HIP's values), and a HIP
function accepts its members where it expects the HIP enum. Names are resolved on first
access, so importing a CUDA module costs no more than reading the tables.
"""

from __future__ import annotations

import enum
import importlib
import importlib.util
import os
import sys
import types

# Whole, before any `import_module("hip.hip")`: hip's modules are placeholders its `__init__`
# makes, not files, so a thread asking for `hip.hip` while another thread is still running that
# `__init__` finds the package half made and no such module (ModuleNotFoundError). Importing
# the package itself waits for that thread.
import hip  # noqa: F401

from . import _conventions, _handles, _native

#: Values that turn an `HIP_PYTHON_<enum>_HALLUCINATE` environment variable on or off.
_YES = ("true", "1", "t", "y", "yes")
_NO = ("false", "0", "f", "n", "no")

#: CUDA name → (HIP module, HIP name, kind), per HIP module.
_NAMES: dict[str, dict[str, tuple[str, str, str]]] = {}
#: (HIP module, HIP enum) → [(CUDA member, HIP member)].
_MEMBERS: dict[tuple[str, str], list[tuple[str, str]]] = {}
#: CUDA enum classes, shared by every module that exposes them.
_ENUMS: dict[str, type] = {}
#: Whether each CUDA enum invents constants it does not have, by CUDA enum name.
_HALLUCINATE: dict[str, bool] = {}
#: Invented constants per CUDA enum class, so each name keeps one value.
_INVENTED: dict[type, dict[str, enum.IntEnum]] = {}
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


def _table(hip_module: str) -> dict[str, tuple[str, str, str]]:
    names = _NAMES.get(hip_module)
    if names is None:
        names = {c: (hip_module, h, k) for c, h, k in _native.names(hip_module)}
        for hip_enum, pairs in _native.members(hip_module).items():
            _MEMBERS[(hip_module, hip_enum)] = pairs
        _NAMES[hip_module] = names
    return names


def _flag_name(cuda_enum: str) -> str:
    return f"HIP_PYTHON_{cuda_enum}_HALLUCINATE"


def _env_flag(cuda_enum: str) -> bool:
    var = _flag_name(cuda_enum)
    value = os.environ.get(var, "false").strip().lower()
    if value in _YES:
        return True
    if value in _NO:
        return False
    allowed = ", ".join(repr(v) for v in _YES + _NO)
    raise ValueError(f"environment variable {var}={value!r}: must be one of {allowed} (any case)")


class _CudaEnumMeta(type(enum.IntEnum)):
    """Metaclass of the CUDA enum classes.

    - Members of the HIP enum count as instances (`isinstance(hip_err, cudaError_t)`), since
      HIP functions return HIP members.
    - With hallucination on, a constant the class lacks is invented on first access: a real
      pseudo-member of the class (`int()`, `str()`, `repr()`, hashing and `==` work as for
      members) whose value no member has, kept so the name always gives the same object.
    """

    def __instancecheck__(cls, obj):
        if type.__instancecheck__(cls, obj):
            return True
        hip_enum = cls.__dict__.get("__hip_enum__")
        return hip_enum is not None and type.__instancecheck__(hip_enum, obj)

    def __getattr__(cls, name):
        if name.startswith("_"):
            raise AttributeError(name)
        members = cls.__dict__.get("_member_map_", {})
        if name in members:
            return members[name]
        invented = _INVENTED.setdefault(cls, {})
        if name in invented:
            return invented[name]
        if not _HALLUCINATE.get(cls.__name__, False):
            raise AttributeError(
                f"type object '{cls.__name__}' has no attribute '{name}' (set "
                f"{cls.__module__}.{_flag_name(cls.__name__)} = True to invent missing constants)"
            )
        used = set(cls._value2member_map_) | {m._value_ for m in invented.values()}
        value = max(used) + 1 if used else 0
        member = int.__new__(cls, value)
        member._name_ = name
        member._value_ = value
        invented[name] = member
        return member


class _CudaEnum(enum.IntEnum, metaclass=_CudaEnumMeta):
    """Base of the CUDA enum classes."""


def _home(cuda_name: str) -> str:
    """The module a shared CUDA enum class names as its own, as in cuda-python 12."""
    if cuda_name.startswith("nvrtc"):
        return "cuda.bindings.nvrtc"
    if cuda_name.startswith("cuda"):
        return "cuda.bindings.runtime"
    return "cuda.bindings.driver"


def _enum_class(cuda_name: str, hip_module: str, hip_enum: str) -> type:
    cls = _ENUMS.get(cuda_name)
    if cls is not None:
        return cls
    hip_cls = getattr(importlib.import_module(f"hip.{hip_module}"), hip_enum)
    # __members__ holds aliases too: keep every HIP name, then add the CUDA names.
    members = [(n, int(m)) for n, m in hip_cls.__members__.items()]
    have = {n for n, _ in members}
    for cuda_member, hip_member in _MEMBERS.get((hip_module, hip_enum), ()):
        if cuda_member not in have and hip_member in hip_cls.__members__:
            members.append((cuda_member, int(hip_cls.__members__[hip_member])))
            have.add(cuda_member)
    # CUDA's members HIP has no counterpart of get values no HIP member has: a HIP function
    # given one answers with an error status instead of acting on another member's meaning.
    # CUDA's own value where it is free (HIP copied most of CUDA's numbering, and HIP over
    # CUDA passes it through), else the next value past every member.
    taken = {v for _, v in members}
    spare = max(taken, default=-1) + 1
    for cuda_member, cuda_value in _conventions.enum_members(cuda_name):
        if cuda_member in have:
            continue
        if cuda_value in taken:
            cuda_value, spare = spare, spare + 1
        members.append((cuda_member, cuda_value))
        taken.add(cuda_value)
        have.add(cuda_member)
    cls = _CudaEnum(cuda_name, members, module=_home(cuda_name), qualname=cuda_name)
    cls.__hip_enum__ = hip_cls
    cls.__doc__ = f"CUDA's {cuda_name}: the members of HIP's {hip_module}.{hip_enum}, under both names."
    _flag(cuda_name)  # an invalid environment value fails here, not at first invention
    _ENUMS[cuda_name] = cls
    return cls


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
            _home(cuda_name),
            f"CUDA's {cuda_name}: HIP's {hip_cls.__name__}, printed as cuda-python prints it.",
            hip=hip_cls,
        )
    return cls


def cuda_only_enum(cuda_name: str, members: list[tuple[str, int]]) -> type:
    """A CUDA enum HIP has no counterpart of, with CUDA's values."""
    cls = _ENUMS.get(cuda_name)
    if cls is None:
        cls = _CudaEnum(cuda_name, members, module=_home(cuda_name), qualname=cuda_name)
        cls.__doc__ = f"CUDA's {cuda_name}, with CUDA's values (HIP has no counterpart)."
        _ENUMS[cuda_name] = cls
    return cls


def _flag(cuda_enum: str) -> bool:
    """The hallucination switch of a CUDA enum, from the environment on first use."""
    if cuda_enum not in _HALLUCINATE:
        _HALLUCINATE[cuda_enum] = _env_flag(cuda_enum)
    return _HALLUCINATE[cuda_enum]


class CudaModule(types.ModuleType):
    """A CUDA module whose names resolve to HIP objects on first access.

    The lookup is the module's PEP 562 `__getattr__` (set by `install`), not a method of the
    class: a class `__getattr__` would route every attribute access, found ones included,
    through a slower hook (~40 ns per `driver.cuX` on CPython 3.12)."""

    def _lookup(self, name):
        if name == "__all__":
            kind = self.__dict__["_cuda_kind_"]
            extra = _conventions.tables().names(kind)
            for module in _imported(self.__dict__["_extras_"]):
                extra += module.__all__
            names = list(dict.fromkeys(self.__dict__["_hip_names_"] + extra))
            # HIPIFY's table and the conventions are the default release's: under the
            # bindings of another release (a ROCm 5 runtime binds 5.x's) some names need what
            # that release lacks. Only names that resolve are listed, so `import *` and
            # `dir()` never name what raises (`import *` resolves each name anyway).
            names = [n for n in names if self._resolves(n)]
            object.__setattr__(self, "__all__", names)
            return names
        cuda_enum = self._flag_enum(name)
        if cuda_enum is not None:
            return _flag(cuda_enum)
        value = self._resolve(name)
        if value is _MISSING:
            raise AttributeError(f"module '{self.__name__}' has no attribute '{name}'")
        object.__setattr__(self, name, value)
        return value

    def __setattr__(self, name, value):
        cuda_enum = self._flag_enum(name)
        if cuda_enum is None:
            object.__setattr__(self, name, value)
        else:
            # One switch per CUDA enum, whichever module it is set through.
            _HALLUCINATE[cuda_enum] = bool(value)

    def _resolves(self, name):
        """Whether `name` resolves here (resolving it, as `import *` would)."""
        try:
            getattr(self, name)
        except AttributeError:
            return False
        return True

    def _entry(self, name):
        """(HIP module, HIP name, kind) of a CUDA name of this module, or None."""
        for hip_module in self.__dict__.get("_hip_modules_", ()):
            entry = _table(hip_module).get(name)
            if entry is not None:
                return entry
        return None

    def _flag_enum(self, name):
        """The CUDA enum whose switch `HIP_PYTHON_<enum>_HALLUCINATE` names, if this module has it."""
        if not (name.startswith("HIP_PYTHON_") and name.endswith("_HALLUCINATE")):
            return None
        cuda_enum = name[len("HIP_PYTHON_") : -len("_HALLUCINATE")]
        entry = self._entry(cuda_enum)
        return cuda_enum if entry is not None and entry[2] == "enum" else None

    def _resolve(self, name):
        override = _OVERRIDES.get(name)
        if override is not None and self._entry(name) is not None:
            return getattr(importlib.import_module(override), name)
        emulated = self.__dict__["_emulated_"]
        emulated = emulated and importlib.import_module(emulated)
        # Only where this API version has the function (as a stub the emulation replaces).
        if emulated and name in emulated.__all__ and name in _conventions.tables().stubs:
            return getattr(emulated, name)
        # cuda-python's conventions: adapted functions, stubs, integer typedef classes.
        value = _conventions.resolve(name, self.__dict__["_cuda_kind_"])
        if value is not None:
            return value
        entry = self._entry(name)
        if entry is None:
            for extras in _imported(self.__dict__["_extras_"]):
                if name in extras.__all__:
                    return getattr(extras, name)
            value = self._cuda_type(name)
            return _MISSING if value is None else value
        hip_module, hip_name, kind = entry
        try:
            if kind == "enum":
                return _enum_class(name, hip_module, hip_name)
            value = getattr(importlib.import_module(f"hip.{hip_module}"), hip_name)
            if kind == "handle" and isinstance(value, type) and issubclass(value, _pointer_class()):
                return _handle_class(name, value)
            if kind == "record":
                return _conventions.record_class(name, value, lambda n: getattr(self, n))
            return value
        except AttributeError:
            # HIPIFY's table is newer than these bindings' HIP (the NVIDIA platform's 5.7):
            # CUDA's own type, where CUDA declares one.
            value = self._cuda_type(name)
            if value is None:
                raise
            return value

    def _cuda_type(self, name):
        """CUDA's own type (or handle constant) `name` of this module, or None; the names its
        fields and constants use resolve through this module."""
        return _conventions.cuda_type(name, self.__dict__["_cuda_kind_"], lambda n: getattr(self, n))

    def __dir__(self):
        return sorted(set(self.__dict__) | set(self.__all__))


_MISSING = object()


def status_enum(cuda_name: str) -> type:
    """The CUDA enum class of status type `cuda_name` (`CUresult`, `cudaError_t`)."""
    for hip_module in _native.modules():
        entry = _table(hip_module).get(cuda_name)
        if entry is not None and entry[2] == "enum":
            return _enum_class(cuda_name, hip_module, entry[1])
    raise LookupError(f"no CUDA enum {cuda_name}")


def install(module_name: str) -> None:
    """Turns module `module_name` (one of the spec's `python_modules`, or its legacy name)
    into its CUDA module over its HIP modules."""
    module = sys.modules[module_name]
    canonical, hip_modules, extras, emulated = _MODULES[module_name]
    main = importlib.import_module(f"hip.{hip_modules[0]}")
    module.__class__ = CudaModule
    object.__setattr__(module, "_hip_modules_", hip_modules)
    object.__setattr__(module, "_cuda_kind_", canonical.rpartition(".")[2])
    object.__setattr__(module, "_extras_", extras)
    object.__setattr__(module, "_emulated_", emulated)
    object.__setattr__(module, "__getattr__", module._lookup)
    # hip-python's markers: code checks these to tell HIP from CUDA.
    object.__setattr__(module, "HIP_PYTHON", True)
    object.__setattr__(module, "hip_python_mod", main)
    object.__setattr__(module, hip_modules[0], main)
    names = ["HIP_PYTHON", "hip_python_mod", hip_modules[0]]
    for hip_module in hip_modules:
        for cuda_name, (_, _, kind) in _table(hip_module).items():
            names.append(cuda_name)
            if kind == "enum":
                names.append(_flag_name(cuda_name))
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
