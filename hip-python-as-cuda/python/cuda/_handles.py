"""CUDA's handle classes (`CUcontext`, `cudaStream_t`, callbacks such as
`CUoccupancyB2DSize`), which print as cuda-python's do: `<CUcontext 0x3039>`.

Where HIP has the handle, the CUDA class is a subclass of HIP's, so every HIP function takes
its instances, and HIP's instances (what functions called as HIP's return) count as
instances of it (`isinstance(hip_ctx, CUcontext)`).
"""

from __future__ import annotations

from hip._util.types import Pointer, Struct


class CudaHandleMeta(type):
    """Metaclass of the CUDA handle classes: HIP's instances count as CUDA's."""

    def __instancecheck__(cls, obj):
        if type.__instancecheck__(cls, obj):
            return True
        hip = cls.__dict__.get("__hip_class__")
        return hip is not None and type.__instancecheck__(hip, obj)


def _repr(self):
    return f"<{type(self).__name__} {hex(int(self))}>"


def _index(self):
    return int(self)


def _at(cls, init_value=0, _ptr=0, **view):
    """A handle to a struct HIP declares (`hipArray_t`) holding address `init_value`, or the
    address stored at `_ptr`, as cuda-python's `CUarray(address)`: a view there, never a new
    struct."""
    if view:  # the runtime viewing a struct (`_hipgen_view=(address, owner)`)
        return Struct.__new__(cls, **view)
    if _ptr:  # the handle stored at that address, as a plain handle reads it
        init_value = int(Pointer(_ptr=_ptr))
    return cls.fromObj(int(init_value or 0))


def handle_class(name: str, base: type, module: str, doc: str, hip: type | None = None) -> type:
    """A CUDA handle class over pointer class `base` (HIP's class, or the generic pointer)."""
    namespace = {
        "__module__": module,
        "__qualname__": name,
        "__doc__": doc,
        "__repr__": _repr,
        "__str__": _repr,
        "__index__": _index,
        "__hip_class__": hip,
    }
    if issubclass(base, Struct):
        namespace["__new__"] = _at
    return CudaHandleMeta(name, (base,), namespace)
