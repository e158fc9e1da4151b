"""Pointer-like types (hip-python's `hip._util.types`).

`Pointer`, `CStr`, `DeviceArray`, `IntView` and the struct base live in the native runtime; the `ListOf*`
adapters below turn Python lists into C arrays that stay alive as long as the adapter.
"""

import ctypes

from hip._native import CStr, DeviceArray, IntView, Pointer, Struct

__all__ = [
    "CStr",
    "DeviceArray",
    "IntView",
    "ListOfBytes",
    "ListOfInt",
    "ListOfPointer",
    "ListOfUnsigned",
    "ListOfUnsignedLong",
    "Pointer",
    "Struct",
]


class _ListOf(Pointer):
    """A C array built from a list or tuple; any other argument is taken as pointer-like."""

    _ctype = ctypes.c_int

    def __new__(cls, values=None):
        if not isinstance(values, (list, tuple)):
            return super().__new__(cls, values)
        array = (cls._ctype * len(values))(*(cls._item(v) for v in values))
        self = super().__new__(cls, array)
        self._values = values  # objects whose addresses the array holds stay alive too
        return self

    @staticmethod
    def _item(value):
        return value


class ListOfInt(_ListOf):
    """`int *` from a list of ints."""

    _ctype = ctypes.c_int


class ListOfUnsigned(_ListOf):
    """`unsigned int *` from a list of ints."""

    _ctype = ctypes.c_uint


class ListOfUnsignedLong(_ListOf):
    """`unsigned long *` from a list of ints."""

    _ctype = ctypes.c_ulong


class ListOfPointer(_ListOf):
    """`void **` from a list of pointer-like objects."""

    _ctype = ctypes.c_void_p

    @staticmethod
    def _item(value):
        return int(Pointer(value))


class ListOfBytes(_ListOf):
    """`const char **` from a list of `bytes` or `str`."""

    _ctype = ctypes.c_char_p

    @staticmethod
    def _item(value):
        return value.encode() if isinstance(value, str) else bytes(value)
