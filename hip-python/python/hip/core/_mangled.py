"""Kernel parameter types from an Itanium-mangled (C++) kernel name.

`_Z5saxpyfPKfPfi` is `saxpy(float, const float *, float *, int)`; a template instance such as
`_Z5saxpyIfEvT_PKS0_PS0_i` names its arguments through template parameters (`T_`) and
substitutions (`S0_`). Builtin types, pointers (any qualifiers), template arguments of
builtin types and both kinds of back-reference are read; anything else (classes, references,
function pointers) raises ValueError, and the caller gives the types instead.
"""

from __future__ import annotations

import ctypes

#: Builtin type codes → the ctypes type a value of it is packed as.
BUILTIN = {
    "b": ctypes.c_bool,
    "c": ctypes.c_char,
    "a": ctypes.c_int8,
    "h": ctypes.c_uint8,
    "s": ctypes.c_int16,
    "t": ctypes.c_uint16,
    "i": ctypes.c_int32,
    "j": ctypes.c_uint32,
    "l": ctypes.c_int64,
    "m": ctypes.c_uint64,
    "x": ctypes.c_int64,
    "y": ctypes.c_uint64,
    "f": ctypes.c_float,
    "d": ctypes.c_double,
}

#: A pointer parameter (any pointee): packed as an address.
POINTER = "pointer"


class _Reader:
    def __init__(self, text: str):
        self.text, self.pos = text, 0
        self.subs: list[str] = []  # substitution candidates, in order
        self.template_args: list[str] = []

    def peek(self) -> str:
        return self.text[self.pos : self.pos + 1]

    def take(self, n: int = 1) -> str:
        out = self.text[self.pos : self.pos + n]
        self.pos += n
        return out

    def number(self) -> int:
        start = self.pos
        while self.peek().isdigit():
            self.pos += 1
        if start == self.pos:
            raise ValueError(f"expected a length at {self.pos}")
        return int(self.text[start : self.pos])

    def seq_id(self, end: str) -> int:
        """`_` → 0, `0_` → 1, `A_` → 11 (base 36 plus one)."""
        if self.peek() == "_":
            self.take()
            return 0
        start = self.pos
        while self.peek() and self.peek() != "_":
            self.pos += 1
        value = int(self.text[start : self.pos], 36) + 1
        self.take()
        return value

    def type(self) -> str:
        """One type, as a canonical string (`f`, `P` + pointee); records substitutions."""
        c = self.peek()
        if c in BUILTIN or c == "v":
            return self.take()
        if c in "KVr":
            self.take()
            inner = self.type()
            self.subs.append(c + inner)
            return inner  # qualifiers do not change how a value is passed
        if c == "P":
            self.take()
            out = "P" + self.type()
            self.subs.append(out)
            return out
        if c == "S":
            self.take()
            index = self.seq_id("_")
            if index >= len(self.subs):
                raise ValueError(f"substitution S{index} is not defined")
            return self.subs[index]
        if c == "T":
            self.take()
            index = self.seq_id("_")
            if index >= len(self.template_args):
                raise ValueError(f"template parameter T{index} is not defined")
            out = self.template_args[index]
            self.subs.append(out)
            return out
        raise ValueError(f"unsupported type code {c!r} at {self.pos}")


def parameter_types(mangled: str) -> list:
    """The ctypes type (or POINTER) of each parameter of the function `mangled` names."""
    if not mangled.startswith("_Z"):
        raise ValueError(f"{mangled!r} is not a mangled C++ name")
    r = _Reader(mangled)
    r.take(2)
    if not r.peek().isdigit():
        raise ValueError("only functions at namespace scope are read (no nested names)")
    r.take(r.number())  # the name
    templated = r.peek() == "I"
    if templated:
        r.subs.append("<template name>")
        r.take()
        while r.peek() != "E":
            if not r.peek():
                raise ValueError("unterminated template arguments")
            r.template_args.append(r.type())
        r.take()
        r.type()  # a function template instance encodes its return type first
    params = []
    while r.pos < len(mangled):
        t = r.type()
        if t == "v" and not params and r.pos == len(mangled):
            break  # f(void)
        params.append(POINTER if t.startswith("P") else BUILTIN[t])
    return params
