"""Classes of CUDA's structs and unions that HIP has no counterpart of.

hipgen reads each record's layout from CUDA's headers (`generator/src/cuda_types.rs`); a
class made here from it behaves as cuda-python's: zeroed on creation, or a view of memory the
caller owns with `_ptr=address`; `getPtr()` gives its address; fields read and write that
memory: integers (range-checked), floats, enum members, handle objects, addresses, nested
records as views (assigning one copies its bytes), arrays as lists (assigning a list sets
each element).
"""

from __future__ import annotations

import ctypes
import enum

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


class CudaStruct:
    """Base of the record classes: `size` bytes at `_addr`, kept alive by `_owner`."""

    __slots__ = ("_addr", "_owner")
    _size = 0
    _fields: tuple = ()

    def __init__(self, _ptr=0, **fields):
        if _ptr:
            if fields:
                raise ValueError("_ptr= views existing memory: give no field values with it")
            self._addr, self._owner = int(_ptr), None
        else:
            buf = ctypes.create_string_buffer(max(self._size, 1))
            self._addr, self._owner = ctypes.addressof(buf), buf
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
        lines = []
        for name in self._fields:
            try:
                value = getattr(self, name)
            except Exception as e:  # a field this class cannot read shows why
                value = f"<{type(e).__name__}: {e}>"
            text = str(value).replace("\n", "\n    ")
            lines.append(f"{name} : {text}")
        return "\n".join(lines)

    __str__ = __repr__


def _address(value) -> int:
    """An address from an int, a pointer-like object or an object with getPtr()."""
    if isinstance(value, int):
        return int(value)
    if value is None:
        return 0
    if isinstance(value, ctypes.c_void_p):
        return value.value or 0
    return int(value)


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
            value = int(value)
            lo, hi = self.range
            if not lo <= value <= hi:
                raise OverflowError(f"{value} is out of range [{lo}, {hi}]")
        self.ctype.from_address(addr).value = value


class _Enum(_Access):
    def __init__(self, cls_of, size):
        self.cls_of, self.size = cls_of, size
        self.ctype = _INT.get((size, False), ctypes.c_uint32)

    def get(self, addr, owner):
        raw = self.ctype.from_address(addr).value
        cls = self.cls_of()
        try:
            return cls(raw)
        except ValueError:
            return raw

    def set(self, addr, value):
        self.ctype.from_address(addr).value = int(value.value if isinstance(value, enum.Enum) else value)


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

    def get(self, addr, owner):
        return ctypes.c_void_p.from_address(addr).value or 0

    def set(self, addr, value):
        ctypes.c_void_p.from_address(addr).value = _address(value)


class _Record(_Access):
    def __init__(self, cls_of, size):
        self.cls_of, self.size = cls_of, size

    def get(self, addr, owner):
        cls = self.cls_of()
        if isinstance(cls, type) and issubclass(cls, CudaStruct):
            return cls._view(addr, owner)
        # A HIP struct class: a view too, keeping this record's memory alive.
        return cls(_hipgen_view=(addr, owner))

    def set(self, addr, value):
        src = value.getPtr() if hasattr(value, "getPtr") else _address(value)
        ctypes.memmove(addr, src, self.size)

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
        values = list(value)
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


def int_range(size: int, signed: bool) -> tuple[int, int]:
    """The values a C integer of `size` bytes holds."""
    bits = size * 8
    return (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)


def _access(ty: dict, lookup, sizes) -> _Access:
    kind = ty["kind"]
    if kind == "int":
        size, signed = ty["size"], ty["signed"]
        ctype = _INT.get((size, signed), ctypes.c_uint8)
        return _Number(ctype, int_range(size, signed))
    if kind == "float":
        return _Number(_FLOAT.get(ty["size"], ctypes.c_double))
    if kind == "enum":
        return _Enum(lambda: lookup(ty["name"]), ty["size"])
    if kind == "handle":
        return _Handle(lambda: lookup(ty["name"]))
    if kind == "pointer":
        return _Pointer()
    if kind == "record":
        return _Record(lambda: lookup(ty["name"]), sizes(ty["name"]))
    if kind == "array":
        return _Array(_access(ty["elem"], lookup, sizes), ty["len"])
    return _Opaque(ty["size"])


def _field(name: str, offset: int, access: _Access):
    def fget(self):
        return access.get(self._addr + offset, self._owner if self._owner is not None else self)

    def fset(self, value):
        try:
            access.set(self._addr + offset, value)
        except (TypeError, ValueError, OverflowError) as e:
            raise type(e)(f"field '{name}': {e}") from None

    return property(fget, fset, doc=f"Field '{name}' at offset {offset}.")


def make_class(record: dict, module: str, lookup, sizes) -> type:
    """The class of a CUDA record description (`CudaRecord` of the tables)."""
    ns = {
        "__slots__": (),
        "__module__": f"cuda.bindings.{module}",
        "__doc__": f"CUDA's {record['name']} ({record['size']} bytes; HIP has no counterpart).",
        "_size": record["size"],
        "_fields": tuple(f["name"] for f in record["fields"]),
    }
    for f in record["fields"]:
        ns[f["name"]] = _field(f["name"], f["offset"], _access(f["ty"], lookup, sizes))
    return type(record["name"], (CudaStruct,), ns)
