"""Pointer-like types of the LLVM and comgr modules (rocm-llvm-python's
`rocm.llvm._util.types`): `Pointer`, `CStr` (the strings functions return; `str()` is the
text), `DeviceArray` and the struct base, from the native runtime."""

from rocm._native import CStr, DeviceArray, Pointer, Struct

__all__ = ["CStr", "DeviceArray", "Pointer", "Struct"]
