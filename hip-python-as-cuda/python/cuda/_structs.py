"""Classes of CUDA's structs and unions that HIP has no counterpart of.

hipgen reads each record's layout from CUDA's headers (`generator/src/cuda/types.rs`); a
class made here from it behaves as cuda-python's: zeroed on creation, or a view of memory the
caller owns with `_ptr=address`; `getPtr()` gives its address; fields read and write that
memory: integers (range-checked), floats, enum members, handle objects, addresses, nested
records as views (assigning one copies its bytes), arrays as lists (assigning a list sets
each element).
"""

from __future__ import annotations

import ctypes
import enum
import functools
import itertools

from . import _ints

_INT = {
    (1, True): ctypes.c_int8,
    (1, False): ctypes.c_uint8,
    (2, True): ctypes.c_int16,
    (2, False): ctypes.c_uint16,
    (4, True): ctypes.c_int32,
    (4, False): ctypes.c_uint32,
    (8, True): ctypes.c_int64,
    (8, False): ctypes.c_uint64,
}
_FLOAT = {4: ctypes.c_float, 8: ctypes.c_double}


class _Memory:
    """The bytes of a record made here, and the Python objects its pointer fields were given
    (a NumPy array set as `dstHost` lives as long as the struct does)."""

    __slots__ = ("buf", "refs")

    def __init__(self, size: int):
        self.buf = ctypes.create_string_buffer(max(size, 1)) if size else None
        self.refs: dict[int, object] = {}


class CudaStruct:
    """Base of the record classes: `size` bytes at `_addr`, kept alive by `_owner`."""

    __slots__ = ("_addr", "_owner")
    _size = 0
    _fields: tuple = ()
    #: CUDA's description of the record (`CudaRecord` of the tables) and how to resolve the
    #: names its fields use: cuda-python's repr reads them.
    _record: dict = {}
    _find_record = staticmethod(lambda name: None)
    _lookup = staticmethod(lambda name: None)

    def __init__(self, _ptr=0, **fields):
        if _ptr:
            if fields:
                raise ValueError("_ptr= views existing memory: give no field values with it")
            self._addr, self._owner = _ints.address(_ptr, "_ptr"), _Memory(0)
        else:
            self._owner = _Memory(self._size)
            self._addr = ctypes.addressof(self._owner.buf)
        for name, value in fields.items():
            setattr(self, name, value)

    @classmethod
    def _view(cls, addr: int, owner):
        obj = cls.__new__(cls)
        obj._addr, obj._owner = addr, owner
        return obj

    def getPtr(self) -> int:  # noqa: N802 (cuda-python's name)
        """The record's address."""
        return self._addr

    def __int__(self):
        return self._addr

    def __repr__(self):
        return cuda_repr(self, self._record, type(self)._find_record, type(self)._lookup)

    __str__ = __repr__

    def __dir__(self):
        return _cuda_dir(self, self._fields)


def _cuda_dir(obj, fields) -> list[str]:
    """cuda-python's `dir()` of a struct: its fields, `getPtr` and the dunder names."""
    dunders = [n for n in object.__dir__(obj) if n.startswith("__")]
    return sorted(set(dunders) | set(fields) | {"getPtr"})


def _address(value) -> int:
    """An address from an int, a pointer-like object or an object with getPtr()."""
    if isinstance(value, int):
        return _ints.address(value)
    if value is None:
        return 0
    if isinstance(value, ctypes.c_void_p):
        return value.value or 0
    for protocol in ("__cuda_array_interface__", "__array_interface__"):
        iface = getattr(value, protocol, None)
        if iface is not None:
            return int(iface["data"][0])
    if hasattr(value, "__int__") or hasattr(value, "__index__"):
        return _ints.address(value)
    if hasattr(value, "getPtr"):
        return int(value.getPtr())
    try:  # a writable buffer (bytearray, array.array)
        return ctypes.addressof(ctypes.c_char.from_buffer(value))
    except (TypeError, ValueError):
        raise TypeError(f"expected an address or a pointer-like object, got {type(value).__name__}") from None


class _Access:
    """Reads and writes one kind of value at an address."""

    size = 0

    def get(self, addr, owner):
        raise NotImplementedError

    def set(self, addr, value):
        raise NotImplementedError


class _Number(_Access):
    def __init__(self, ctype, signed_range=None):
        self.ctype, self.size, self.range = ctype, ctypes.sizeof(ctype), signed_range

    def get(self, addr, owner):
        return self.ctype.from_address(addr).value

    def set(self, addr, value):
        if self.range is not None:
            value = _ints.integer(value, *self.range)
        else:
            value = _ints.real(value)
        self.ctype.from_address(addr).value = value


class _Enum(_Access):
    def __init__(self, cls_of, size):
        self.cls_of, self.size = cls_of, size
        self.ctype = _INT.get((size, False), ctypes.c_uint32)
        # A C enum may hold negative values: either sign's range, stored as its bits.
        self.range = (_ints.bounds(size, True)[0], _ints.bounds(size, False)[1])

    def get(self, addr, owner):
        raw = self.ctype.from_address(addr).value
        cls = self.cls_of()
        try:
            return cls(raw)
        except ValueError:
            return raw

    def set(self, addr, value):
        value = value.value if isinstance(value, enum.Enum) else value
        self.ctype.from_address(addr).value = _ints.integer(value, *self.range)


class _Handle(_Access):
    size = ctypes.sizeof(ctypes.c_void_p)

    def __init__(self, cls_of):
        self.cls_of = cls_of

    def get(self, addr, owner):
        return self.cls_of()(ctypes.c_void_p.from_address(addr).value or 0)

    def set(self, addr, value):
        ctypes.c_void_p.from_address(addr).value = _address(value)


class _Pointer(_Access):
    size = ctypes.sizeof(ctypes.c_void_p)

    def __init__(self, to_void=False, elem=None):
        self.to_void = to_void
        #: How to make the element access of a `T *` a list can stand for (else None).
        self.elem = elem

    def get(self, addr, owner):
        return ctypes.c_void_p.from_address(addr).value or 0

    def set(self, addr, value):
        """Writes the pointer; returns what C will read through it, for the struct to keep."""
        if isinstance(value, (list, tuple)) and self.elem is not None:
            value = pack(value, self.elem())
        ctypes.c_void_p.from_address(addr).value = _address(value)
        return value


def pack(values, elem: _Access) -> ctypes.Array:
    """A C array of `values` (cuda-python's list for a `T *` struct field), each written as
    `elem` writes one: a copy, as in cuda-python, so changing a value later changes nothing."""
    buf = (ctypes.c_char * max(1, len(values) * elem.size))()
    base = ctypes.addressof(buf)
    for i, v in enumerate(values):
        try:
            elem.set(base + i * elem.size, v)
        except (TypeError, ValueError, OverflowError) as e:
            raise type(e)(f"element {i}: {e}") from None
    return buf


class _Chars(_Access):
    """A `char` array: bytes, as cuda-python gives them. Text (bytes up to a NUL, then only
    NULs) reads up to the NUL; anything else whole. Set from bytes or from integers in
    -128..255 (a `char` is either sign)."""

    def __init__(self, length: int):
        self.size = length

    def get(self, addr, owner):
        return read_chars(ctypes.string_at(addr, self.size))

    def set(self, addr, value):
        ctypes.memmove(addr, chars_value(value, self.size), self.size)


def _is_char(ty: dict) -> bool:
    """Whether a field type is `char` (signed here, as on x86): `uint8_t` arrays stay lists."""
    return ty["kind"] == "int" and ty["size"] == 1 and ty["signed"]


def read_chars(data: bytes) -> bytes:
    """A `char` array's bytes as cuda-python gives them (see `_Chars`)."""
    text, nul, rest = data.partition(b"\0")
    return text if text and not rest.strip(b"\0") else data


def chars_value(value, length: int) -> bytes:
    """The `length` bytes a `char` array is set to from bytes or integers in -128..255."""
    if isinstance(value, str):
        value = value.encode()
    if isinstance(value, (bytes, bytearray, memoryview)):
        data = bytes(value)
    else:
        values = [_ints.integer(v, -128, 255, f"element {i} (a char)") for i, v in enumerate(value)]
        data = bytes(v & 0xFF for v in values)
    if len(data) > length:
        raise ValueError(f"{len(data)} bytes for a char array of {length}")
    return data.ljust(length, b"\0")


class _Record(_Access):
    def __init__(self, cls_of, size):
        self.cls_of, self.size = cls_of, size

    def get(self, addr, owner):
        cls = self.cls_of()
        if isinstance(cls, type) and issubclass(cls, CudaStruct):
            return cls._view(addr, owner)
        # A HIP struct class (same layout as CUDA's): a view too, keeping this memory alive.
        return cls(_hipgen_view=(addr, owner))

    def set(self, addr, value):
        cls = self.cls_of()
        if isinstance(value, cls) or not (isinstance(value, CudaStruct) or _is_hip_struct(value)):
            src = value.getPtr() if hasattr(value, "getPtr") else _address(value)
            ctypes.memmove(addr, src, self.size)
        else:  # another shape of the same struct (HIP's, CUDA's): field by field
            copy_fields(self.get(addr, None), value)

    def copy(self, addr):
        """A new record holding a copy of the bytes at `addr`."""
        obj = self.cls_of()()
        ctypes.memmove(obj.getPtr(), addr, self.size)
        return obj


class _Array(_Access):
    def __init__(self, elem: _Access, length: int):
        self.elem, self.length, self.size = elem, length, elem.size * length

    def get(self, addr, owner):
        if isinstance(self.elem, _Record):
            # cuda-python gives an array's structs as copies (a nested struct field is a view).
            return [self.elem.copy(addr + i * self.elem.size) for i in range(self.length)]
        return [self.elem.get(addr + i * self.elem.size, owner) for i in range(self.length)]

    def set(self, addr, value):
        # A list or tuple, or a sized object (a NumPy array) as Cython's array fields take;
        # a handle object, iterable through `__getitem__` without end, is refused.
        if isinstance(value, list | tuple) or not hasattr(type(value), "__len__"):
            values = _ints.sequence(value)
        else:
            values = list(itertools.islice(value, self.length + 1))
        if len(values) > self.length:
            raise ValueError(f"{len(values)} values for an array of {self.length}")
        for i, v in enumerate(values):
            self.elem.set(addr + i * self.elem.size, v)


class _Opaque(_Access):
    def __init__(self, size):
        self.size = size

    def get(self, addr, owner):
        return ctypes.string_at(addr, self.size)

    def set(self, addr, value):
        data = bytes(value)
        ctypes.memmove(addr, data, min(len(data), self.size))


def _access(ty: dict, lookup, sizes) -> _Access:
    kind = ty["kind"]
    if kind == "int":
        size, signed = ty["size"], ty["signed"]
        ctype = _INT.get((size, signed), ctypes.c_uint8)
        return _Number(ctype, _ints.bounds(size, signed))
    if kind == "float":
        return _Number(_FLOAT.get(ty["size"], ctypes.c_double))
    if kind == "enum":
        return _Enum(lambda: lookup(ty["name"]), ty["size"])
    if kind == "handle":
        return _Handle(lambda: lookup(ty["name"]))
    if kind == "pointer":
        elem = ty.get("elem")
        # Made when first used: an element struct's class may not be resolvable yet.
        made = elem and functools.cache(lambda: _access(elem, lookup, sizes))
        return _Pointer(ty.get("to_void", False), made)
    if kind == "record":
        return _Record(lambda: lookup(ty["name"]), sizes(ty["name"]))
    if kind == "array" and _is_char(ty["elem"]):
        return _Chars(ty["len"])
    if kind == "array":
        return _Array(_access(ty["elem"], lookup, sizes), ty["len"])
    return _Opaque(ty["size"])


def _field(name: str, offset: int, access: _Access):
    def fget(self):
        return access.get(self._addr + offset, self._owner)

    def fset(self, value):
        try:
            kept = access.set(self._addr + offset, value)
        except (TypeError, ValueError, OverflowError) as e:
            raise type(e)(f"field '{name}': {e}") from None
        if isinstance(access, _Pointer) and self._owner is not None:
            # The pointer C will read must stay valid: the struct keeps what it was given.
            self._owner.refs[self._addr + offset] = None if isinstance(kept, int) else kept

    return property(fget, fset, doc=f"Field '{name}' at offset {offset}.")


def make_class(record: dict, module: str, lookup, sizes, find_record=None) -> type:
    """The class of a CUDA record description (`CudaRecord` of the tables)."""
    ns = {
        "__slots__": (),
        "__module__": f"cuda.bindings.{module}",
        "__doc__": f"CUDA's {record['name']} ({record['size']} bytes, CUDA's layout).",
        "_size": record["size"],
        "_fields": tuple(f["name"] for f in record["fields"]),
        "_record": record,
        "_find_record": staticmethod(find_record or (lambda name: None)),
        "_lookup": staticmethod(lookup),
    }
    for f in record["fields"]:
        ns[f["name"]] = _field(f["name"], f["offset"], _access(f["ty"], lookup, sizes))
    return type(record["name"], (CudaStruct,), ns)


# --- cuda-python's presentation of structs HIP has ----------------------------------------


def _is_hip_struct(obj) -> bool:
    from hip._util.types import Struct

    return isinstance(obj, Struct)


def _text(value, ty: dict, find_record, lookup) -> str:
    kind = ty["kind"]
    if kind == "record":
        record = find_record(ty["name"])
        return cuda_repr(value, record, find_record, lookup) if record else str(value)
    if kind == "pointer":
        address = _address(value) if value is not None else 0
        return hex(address) if ty.get("to_void") else str(address)
    if kind == "handle":
        try:
            return repr(lookup(ty["name"])(_address(value)))
        except Exception:  # a handle class this module lacks: the address
            return hex(_address(value))
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


#: HIP struct class → its fields as `_fields_of` gives them.
_HIP_FIELDS: dict[type, list] = {}


def _fields_of(obj):
    record = getattr(type(obj), "_record", None)
    if record:
        return record["fields"]
    cls = type(obj)  # HIP's class: its field descriptors know their offsets
    fields = _HIP_FIELDS.get(cls)
    if fields is None:
        fields = [{"name": n, "offset": getattr(cls, n).offset, "ty": {}} for n in cls.PROPERTIES()]
        _HIP_FIELDS[cls] = fields
    return fields


def _is_zero(value) -> bool:
    if isinstance(value, (bytes, bytearray)):
        return not value.strip(b"\0")
    if isinstance(value, list):
        return all(_is_zero(v) for v in value)
    if isinstance(value, int | float):
        return value == 0
    if _is_struct(value):
        return not ctypes.string_at(value.getPtr(), _size_of(value)).strip(b"\0")
    try:
        return _address(value) == 0
    except TypeError:
        return False


def _is_union(fields) -> bool:
    return len(fields) > 1 and all(f.get("offset", 0) == 0 for f in fields)


def _size_of(obj) -> int:
    return obj._size if isinstance(obj, CudaStruct) else obj.c_sizeof()


def _is_struct(value) -> bool:
    return isinstance(value, CudaStruct) or _is_hip_struct(value)


#: (HIP class, CUDA class) → (byte runs (CUDA offset, HIP offset, size), fields copied one
#: by one): how a HIP struct is copied into CUDA's layout.
_PLANS: dict[tuple[type, type], tuple[list, list]] = {}


def _scalar_size(ty: dict) -> int | None:
    """The size of a CUDA field type that is a number or an array of numbers, else None."""
    if ty.get("kind") in ("int", "float") and ty.get("size"):
        return ty["size"]
    if ty.get("kind") == "array":
        elem = _scalar_size(ty.get("elem", {}))
        return elem * ty["len"] if elem else None
    return None


def _plan(hip_cls: type, cuda_cls: type, src_fields) -> tuple[list, list]:
    """The copy plan of a HIP struct into CUDA's layout: fields that are numbers (or arrays of
    them) of the same size in both layouts are copied as bytes; the rest by value."""
    key = (hip_cls, cuda_cls)
    plan = _PLANS.get(key)
    if plan is not None:
        return plan
    cuda = {f["name"]: f for f in cuda_cls._record["fields"]}
    hip_offsets = sorted({f["offset"] for f in src_fields})
    # A HIP field's extent: to the next field, or to the end of the struct.
    ends = dict(zip(hip_offsets, hip_offsets[1:] + [_size_of(hip_cls())], strict=True))
    runs, slow = [], []
    for f in src_fields:
        c = cuda.get(f["name"])
        size = _scalar_size(c["ty"]) if c else None
        bits = getattr(getattr(hip_cls, f["name"], None), "bits", None)
        if c is None:
            continue  # CUDA lacks the field: nothing to copy
        extent = ends[f["offset"]] - f["offset"]
        if size is not None and bits is None and extent == size:
            runs.append((c["offset"], f["offset"], size))
        elif size is not None and bits is None and c["ty"]["kind"] == "array" and extent > size:
            # A longer HIP array (`reserved`): what fits, as the copy by value does.
            runs.append((c["offset"], f["offset"], size))
        else:
            slow.append(f)
    plan = _PLANS[key] = (runs, slow)
    return plan


def copy_fields(dst, src, strict: bool = False) -> None:
    """Copies `src`'s field values into `dst` by name: HIP's struct into CUDA's layout or
    back. With `strict` (a struct HIP's function is given), a field `dst` lacks must be zero
    in `src`: C could not be told its value. A union is copied as bytes (which member is in
    use, C does not say)."""
    src_fields = _fields_of(src)
    if _is_union(src_fields):
        ctypes.memmove(dst.getPtr(), src.getPtr(), min(_size_of(dst), _size_of(src)))
        return
    if not strict and isinstance(dst, CudaStruct) and _is_hip_struct(src):
        # HIP's struct into CUDA's layout (a result): numbers as bytes, the rest by value.
        runs, src_fields = _plan(type(src), type(dst), src_fields)
        to, at = dst.getPtr(), src.getPtr()
        for dst_offset, src_offset, size in runs:
            ctypes.memmove(to + dst_offset, at + src_offset, size)
    for f in src_fields:
        name = f["name"]
        value = getattr(src, name)
        if not hasattr(type(dst), name):
            if strict and not _is_zero(value):
                raise ValueError(
                    f"{type(dst).__name__} has no field '{name}': its value {value!r} cannot be passed"
                )
            continue
        if _is_struct(value):
            copy_fields(getattr(dst, name), value, strict)
        elif isinstance(value, list) and value and _is_struct(value[0]):
            target = getattr(dst, name)
            for i, v in enumerate(value[: len(target)]):
                copy_fields(target[i], v, strict)
            setattr(dst, name, target)
        elif isinstance(value, (list, bytes)) and isinstance(getattr(dst, name), (list, bytes)):
            # Arrays of other lengths (`reserved[63]` against `reserved[56]`): what fits.
            room = len(getattr(dst, name)) if isinstance(getattr(dst, name), list) else len(value)
            if strict and not _is_zero(value[room:]):
                raise ValueError(f"{type(dst).__name__}.{name} holds {room} values: {value!r} does not fit")
            setattr(dst, name, value[:room])
        else:
            setattr(dst, name, value)


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


def _char_field(hip_field, length: int):
    offset = hip_field.offset

    def fget(self):
        return read_chars(ctypes.string_at(self.getPtr() + offset, length))

    def fset(self, value):
        try:
            data = chars_value(value, length)
        except (TypeError, ValueError, OverflowError) as e:
            raise type(e)(f"field '{hip_field.name}': {e}") from None
        ctypes.memmove(self.getPtr() + offset, data, length)

    return property(fget, fset, doc=hip_field.__doc__)


def _list_pointer_field(hip_field, elem):
    """A `T *` field of HIP's struct that also takes a list (an array the struct keeps)."""
    name = hip_field.name

    def fget(self):
        return hip_field.__get__(self, type(self))

    def fset(self, value):
        kept = value
        if isinstance(value, (list, tuple)):
            try:
                kept = pack(value, elem())
            except (TypeError, ValueError, OverflowError) as e:
                raise type(e)(f"field '{name}': {e}") from None
            value = ctypes.addressof(kept)
        hip_field.__set__(self, value)
        try:
            refs = self._hipgen_refs
        except AttributeError:
            refs = self._hipgen_refs = {}
        refs[name] = None if isinstance(kept, int) else kept

    return property(fget, fset, doc=hip_field.__doc__)


def presentation_class(
    name: str, hip_cls: type, module: str, record: dict, find_record, lookup, hip_record=None
) -> type:
    """CUDA's class `name` over HIP's struct class `hip_cls` (same field names): HIP's
    functions take its instances; it prints, lists (`dir`) and reads `char` arrays as
    cuda-python's does; a `T *` field takes a list, as cuda-python's does (`hip_record`
    gives HIP's class of a CUDA struct name, for arrays of structs HIP lays out otherwise).
    """

    def in_hip_layout(n):
        cls = lookup(n)
        if isinstance(cls, type) and issubclass(cls, CudaStruct) and hip_record is not None:
            return hip_record(n)
        return cls

    def hip_size(n):
        return in_hip_layout(n)().c_sizeof()

    def __repr__(self):
        return cuda_repr(self, record, find_record, lookup)

    def __dir__(self):
        return _cuda_dir(self, [f["name"] for f in record["fields"]])

    ns = {
        "__slots__": (),
        "__module__": f"cuda.bindings.{module}",
        "__qualname__": name,
        "__doc__": f"CUDA's {name}: HIP's {hip_cls.__name__}, as cuda-python presents it.",
        "__repr__": __repr__,
        "__str__": __repr__,
        "__dir__": __dir__,
        "__hip_class__": hip_cls,
        "_record": record,
    }
    for f in record["fields"]:
        ty = f["ty"]
        hip_field = hip_cls.__dict__.get(f["name"])
        if ty["kind"] == "array" and _is_char(ty["elem"]) and hip_field:
            ns[f["name"]] = _char_field(hip_field, ty["len"])
        elif ty["kind"] == "pointer" and ty.get("elem") and hip_field:
            elem = ty["elem"]
            access = functools.cache(lambda e=elem: _access(e, in_hip_layout, hip_size))
            ns[f["name"]] = _list_pointer_field(hip_field, access)
            # Room for the arrays it keeps (then results are copied into it, not re-classed).
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
        ctypes.memmove(out.getPtr(), obj.getPtr(), obj.c_sizeof())
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
