"""CUDA's handle classes (`CUcontext`, `cudaStream_t`, callbacks such as
`CUoccupancyB2DSize`), which print as cuda-python's do: `<CUcontext 0x3039>`.

Where HIP has the handle, the CUDA class is a subclass of HIP's, so every HIP function takes
its instances, and HIP's instances (what functions called as HIP's return) count as
instances of it (`isinstance(hip_ctx, CUcontext)`).
"""

from __future__ import annotations

from hip._util.types import IntView, Struct

from . import _native


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


def stored(cls, init_value, _ptr):
    """`init_value`, or the pointer stored at address `_ptr`: cuda-python's
    `cudaStreamCallback_t(_ptr=ctypes.addressof(c_callback))`."""
    if not _ptr:
        return init_value
    if init_value is not None:
        raise ValueError("give a value or _ptr=, not both")
    return int(IntView(int, _native.address(_ptr, f"{cls.__name__}: _ptr"), 8, False))


def _at(cls, init_value=None, _ptr=0, **view):
    """A handle to a struct HIP declares (`hipArray_t`) holding address `init_value`, or the
    address stored at `_ptr`, as cuda-python's `CUarray(address)`: a view there, never a new
    struct."""
    if view:  # the runtime viewing a struct (`_hipgen_view=(address, owner)`)
        return Struct.__new__(cls, **view)
    return cls.fromObj(int(stored(cls, init_value, _ptr) or 0))


class _ViewRefs(dict):
    """What a `_ptr=` view keeps for the pointer fields it sets (the C array a list was packed
    into). They go with the view, so the fields it set are cleared then, where they still hold
    what it wrote: the memory's owner never holds a dangling pointer (cuda-python's
    `__dealloc__` does the same)."""

    __slots__ = ()

    def __del__(self):
        _native.clear_kept(self)


def view_struct(cls, *args, _ptr=0, **kwargs):
    """A new struct of `cls` from field values, or, as cuda-python's `Struct(_ptr=address)`,
    a view of the struct at that address (kept alive by nothing: the caller owns it)."""
    if _ptr:
        if args or kwargs:
            raise ValueError("_ptr= views existing memory: give no field values with it")
        address = _native.address(_ptr, f"{cls.__name__}: _ptr")
        view = Struct.__new__(cls, _hipgen_view=(address, _ptr))
        if hasattr(cls, "_hipgen_refs"):  # a class whose pointer fields keep what they get
            view._hipgen_refs = _ViewRefs()
        return view
    return Struct.__new__(cls, *args, **kwargs)


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
    else:

        def __new__(cls, pyobj=None, _ptr=0):
            return base.__new__(cls, stored(cls, pyobj, _ptr))

        namespace["__new__"] = __new__
    return CudaHandleMeta(name, (base,), namespace)
