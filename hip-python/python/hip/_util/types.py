"""Pointer-like types (hip-python's `hip._util.types`), implemented in the native runtime."""

from hip._native import DeviceArray, Pointer, Struct

__all__ = ["DeviceArray", "Pointer", "Struct"]
