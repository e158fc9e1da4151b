"""C integers made from Python values, refused before C as the generated functions refuse them.

The adapters of this package convert some values themselves: the arguments of direct C calls,
kernel arguments, fields of CUDA's layouts, CUDA's integer classes. `int()` parses strings
(`int("5")`) and ctypes keeps the low bits of what does not fit (`c_uint32(-1)`,
`c_void_p(2**70)`), so every such conversion goes through here instead.

An integer is an `int` (enum members and other subclasses included), an object with
`__index__` (NumPy's integers, CUDA's handle classes) or a number with `__int__`, truncated
toward zero: cuda-python's integer parameters take `n / 2` (its Cython conversion calls
`__int__`), and so do the HIP functions (docs/conventions.md). An address takes no float.
Anything else (`str`, `bytes`, None) is a TypeError; a value outside the C type's range is an
OverflowError. Both name what was being converted (`argument 'numOptions'`).
"""

from __future__ import annotations

import numbers
import operator


def bounds(size: int, signed: bool) -> tuple[int, int]:
    """The values a C integer of `size` bytes holds."""
    bits = size * 8
    return (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)


#: The C types the package checks values against (LP64: the platforms CUDA and ROCm run on).
C_INT = bounds(4, True)
SIZE_T = bounds(8, False)
ADDRESS = bounds(8, False)


def _prefix(what: str | None) -> str:
    return f"{what}: " if what else ""


def _fit(value: int, lo: int, hi: int, what: str | None) -> int:
    if not lo <= value <= hi:
        raise OverflowError(f"{_prefix(what)}{value} is out of range [{lo}, {hi}]")
    return value


def integer(value, lo: int, hi: int, what: str | None = None, truncate: bool = True) -> int:
    """`value` as an integer in `[lo, hi]`; `truncate=False` takes no float (as ctypes'
    integer types take none, in cuda-python's kernel arguments)."""
    if type(value) is not int:
        try:
            value = operator.index(value)
        except TypeError:
            if not (truncate and hasattr(type(value), "__int__")):
                raise TypeError(
                    f"{_prefix(what)}'{type(value).__name__}' object cannot be interpreted as an integer"
                ) from None
            value = int(value)
    return _fit(value, lo, hi, what)


def address(value, what: str | None = None) -> int:
    """`value` as a C pointer: an integer (no float), or an object with `__int__` that is no
    number (HIP's pointer and handle objects, whose value is the address)."""
    if type(value) is not int:
        try:
            value = operator.index(value)
        except TypeError:
            if isinstance(value, numbers.Number) or not hasattr(type(value), "__int__"):
                raise TypeError(f"{_prefix(what)}expected an address, got '{type(value).__name__}'") from None
            value = int(value)
    return _fit(value, *ADDRESS, what)


def real(value, what: str | None = None) -> float:
    """`value` as a C floating-point number: a number, not a string (`float("5")` parses one)."""
    if isinstance(value, str | bytes | bytearray):
        raise TypeError(f"{_prefix(what)}'{type(value).__name__}' object cannot be interpreted as a number")
    return float(value)


def sequence(value, what: str | None = None) -> list:
    """`value`, a list or tuple, as a list: cuda-python's list parameters are `tuple[...] |
    list[...]`. Anything else is a TypeError, before it is iterated (a handle object has
    `__getitem__` and no end, so `list()` of it never returns)."""
    if not isinstance(value, list | tuple):
        raise TypeError(f"{_prefix(what)}expected a list or tuple, got '{type(value).__name__}'")
    return list(value)
