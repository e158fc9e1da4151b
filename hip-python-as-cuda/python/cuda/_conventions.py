"""cuda-python's calling conventions on top of the HIP functions.

hipgen reads CUDA's headers of each cuda-bindings major version and joins every CUDA
function to the HIP function HIPIFY maps it to (`generator/src/cuda/conventions.rs`). Where
cuda-python calls a function as HIP's bindings do, the CUDA name is the HIP object. The
tables hold the rest, which this module turns into Python objects on first use:

- adapters: native functions hipgen compiles into the hip extension from the table's plan
  (`generator/src/cuda/adapters.rs`, `hip._native.cuda_adapter`): each passes its arguments
  to their HIP positions (keywords are CUDA's names), makes the structs cuda-python returns
  (`cudaGetDeviceProperties`), passes zero for HIP parameters CUDA lacks, converts
  `kernelParams` forms, lists, attribute values and memory locations, and returns the
  status and the outputs in CUDA's order, `None` for each output when the status is an
  error, as cuda-python does;
- stubs: CUDA functions with no HIP equivalent return "not supported" (and `None` for each
  output), as cuda-python's contract is status codes;
- wrapper types: CUDA's integer typedefs (`CUdevice`, `CUdeviceptr`, `cuuint64_t`) are
  `int` subclasses with cuda-python's `repr`, range check and `getPtr()`, so HIP functions
  take them wherever they take an integer.

`HIP_PYTHON_CUDA_API` (`13` by default, or `12`) selects whose signatures apply, as
cuda-bindings 12 and 13 differ (`cuCtxCreate`, `cuMemAdvise`, `cudaMemAdvise`, ...).
"""

from __future__ import annotations

import ctypes
import enum
import importlib
import json
import os

from . import _handles, _ints, _native, _structs

#: Environment variable selecting the cuda-bindings major version whose signatures apply.
API_VARIABLE = "HIP_PYTHON_CUDA_API"
DEFAULT_API = "13"

_TABLES: dict[str, _Tables] = {}
_WRAPPERS: dict[str, type] = {}


def api_version() -> str:
    """The cuda-bindings major version whose signatures the CUDA modules follow."""
    value = os.environ.get(API_VARIABLE, DEFAULT_API).strip()
    known = _native.api_versions()
    if value not in known:
        raise ValueError(f"environment variable {API_VARIABLE}={value!r}: must be one of {', '.join(known)}")
    return value


class _Tables:
    """One API version's tables, indexed by CUDA name."""

    def __init__(self, version: str):
        # The plan of the release whose adapters the hip extension holds (hip-python carries
        # one per ROCm major and loads the one of the runtime), else this package's own.
        from hip import _native as hip_native

        text = getattr(hip_native, "cuda_conventions", lambda v: None)(version)
        data = json.loads(text if text is not None else _native.conventions(version))
        self.version = version
        self.adapted = {a["cuda"]: a for a in data["adapted"]}
        self.stubs = {s["cuda"]: s for s in data["stubs"]}
        self.wrappers = {w["name"]: w for w in data["wrappers"]}
        self.not_supported = data["not_supported"]
        self.attribute_types = data.get("attribute_types", {})
        types = data["types"]
        self.enums = {e["name"]: e for e in types["enums"]}
        self.handles = {h["name"]: h for h in types["handles"]}
        self.handle_constants = {c["name"]: c for c in types["handle_constants"]}
        self.records = {r["name"]: r for r in types["records"]}
        #: Records HIP's class of which lacks field names of CUDA's: CUDA's layout here.
        self.reshaped = types.get("reshaped", {})
        # cuda-python names a record by its tag too (`CUmemDecompressParams_st`).
        self.record_names = {r["name"]: r for r in types["records"] if not r.get("anonymous")}
        self.record_names.update({r["tag"]: r for r in types["records"] if r.get("tag")})
        self.record_names.update({a: r for r in types["records"] for a in r.get("aliases", ())})

    def names(self, module: str) -> list[str]:
        """The names this version adds to cuda-python module `module`."""
        out = [n for n, s in self.stubs.items() if s["module"] == module]
        if module == "driver":
            out += [n for n in self.wrappers if not n.startswith("cuda")]
        elif module == "runtime":
            out += [n for n in self.wrappers if n.startswith("cuda")]
        for table in (self.enums, self.handles, self.handle_constants, self.record_names):
            out += [n for n, e in table.items() if e["module"] == module]
        return out


def tables() -> _Tables:
    version = api_version()
    t = _TABLES.get(version)
    if t is None:
        t = _TABLES[version] = _Tables(version)
    return t


# --- wrapper types -----------------------------------------------------------------------


class _CudaIntMeta(type):
    """Metaclass of the integer typedef classes: a view (`_ptr=`) counts as an instance."""

    def __instancecheck__(cls, obj):
        if type.__instancecheck__(cls, obj):
            return True
        return isinstance(obj, CudaIntView) and issubclass(obj._of, cls)


class CudaInt(int, metaclass=_CudaIntMeta):
    """Base of CUDA's integer typedef classes (`CUdevice`, `CUdeviceptr`, `cuuint64_t`)."""

    _ctype = ctypes.c_uint64

    _lo, _hi = 0, (1 << 64) - 1

    def __new__(cls, init_value=0, _ptr=0):
        if _ptr:
            # Over memory the caller owns: a view that reads and writes there.
            return CudaIntView(cls, _ints.address(_ptr, f"{cls.__name__}: _ptr"))
        return int.__new__(cls, _ints.integer(init_value, cls._lo, cls._hi, cls.__name__))

    def __repr__(self):
        return f"<{type(self).__name__} {int(self)}>"

    __str__ = __repr__

    def getPtr(self) -> int:  # noqa: N802 (cuda-python's name)
        """The address of a C value holding this one (kept alive with the object)."""
        box = self.__dict__.get("_box")
        if box is None:
            box = self.__dict__["_box"] = self._ctype(int(self))
        return ctypes.addressof(box)


class CudaIntView:
    """A CUDA integer typedef object over memory the caller owns (`cudaSurfaceObject_t(
    _ptr=address)`), as cuda-python's are: its value is what that memory holds now (a kernel
    may have written it), and getPtr() is that address."""

    __slots__ = ("_of", "_at")

    def __init__(self, of: type, at: int):
        self._of, self._at = of, at

    def _cell(self):
        return self._of._ctype.from_address(self._at)

    def __int__(self):
        return self._cell().value

    __index__ = __int__

    def __eq__(self, other):
        try:
            return int(self) == int(other)
        except TypeError:
            return NotImplemented

    def __hash__(self):
        return hash(int(self))

    def __repr__(self):
        return f"<{self._of.__name__} {int(self)}>"

    __str__ = __repr__

    def getPtr(self) -> int:  # noqa: N802 (cuda-python's name)
        """The address of the memory this object stands over."""
        return self._at


_CTYPES = {
    (4, True): ctypes.c_int32,
    (4, False): ctypes.c_uint32,
    (8, True): ctypes.c_int64,
    (8, False): ctypes.c_uint64,
}


def wrapper(name: str) -> type | None:
    """The class of CUDA integer typedef `name`, or None when it is not one."""
    cls = _WRAPPERS.get(name)
    if cls is None:
        w = tables().wrappers.get(name)
        if w is None:
            return None
        ctype = _CTYPES.get((w["size"], w["signed"]), ctypes.c_uint64)
        lo, hi = _ints.bounds(w["size"], w["signed"])
        cls = type(
            name,
            (CudaInt,),
            {
                "_lo": lo,
                "_hi": hi,
                "_ctype": ctype,
                "__module__": "cuda.bindings.runtime" if name.startswith("cuda") else "cuda.bindings.driver",
                "__doc__": f"CUDA's {name}: an integer of {w['size'] * 8} bits.",
            },
        )
        _WRAPPERS[name] = cls
    return cls


# --- kernel arguments --------------------------------------------------------------------

_KERNEL_CTYPES = (
    ctypes.c_bool,
    ctypes.c_char,
    ctypes.c_wchar,
    ctypes.c_byte,
    ctypes.c_ubyte,
    ctypes.c_short,
    ctypes.c_ushort,
    ctypes.c_int,
    ctypes.c_uint,
    ctypes.c_long,
    ctypes.c_ulong,
    ctypes.c_longlong,
    ctypes.c_ulonglong,
    ctypes.c_size_t,
    ctypes.c_float,
    ctypes.c_double,
    ctypes.c_void_p,
)


def _address_of_value(value, ctype, keep):
    """The address of a C object holding `value` as `ctype` (None: the value's own)."""
    if ctype is None:
        get = getattr(value, "getPtr", None)
        if callable(get):
            return int(get())
        if isinstance(value, ctypes.Structure | ctypes.Union | ctypes._SimpleCData):
            return ctypes.addressof(value)
        if isinstance(value, enum.Enum):
            box = ctypes.c_int(_ints.integer(value.value, *_ints.CTYPE_BOUNDS[ctypes.c_int], "kernelParams"))
        elif isinstance(value, int) or hasattr(value, "__int__"):
            # A HIP pointer or handle value (hip-python's objects are ints or convert to one).
            box = ctypes.c_void_p(_ints.address(value, "kernelParams"))
        else:
            raise TypeError(
                f"kernelParams: a value of type {type(value).__name__} with type None must have getPtr(), "
                "be a ctypes object or an integer"
            )
    elif ctype is ctypes.c_void_p:
        # The pointer itself: a ctypes pointer's value; a CUDA typedef object's storage, as
        # for cuda-python's classes (`cudaSurfaceObject_t(_ptr=host_memory)`); a plain int;
        # a HIP pointer, handle or struct: its address.
        if value is None:
            value = 0  # NULL, as ctypes.c_void_p(None)
        elif isinstance(value, ctypes.c_void_p):
            value = value.value or 0
        elif isinstance(value, CudaInt):
            value = value.getPtr()
        box = ctypes.c_void_p(_ints.address(value, "kernelParams"))
    elif ctype in _KERNEL_CTYPES:
        if isinstance(value, ctype):
            box = value
        else:
            if isinstance(value, ctypes._SimpleCData):
                value = value.value
            limits = _ints.CTYPE_BOUNDS.get(ctype)
            if limits is not None:
                # ctypes would keep the low bits of a value that does not fit.
                value = _ints.integer(value, *limits, f"kernelParams ({ctype.__name__})", truncate=False)
            box = ctype(value)
    elif isinstance(ctype, type) and issubclass(ctype, ctypes.Structure | ctypes.Union):
        box = value if isinstance(value, ctype) else ctype(value)
    else:
        raise TypeError(f"kernelParams: unsupported type {ctype!r}")
    keep.append(box)
    return ctypes.addressof(box)


# --- adapters and stubs ------------------------------------------------------------------


def _status(type_name: str, member: str):
    from . import _layer

    return getattr(_layer.status_enum(type_name), member)


def _module_lookup(module: str):
    """Resolves a name of cuda-python module `module` (`driver`, `runtime`)."""

    def lookup(name):
        return getattr(importlib.import_module(f"cuda.bindings.{module}"), name)

    return lookup


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

    fn = hip_native.cuda_adapter(api_version(), entry["module"], entry["cuda"])
    if fn is None:
        raise ImportError(
            f"{entry['cuda']}: the hip extension has no compiled adapter of it (cuda-bindings "
            f"{api_version()}): install the hip-python release this hip-python-as-cuda was built with"
        )
    _HIP_OF[fn] = getattr(importlib.import_module(f"hip.{entry['hip_module']}"), entry["hip"], None)
    return fn


def _hip_record(cuda_name: str, hip_module: str) -> type:
    """HIP's class of CUDA record `cuda_name` (HIPIFY's table)."""
    from . import _layer

    entry = _layer._table(hip_module).get(cuda_name)
    if entry is None:
        # A typedef HIPIFY does not list (CUkernelNodeAttrValue, in HIPIFY 7.2) names the record
        # its CUDA class was made for (CUlaunchAttributeValue), which HIPIFY may list.
        for module in ("driver", "runtime"):
            cls = getattr(importlib.import_module(f"cuda.bindings.{module}"), cuda_name, None)
            if isinstance(cls, type) and cls.__name__ != cuda_name:
                entry = _layer._table(hip_module).get(cls.__name__)
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


def enum_members(name: str) -> list[tuple[str, int]]:
    """CUDA enum `name`'s (member, CUDA value) pairs in this API version, if CUDA declares it."""
    e = tables().enums.get(name)
    return [tuple(m) for m in e["members"]] if e else []


def cuda_type(name: str, module: str, lookup):
    """A CUDA enum, handle type or handle constant HIP has no counterpart of, or None.

    Enums get CUDA's values (HIP functions take none of them: the functions using them are
    not-supported stubs); handles are pointer classes as HIP's are (`int()`, `==`, `hash`,
    `getPtr()`); a constant is its handle class's instance, `lookup` giving the class.
    """
    key = (api_version(), name)
    if key in _TYPES:
        return _TYPES[key]
    t = tables()
    value = None
    e = t.enums.get(name)
    h = t.handles.get(name)
    c = t.handle_constants.get(name)
    if e is not None and e["module"] == module:
        from . import _layer

        value = _layer.cuda_only_enum(name, [tuple(m) for m in e["members"]])
    elif h is not None and h["module"] == module:
        from hip._util.types import Pointer

        value = _handles.handle_class(
            name, Pointer, f"cuda.bindings.{module}", f"CUDA's {name} handle (no HIP counterpart)."
        )
    elif c is not None and c["module"] == module:
        value = lookup(c["handle"])(c["value"])
    elif name in t.record_names and t.record_names[name]["module"] == module:
        value = _record_class(t.record_names[name]["name"], lookup)
    if value is not None:
        _TYPES[key] = value
    return value


#: Adapters and stubs made, by (API version, cuda-python module, CUDA name): one object per
#: name, whichever module (`cuda.cudart`, `cuda.bindings.runtime`) it is reached through.
_MADE: dict[tuple[str, str, str], object] = {}


def _find_record(name: str):
    """CUDA's description of record `name` (any of its names), or None."""
    t = tables()
    return t.records.get(name) or t.record_names.get(name)


def _record_class(name: str, lookup) -> type:
    """The class of CUDA record `name` in CUDA's layout (anonymous members' records
    included); `lookup` resolves the names its fields use in the record's module."""
    key = (api_version(), name)
    cls = _TYPES.get(key)
    if cls is not None:
        return cls
    t = tables()
    record = t.records[name]
    # The names its fields use resolve in the record's own module (a driver struct may hold
    # one of the runtime's).
    lookup = _module_lookup(record["module"])

    def find(n):
        # A named type through the module; a struct there over HIP's class only where HIP
        # lays it out as CUDA does (these bytes are CUDA's layout); else CUDA's layout here.
        r = _find_record(n)
        if r is not None and r.get("anonymous"):
            return _record_class(r["name"], lookup)
        cls = lookup(n)
        hip = getattr(cls, "__hip_class__", None)
        if r is not None and hip is not None and not _structs.same_layout(r, hip):
            return _record_class(r["name"], lookup)
        return cls

    def size(n):
        cls = find(n)
        if isinstance(cls, type) and issubclass(cls, _structs.CudaStruct):
            return cls._size
        return cls().c_sizeof()  # HIP's struct class

    cls = _TYPES[key] = _structs.make_class(record, record["module"], find, size, _find_record)
    return cls


def record_class(name: str, hip_cls: type, lookup) -> type:
    """CUDA's class of record `name`, which HIP has as `hip_cls`: CUDA's layout where HIP's
    class lacks some of its field names (`reshaped`), else HIP's class as cuda-python
    presents it. One class per record, whichever of its names reaches it."""
    record = tables().record_names.get(name)
    if record is None or not isinstance(hip_cls, type):
        return hip_cls
    primary = record["name"]
    if primary in tables().reshaped:
        return _record_class(primary, lookup)
    key = (api_version(), primary)
    cls = _TYPES.get(key)
    if cls is None:
        hip_module = hip_cls.__module__.rpartition(".")[2]
        cls = _TYPES[key] = _structs.presentation_class(
            primary,
            hip_cls,
            record["module"],
            record,
            _find_record,
            _module_lookup(record["module"]),
            lambda n: _hip_record(n, hip_module),
        )
    return cls


def resolve(name: str, module: str):
    """The object the conventions give CUDA name `name` in `module`, or None."""
    t = tables()
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
