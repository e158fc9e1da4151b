"""CUDA's enum classes: HIP's members under CUDA's names too (a HIP function takes them
where it takes HIP's enum), or CUDA's own members where HIP has no counterpart; each with
its `HIP_PYTHON_<enum>_HALLUCINATE` switch.

Where HIP's member stands for several CUDA members (`hipDeviceAttributeMaxSurface2D` for
CUDA's surface width and height), the CUDA members are HIP's member on AMD (as in
hip-python-as-cuda) and, on the NVIDIA platform, each its own value tagged as CUDA's
(`cuda_member_tag` of the plan), which the NVIDIA shims pass to CUDA as that member.
"""

from __future__ import annotations

import enum
import importlib
import os

from . import _native, _plan

#: Values that turn an `HIP_PYTHON_<enum>_HALLUCINATE` environment variable on or off.
_YES = ("true", "1", "t", "y", "yes")
_NO = ("false", "0", "f", "n", "no")

#: CUDA enum classes, shared by every module that exposes them.
_ENUMS: dict[str, type] = {}
#: Whether each CUDA enum invents constants it does not have, by CUDA enum name.
_HALLUCINATE: dict[str, bool] = {}
#: Invented constants per CUDA enum class, so each name keeps one value.
_INVENTED: dict[type, dict[str, enum.IntEnum]] = {}


def flag_name(cuda_enum: str) -> str:
    return f"HIP_PYTHON_{cuda_enum}_HALLUCINATE"


def _env_flag(cuda_enum: str) -> bool:
    var = flag_name(cuda_enum)
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
                f"{cls.__module__}.{flag_name(cls.__name__)} = True to invent missing constants)"
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


def enum_class(cuda_name: str, hip_module: str, hip_enum: str) -> type:
    cls = _ENUMS.get(cuda_name)
    if cls is not None:
        return cls
    hip_cls = getattr(importlib.import_module(f"hip.{hip_module}"), hip_enum)
    # __members__ holds aliases too: keep every HIP name, then add the CUDA names.
    members = [(n, int(m)) for n, m in hip_cls.__members__.items()]
    have = {n for n, _ in members}
    cuda_members = _plan.enum_members(cuda_name)
    cuda_values = dict(cuda_members)
    # A status enum keeps small values: programs walk its range (cuda-python's own tests count
    # every code up to the largest member's).
    tables = _plan.tables()
    tag = None if cuda_name in tables.not_supported else tables.cuda_member_tag
    shared = _shared_members(hip_module, hip_enum, cuda_values) if tag and _on_nvidia() else set()
    for cuda_member, hip_member in _plan.members(hip_module, hip_enum):
        if cuda_member not in have and hip_member in hip_cls.__members__:
            if cuda_member in shared:
                # HIP's member stands for this and other CUDA members: on NVIDIA, CUDA answers
                # for this one (the shims pass the tagged value on as CUDA's member).
                value = tag | cuda_values[cuda_member]
            else:
                value = int(hip_cls.__members__[hip_member])
            members.append((cuda_member, value))
            have.add(cuda_member)
    # CUDA's members HIP has no counterpart of get values no HIP member has: a HIP function
    # given one answers with an error status instead of acting on another member's meaning.
    # CUDA's own value where it is free (HIP copied most of CUDA's numbering, and HIP over
    # CUDA passes it through), else CUDA's value tagged as its own (the NVIDIA shims pass it
    # on as that member), or without a tag the next value past every member.
    taken = {v for _, v in members}
    spare = max(taken, default=-1) + 1
    # A CUDA name HIPIFY does not list that is an alias, in CUDA, of one it lists
    # (CU_DEVICE_ATTRIBUTE_VIRTUAL_ADDRESS_MANAGEMENT_SUPPORTED beside ..._VIRTUAL_MEMORY_...)
    # is that name's HIP member.
    hip_of = dict(members)
    alias = {v: hip_of[n] for n, v in cuda_members if n in hip_of}
    for cuda_member, cuda_value in cuda_members:
        if cuda_member in have:
            continue
        if cuda_value in alias:
            members.append((cuda_member, alias[cuda_value]))
            have.add(cuda_member)
            continue
        if cuda_value in taken:
            if tag and 0 <= cuda_value < tag:
                # (CUDA's second name of one value, `..._ARRAY_NUMSLICES` beside
                # `..._LAYERED_LAYERS`, is the same tagged value.)
                cuda_value = tag | cuda_value
            else:
                cuda_value, spare = spare, spare + 1
        members.append((cuda_member, cuda_value))
        taken.add(cuda_value)
        have.add(cuda_member)
    cls = _CudaEnum(cuda_name, members, module=_plan.home(cuda_name), qualname=cuda_name)
    cls.__hip_enum__ = hip_cls
    # HIP's functions take its members where they take HIP's enum.
    importlib.import_module("hip._native").register_enum_stand_in(cls, hip_cls)
    cls.__doc__ = f"CUDA's {cuda_name}: the members of HIP's {hip_module}.{hip_enum}, under both names."
    flag(cuda_name)  # an invalid environment value fails here, not at first invention
    _ENUMS[cuda_name] = cls
    return cls


def _on_nvidia() -> bool:
    import hip

    return hip.platform() == "nvidia"


def _shared_members(hip_module: str, hip_enum: str, cuda_values: dict[str, int]) -> set[str]:
    """The CUDA members (of the enum whose values `cuda_values` gives) whose HIP member
    HIPIFY pairs with CUDA members of other values too (`CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_WIDTH`
    and `_HEIGHT`, both `hipDeviceAttributeMaxSurface2D`)."""
    values: dict[str, set[int]] = {}
    for cuda_member, hip_member in _plan.members(hip_module, hip_enum):
        if cuda_member in cuda_values:
            values.setdefault(hip_member, set()).add(cuda_values[cuda_member])
    return {
        c for c, h in _plan.members(hip_module, hip_enum) if c in cuda_values and len(values.get(h, ())) > 1
    }


def cuda_only_enum(cuda_name: str, members: list[tuple[str, int]]) -> type:
    """A CUDA enum HIP has no counterpart of, with CUDA's values."""
    cls = _ENUMS.get(cuda_name)
    if cls is None:
        cls = _CudaEnum(cuda_name, members, module=_plan.home(cuda_name), qualname=cuda_name)
        cls.__doc__ = f"CUDA's {cuda_name}, with CUDA's values (HIP has no counterpart)."
        _ENUMS[cuda_name] = cls
    return cls


def set_flag(cuda_enum: str, on: bool) -> None:
    """Sets the hallucination switch of a CUDA enum, whichever module it is set through."""
    _HALLUCINATE[cuda_enum] = bool(on)


def flag(cuda_enum: str) -> bool:
    """The hallucination switch of a CUDA enum, from the environment on first use."""
    if cuda_enum not in _HALLUCINATE:
        _HALLUCINATE[cuda_enum] = _env_flag(cuda_enum)
    return _HALLUCINATE[cuda_enum]


def status_enum(cuda_name: str) -> type:
    """The CUDA enum class of status type `cuda_name` (`CUresult`, `cudaError_t`)."""
    for hip_module in _native.modules():
        entry = _plan.names(hip_module).get(cuda_name)
        if entry is not None and entry[2] == "enum":
            return enum_class(cuda_name, hip_module, entry[1])
    raise LookupError(f"no CUDA enum {cuda_name}")
