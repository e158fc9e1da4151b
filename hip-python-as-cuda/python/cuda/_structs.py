"""Classes of CUDA's structs and unions as cuda-python presents them: CUDA's layout as a
runtime record described by a generated table (`hip._native.cuda_types`), or HIP's class
where HIP lays the struct out as CUDA does. This module adds cuda-python's own repr and
`dir()`, and copies a struct between the two layouts (natively, `copy_fields`)."""

from __future__ import annotations

import enum

# Copies a record into another table's layout of it by field name, natively.
from hip._native import copy_fields

from ._handles import view_struct


class CudaStruct:
    """Base of the classes of CUDA's layout (with the runtime's `Struct`)."""

    __slots__ = ()
    #: CUDA's description of the record (`CudaRecord` of the tables) and how to resolve the
    #: names its fields use: cuda-python's repr reads them.
    _record: dict = {}
    _find_record = staticmethod(lambda name: None)
    _lookup = staticmethod(lambda name: None)
    __new__ = view_struct

    def __int__(self):
        return self.getPtr()

    def __repr__(self):
        return cuda_repr(self, self._record, type(self)._find_record, type(self)._lookup)

    __str__ = __repr__

    def __dir__(self):
        return _cuda_dir(self, self._record)


def _cuda_dir(obj, record: dict) -> list[str]:
    """cuda-python's `dir()` of a struct: its fields, `getPtr` and the dunder names."""
    dunders = [n for n in object.__dir__(obj) if n.startswith("__")]
    return sorted(set(dunders) | {f["name"] for f in record["fields"]} | {"getPtr"})


def make_class(record: dict, module: str, table, lookup, find_record=None) -> type:
    """The class of a CUDA record description (`CudaRecord` of the tables) in CUDA's layout,
    its fields as `table` (`hip._native.cuda_types(version, "cuda")`) describes them."""
    ns = {
        # Room for the C arrays lists given to its pointer fields are packed into.
        "__slots__": ("_hipgen_refs",),
        "__module__": f"cuda.bindings.{module}",
        "_record": record,
        "_find_record": staticmethod(find_record or (lambda name: None)),
        "_lookup": staticmethod(lookup),
    }
    return table.record_class(record["name"], (CudaStruct,), ns)


def _address(value) -> int:
    """The address an int, a pointer object or a struct stands for."""
    if value is None:
        return 0
    return value if isinstance(value, int) else int(value)


# --- cuda-python's presentation of structs HIP has ----------------------------------------


def _text(value, ty: dict, find_record, lookup) -> str:
    kind = ty["kind"]
    if kind == "record":
        record = find_record(ty["name"])
        return cuda_repr(value, record, find_record, lookup) if record else str(value)
    if kind == "pointer":
        address = _address(value) if value is not None else 0
        return hex(address) if ty.get("to_void") else str(address)
    if kind == "handle":  # as CUDA's handle classes print, whichever class reads it
        try:
            name = lookup(ty["name"]).__name__
        except AttributeError:  # a handle class this module lacks
            name = ty["name"]
        return f"<{name} {hex(_address(value))}>"
    if kind == "array" and isinstance(value, list):
        return "[" + ", ".join(_text(v, ty["elem"], find_record, lookup) for v in value) + "]"
    if isinstance(value, enum.Enum):
        return repr(value)
    return str(value)


def cuda_repr(obj, record: dict, find_record, lookup) -> str:
    """cuda-python's repr of a struct: `field : value` lines, nested structs indented; fields
    named `reserved` (padding for CUDA's future use) are left out, as cuda-python leaves them."""
    lines = []
    for f in record.get("fields", ()):
        name = f["name"]
        if name == "reserved":
            continue
        try:
            text = _text(getattr(obj, name), f["ty"], find_record, lookup)
        except Exception as e:  # a field this class cannot read shows why
            text = f"<{type(e).__name__}: {e}>"
        if f["ty"]["kind"] == "record":
            lines.append(f"{name} :\n    " + text.replace("\n", "\n    "))
        else:
            lines.append(f"{name} : {text}")
    return "\n".join(lines)


def same_layout(record: dict, hip_cls: type) -> bool:
    """Whether HIP's class lays record `record` out as CUDA does (size and every field's
    offset)."""
    try:
        if hip_cls().c_sizeof() != record["size"]:
            return False
        for f in record["fields"]:
            field = hip_cls.__dict__.get(f["name"])
            if field is None or getattr(field, "offset", None) != f["offset"]:
                return False
    except Exception:
        return False
    return True


class CudaStructMeta(type):
    """Metaclass of the CUDA classes over HIP's structs: HIP's instances count as CUDA's."""

    def __instancecheck__(cls, obj):
        if type.__instancecheck__(cls, obj):
            return True
        hip = cls.__dict__.get("__hip_class__")
        return hip is not None and type.__instancecheck__(hip, obj)


def presentation_class(
    name: str, hip_cls: type, module: str, record: dict, find_record, lookup, table
) -> type:
    """CUDA's class `name` over HIP's struct class `hip_cls` (same field names): HIP's
    functions take its instances; it prints and lists (`dir`) as cuda-python's does, and its
    `char` arrays and `T *` fields read and write as cuda-python's (`table`:
    `hip._native.cuda_types(version, "hip")`, whose record names resolve to HIP's classes,
    as the memory a `T *` field points at is read by HIP's functions).
    """

    def __repr__(self):
        return cuda_repr(self, record, find_record, lookup)

    def __dir__(self):
        return _cuda_dir(self, record)

    ns = {
        "__slots__": (),
        "__module__": f"cuda.bindings.{module}",
        "__qualname__": name,
        "__doc__": f"CUDA's {name}: HIP's {hip_cls.__name__}, as cuda-python presents it.",
        "__repr__": __repr__,
        "__str__": __repr__,
        "__dir__": __dir__,
        "__hip_class__": hip_cls,
        "__new__": view_struct,
        "_record": record,
    }
    own = table.fields(record["name"], [f["name"] for f in record["fields"] if f["name"] in hip_cls.__dict__])
    ns.update(own)
    if any(field.keeps for field in own.values()):
        # Room for the C arrays it keeps (then results are copied into it, not re-classed).
        ns["__slots__"] = ("_hipgen_refs",)
    return CudaStructMeta(name, (hip_cls,), ns)


def present(obj, cls):
    """HIP's struct `obj` as an instance of CUDA's class `cls`: the same object where `cls`
    is a class over HIP's, else a copy in CUDA's layout."""
    if obj is None or isinstance(obj, CudaStruct):
        return obj
    if issubclass(cls, CudaStruct):
        out = cls()
        copy_fields(out, obj)
        return out
    hip_cls = cls.__dict__.get("__hip_class__")
    if type(obj) is hip_cls:
        if not cls.__slots__:
            obj.__class__ = cls
            return obj
        out = cls()
        copy_fields(out, obj)
        return out
    return obj


def to_hip(value, hip_cls: type):
    """A struct argument as HIP's function takes it: CUDA's layout copied into HIP's class
    (lists element by element); anything else as it is."""
    if isinstance(value, CudaStruct):
        out = hip_cls()
        copy_fields(out, value, strict=True)
        return out
    if isinstance(value, (list, tuple)):
        return [to_hip(v, hip_cls) for v in value]
    return value


def converted(value, cls: type):
    """Another shape of a record (HIP's for CUDA's, or CUDA's for HIP's) as an instance of
    `cls`, field by field: what the runtime's type tables call where a field or a list
    element of record type `cls` is given one."""
    out = cls()
    copy_fields(out, value, strict=not issubclass(cls, CudaStruct))
    return out
