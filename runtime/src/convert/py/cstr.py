# The C strings functions return, as hip-python's `hip._util.types.CStr` behaves: `str()`,
# indexing and slicing give the text; `bytes()`, `len()`, `in` and the buffer protocol the
# bytes; `int()` the address of the characters. It is a `bytes` subclass holding a copy made when the
# call returns, so it stays valid after the library frees or reuses its memory. The runtime
# (cstr.rs) runs this once and creates results with `bytes.__new__(CStr, data)`.
import ctypes


class CStr(bytes):
    """A NUL-terminated C string: bytes whose `str()` is their UTF-8 text."""

    __slots__ = ()

    def __new__(cls, pyobj=None):
        """From bytes, str (UTF-8) or any buffer, or from a pointer-like object (None, an int
        address, a ctypes pointer, a `Pointer`) whose characters are read where they are."""
        if pyobj is None:
            data = b""
        elif isinstance(pyobj, str):
            data = pyobj.encode()
        elif isinstance(pyobj, (ctypes.c_void_p, ctypes.c_char_p)):
            address = ctypes.cast(pyobj, ctypes.c_void_p).value
            data = ctypes.string_at(address) if address else b""
        else:
            try:
                data = bytes(memoryview(pyobj))
            except TypeError:
                address = int(pyobj)  # an int address or a `Pointer`
                data = ctypes.string_at(address) if address else b""
        return super().__new__(cls, data.split(b"\0", 1)[0])

    @classmethod
    def fromObj(cls, pyobj):  # noqa: N802 - hip-python's name
        """`pyobj` itself if it is a CStr, else a new one from it."""
        return pyobj if isinstance(pyobj, cls) else cls(pyobj)

    def __str__(self):
        return self.decode()

    def __repr__(self):
        return self.decode(errors="replace")

    def __int__(self):
        return ctypes.cast(ctypes.c_char_p(self), ctypes.c_void_p).value

    def as_c_void_p(self):
        """The address of the characters as `ctypes.c_void_p`."""
        return ctypes.c_void_p(int(self))

    @property
    def is_ptr_null(self):
        """Always False: a result that is NULL is None."""
        return False

    def __getitem__(self, subscript):
        """Characters of the text, as hip-python gives them (`s[1] == 'e'`)."""
        return str(self)[subscript]
