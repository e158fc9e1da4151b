"""What each CUDA name the conventions plan lists becomes (docs/cuda.md): a native adapter
compiled into the hip extension from the plan, a "not supported" stub, an integer typedef class
(`CUdevice`, `cuuint64_t`: an `int` with cuda-python's `repr`, range check, `getPtr()` and
`_ptr=`), or CUDA's own enum, handle and record classes. `HIP_PYTHON_CUDA_API` (`13` by
default, or `12`) selects whose signatures apply."""

from __future__ import annotations

import importlib

from hip._util.types import IntView

from . import _enums, _handles, _native, _plan, _structs

#: CUDA's integer typedef classes, by name.
_WRAPPERS: dict[str, type] = {}

# --- wrapper types -----------------------------------------------------------------------


class _CudaIntMeta(type):
    """Metaclass of the integer typedef classes: a view (`_ptr=`) counts as an instance."""

    def __instancecheck__(cls, obj):
        if type.__instancecheck__(cls, obj):
            return True
        return isinstance(obj, IntView) and issubclass(obj._of, cls)


class CudaInt(int, metaclass=_CudaIntMeta):
    """Base of CUDA's integer typedef classes (`CUdevice`, `CUdeviceptr`, `cuuint64_t`)."""

    _size, _signed = 8, False

    def __new__(cls, init_value=0, _ptr=0):
        if _ptr:
            # Over memory the caller owns: its value is what that memory holds now (a kernel
            # may have written it), and getPtr() is that address, as cuda-python's are.
            return IntView(cls, _native.address(_ptr, f"{cls.__name__}: _ptr"), cls._size, cls._signed)
        return int.__new__(cls, _native.integer(init_value, cls._size, cls._signed, cls.__name__))

    def __repr__(self):
        return f"<{type(self).__name__} {int(self)}>"

    __str__ = __repr__

    def getPtr(self) -> int:  # noqa: N802 (cuda-python's name)
        """The address of a C value holding this one (kept alive with the object)."""
        box = self.__dict__.get("_box")
        if box is None:
            box = self.__dict__["_box"] = IntView.hold(type(self), int(self), self._size, self._signed)
        return box.getPtr()


def wrapper(name: str) -> type | None:
    """The class of CUDA integer typedef `name`, or None when it is not one."""
    cls = _WRAPPERS.get(name)
    if cls is None:
        w = _plan.tables().wrappers.get(name)
        if w is None:
            return None
        cls = type(
            name,
            (CudaInt,),
            {
                "_size": w["size"],
                "_signed": w["signed"],
                "__module__": "cuda.bindings.runtime" if name.startswith("cuda") else "cuda.bindings.driver",
                "__doc__": f"CUDA's {name}: an integer of {w['size'] * 8} bits.",
            },
        )
        _WRAPPERS[name] = cls
    return cls


# --- adapters and stubs ------------------------------------------------------------------


def _status(type_name: str, member: str):
    return getattr(_enums.status_enum(type_name), member)


#: The HIP function each native adapter calls (builtin functions take no attributes).
_HIP_OF: dict[object, object] = {}


def hip_function(adapter_fn):
    """The HIP function an adapter calls, or None."""
    try:
        return _HIP_OF.get(adapter_fn)
    except TypeError:  # unhashable: not an adapter
        return None


def adapter(entry: dict):
    """The compiled adapter a table entry describes (hipgen renders every shape the plan has:
    `generator/src/cuda/adapters.rs`)."""
    from hip import _native as hip_native

    fn = hip_native.cuda_adapter(_plan.api_version(), entry["module"], entry["cuda"])
    if fn is None:
        raise ImportError(
            f"{entry['cuda']}: the hip extension has no compiled adapter of it (cuda-bindings "
            f"{_plan.api_version()}): install the hip-python release this hip-python-as-cuda was built with"
        )
    _HIP_OF[fn] = getattr(importlib.import_module(f"hip.{entry['hip_module']}"), entry["hip"], None)
    return fn


def _hip_record(cuda_name: str, hip_module: str, lookup_in) -> type:
    """HIP's class of CUDA record `cuda_name` (HIPIFY's table)."""
    entry = _plan.names(hip_module).get(cuda_name)
    if entry is None:
        # A typedef HIPIFY does not list (CUkernelNodeAttrValue, in HIPIFY 7.2) names the record
        # its CUDA class was made for (CUlaunchAttributeValue), which HIPIFY may list.
        for module in ("driver", "runtime"):
            try:
                cls = lookup_in(module, cuda_name)
            except AttributeError:
                continue
            if isinstance(cls, type) and cls.__name__ != cuda_name:
                entry = _plan.names(hip_module).get(cls.__name__)
                break
    if entry is None:
        raise LookupError(f"HIPIFY's table has no HIP struct for {cuda_name}")
    return getattr(importlib.import_module(f"hip.{entry[0]}"), entry[1])


def stub(entry: dict):
    """A CUDA function HIP has no equivalent of: returns "not supported"."""
    status = _status(entry["status_type"], entry["status"])
    result = (status,) + (None,) * entry["outputs"]
    why = entry["why"]

    def not_supported(*args, **kwargs):
        return result

    not_supported.__name__ = not_supported.__qualname__ = entry["cuda"]
    not_supported.__module__ = f"cuda.bindings.{entry['module']}"
    not_supported.__doc__ = (
        f"CUDA's {entry['cuda']}: not supported on HIP ({why}); returns {entry['status']}."
    )
    not_supported.hip_not_supported = True
    return not_supported


# --- CUDA's own types --------------------------------------------------------------------

_TYPES: dict[tuple[str, str], object] = {}


def cuda_type(name: str, module: str, lookup_in):
    """A CUDA enum, handle type, handle or integer constant HIP has no counterpart of, or None.

    Enums get CUDA's values (HIP functions take none of them: the functions using them are
    not-supported stubs); handles are pointer classes as HIP's are (`int()`, `==`, `hash`,
    `getPtr()`); a constant is its handle class's instance. `lookup_in(module, name)` resolves
    the names they use in a cuda-python module (the layer above: `cuda._layer`).
    """
    key = (_plan.api_version(), name)
    if key in _TYPES:
        return _TYPES[key]
    t = _plan.tables()
    value = None
    e = t.enums.get(name)
    h = t.handles.get(name)
    c = t.handle_constants.get(name)
    if e is not None and e["module"] == module:
        value = _enums.cuda_only_enum(name, [tuple(m) for m in e["members"]])
    elif h is not None and h["module"] == module:
        from hip._util.types import Pointer

        value = _handles.handle_class(
            name, Pointer, f"cuda.bindings.{module}", f"CUDA's {name} handle (no HIP counterpart)."
        )
    elif c is not None and c["module"] == module:
        value = lookup_in(module, c["handle"])(c["value"])
    elif name in t.record_names and t.record_names[name]["module"] == module:
        value = _record_class(t.record_names[name]["name"], lookup_in)
    elif name in t.constants and t.constants[name]["module"] == module:
        value = t.constants[name]["value"]  # an integer #define HIPIFY maps to nothing
    if value is not None:
        _TYPES[key] = value
    return value


#: Adapters and stubs made, by (API version, cuda-python module, CUDA name): one object per
#: name, whichever module (`cuda.cudart`, `cuda.bindings.runtime`) it is reached through.
_MADE: dict[tuple[str, str, str], object] = {}


def made_type(name: str):
    """The class of CUDA type `name` this API version has made so far, or None."""
    return _TYPES.get((_plan.api_version(), name))


def _find_record(name: str):
    """CUDA's description of record `name` (any of its names), or None."""
    t = _plan.tables()
    return t.records.get(name) or t.record_names.get(name)


def _lookup(name: str, lookup_in):
    """CUDA type `name` in its cuda-python module (`_plan.home`), else in the other of
    `driver` and `runtime` (`dim3` is the runtime's)."""
    first = _plan.home(name).rpartition(".")[2]
    try:
        return lookup_in(first, name)
    except AttributeError:
        return lookup_in("runtime" if first == "driver" else "driver", name)


#: The record tables, installed, by (API version, layout).
_TABLES: dict[tuple[str, str], object] = {}


def _table(layout: str, lookup_in):
    """The record table of this API version whose names resolve in `layout`: `cuda`, CUDA's
    layout (a struct over HIP's class only where HIP lays it out as CUDA does); `hip`, the
    classes HIP's functions take."""
    from hip import _native as hip_native

    key = (_plan.api_version(), layout)
    if key in _TABLES:
        return _TABLES[key]
    table = hip_native.cuda_types(*key)
    if table is None:
        raise ImportError(
            f"the hip extension has no CUDA record table of cuda-bindings {_plan.api_version()}: "
            "install the hip-python release this hip-python-as-cuda was built with"
        )

    def in_cuda_layout(n):
        r = _find_record(n)
        if r is not None and r.get("anonymous"):
            return _record_class(r["name"], lookup_in)
        cls = _lookup(n, lookup_in)
        hip = getattr(cls, "__hip_class__", None)
        if r is not None and hip is not None and not _structs.same_layout(r, hip):
            return _record_class(r["name"], lookup_in)
        return cls

    def in_hip_layout(n):
        cls = in_cuda_layout(n)
        if isinstance(cls, type) and issubclass(cls, _structs.CudaStruct):
            try:
                return _hip_record(n, "hip", lookup_in)
            except LookupError:  # HIP has none: CUDA's layout
                pass
        return cls

    table.install(in_cuda_layout if layout == "cuda" else in_hip_layout, _structs.converted)
    _TABLES[key] = table
    return table


def _record_class(name: str, lookup_in) -> type:
    """The class of CUDA record `name` in CUDA's layout (anonymous members' records
    included); the names its fields use resolve in the record's module (`lookup_in`)."""
    key = (_plan.api_version(), name)
    cls = _TYPES.get(key)
    if cls is not None:
        return cls
    record = _plan.tables().records[name]
    cls = _TYPES[key] = _structs.make_class(
        record,
        record["module"],
        _table("cuda", lookup_in),
        lambda n: lookup_in(record["module"], n),
        _find_record,
    )
    return cls


def record_class(name: str, hip_cls: type, lookup_in) -> type:
    """CUDA's class of record `name`, which HIP has as `hip_cls`: CUDA's layout where HIP's
    class lacks some of its field names (`reshaped`), else HIP's class as cuda-python
    presents it. One class per record, whichever of its names reaches it."""
    record = _plan.tables().record_names.get(name)
    if record is None or not isinstance(hip_cls, type):
        return hip_cls
    primary = record["name"]
    if primary in _plan.tables().reshaped:
        return _record_class(primary, lookup_in)
    key = (_plan.api_version(), primary)
    cls = _TYPES.get(key)
    if cls is None:
        cls = _TYPES[key] = _structs.presentation_class(
            primary,
            hip_cls,
            record["module"],
            record,
            _find_record,
            lambda n: lookup_in(record["module"], n),
            _table("hip", lookup_in),
        )
    return cls


def resolve(name: str, module: str):
    """The object the conventions give CUDA name `name` in `module`, or None."""
    t = _plan.tables()
    key = (t.version, module, name)
    made = _MADE.get(key)
    if made is not None:
        return made
    entry = t.adapted.get(name)
    if entry is not None and entry["module"] == module:
        made = adapter(entry)
    else:
        entry = t.stubs.get(name)
        if entry is not None and entry["module"] == module:
            made = stub(entry)
    if made is not None:
        _MADE[key] = made
        return made
    return wrapper(name)
