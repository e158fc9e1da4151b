"""Argument conversion: what pointer parameters accept, and clear errors for bad input."""

import array
import ctypes
import struct

import numpy as np
import pytest

from hip import hip
from hip._native import pack_kernel_args
from hip._util.types import DeviceArray, Pointer


class CudaArrayLike:
    """An object exposing only `__cuda_array_interface__`, as CuPy arrays do."""

    __cuda_array_interface__ = {"shape": (4,), "typestr": "<f4", "data": (0x1234, False), "version": 3}


class _IntSubclass(int):
    """An int subclass with attributes of its own (as CUDA's `CUdeviceptr` is)."""

    def getPtr(self):  # noqa: N802 (cuda-python's name)
        raise AssertionError("an int argument is its value")


class _Index:
    """An integer of another kind, by `__index__`."""

    def __init__(self, v):
        self.v = v

    def __index__(self):
        return self.v


class _InstanceArray:
    """`__array_interface__` set on the instance, not the class."""

    def __init__(self):
        self.__array_interface__ = {"shape": (1,), "typestr": "<u1", "data": (0x5678, False), "version": 3}


@pytest.mark.parametrize(
    "make, expected",
    [
        (lambda: None, lambda o: 0),
        (lambda: 0xDEAD, lambda o: 0xDEAD),
        (lambda: bytearray(8), lambda o: ctypes.addressof(ctypes.c_char.from_buffer(o))),
        (lambda: np.zeros(4, np.float32), lambda o: o.ctypes.data),
        (lambda: array.array("i", [1, 2]), lambda o: o.buffer_info()[0]),
        (lambda: ctypes.c_int(5), lambda o: ctypes.addressof(o)),
        (lambda: (ctypes.c_float * 3)(), lambda o: ctypes.addressof(o)),
        (lambda: ctypes.c_void_p(0xBEEF), lambda o: 0xBEEF),
        (lambda: ctypes.c_char_p(b"text"), lambda o: ctypes.cast(o, ctypes.c_void_p).value),
        (lambda: ctypes.c_void_p(None), lambda o: 0),
        (lambda: ctypes.cast(ctypes.c_void_p(0xF00), ctypes.POINTER(ctypes.c_int)), lambda o: 0xF00),
        (lambda: CudaArrayLike(), lambda o: 0x1234),
        (lambda: Pointer(0x42), lambda o: 0x42),
        (lambda: np.int64(77), lambda o: 77),
        (lambda: _IntSubclass(0x99), lambda o: 0x99),  # ints of any class: the value
        (lambda: _Index(0x77), lambda o: 0x77),  # integers by `__index__`
        (lambda: _InstanceArray(), lambda o: 0x5678),  # an interface set on the instance
    ],
)
def test_pointer_like_objects(make, expected):
    obj = make()
    assert int(Pointer(obj)) == expected(obj)


def test_bytes_are_read_only_where_c_writes():
    # hipMemcpy's dst is written: a bytes object must not be silently written into.
    with pytest.raises(TypeError, match="read-only"):
        hip.hipMemcpy(b"immutable", bytearray(9), 9, hip.hipMemcpyKind.hipMemcpyHostToHost)


def test_non_contiguous_array_is_refused():
    with pytest.raises((ValueError, TypeError, BufferError)):
        hip.hipMemcpy(np.zeros((4, 4))[:, 1], bytearray(32), 32, hip.hipMemcpyKind.hipMemcpyHostToHost)


def test_fortran_ordered_array_passes_as_its_bytes():
    # As in hip-python: a Fortran-ordered array is contiguous memory (what hipBLAS wants).
    src = np.asfortranarray(np.arange(12, dtype=np.float32).reshape(3, 4))
    dst = np.zeros((3, 4), np.float32, order="F")
    assert Pointer(src).__int__() == src.ctypes.data
    hip.hipMemcpy(dst, src, src.nbytes, hip.hipMemcpyKind.hipMemcpyHostToHost)
    assert int(Pointer(dst)) == dst.ctypes.data


class _ArraySub(np.ndarray):
    """An ndarray subclass: always converted through the buffer protocol (only exact ndarrays
    are read from NumPy's own fields)."""


def _read_only(a):
    a.flags.writeable = False
    return a


def _outcome(obj, writable):
    """What a pointer argument makes of `obj`: its address (read) or acceptance (written, as
    hipMemcpy's dst), else the exception's class and message (a subclass named as ndarray)."""
    try:
        if writable:
            hip.hipMemcpy(obj, b"", 0, hip.hipMemcpyKind.hipMemcpyHostToHost)
            return "accepted"
        return int(Pointer(obj))
    except Exception as e:  # noqa: BLE001 - the outcome compared is the exception itself
        return type(e), str(e).replace(_ArraySub.__name__, "ndarray")


@pytest.mark.parametrize(
    "make",
    [
        lambda: np.zeros(4, np.float32),
        lambda: np.zeros((3, 4), np.float64, order="F"),
        lambda: np.zeros((4, 4))[1],  # a contiguous row of a larger array
        lambda: np.zeros((4, 4))[:, 1],  # not one piece
        lambda: np.zeros((4, 4))[::2],
        lambda: np.broadcast_to(np.zeros(1), (4,)),  # read-only, stride 0
        lambda: _read_only(np.zeros(4)),
        lambda: np.array(7, np.int64),  # 0-d
        lambda: np.zeros(0, np.uint8),
        lambda: np.array([object()], dtype=object),
        lambda: np.zeros(3, "datetime64[s]"),
        lambda: np.zeros(2, [("a", "i4"), ("b", "f8")]),
        lambda: np.zeros(8, np.uint8)[1:].view(np.uint8),
    ],
)
@pytest.mark.parametrize("writable", [False, True])
def test_ndarrays_convert_as_the_buffer_protocol_exports_them(make, writable):
    # Exact ndarrays are read from NumPy's fields once an export has shown that they agree:
    # every kind of array must come out as its buffer export does (a subclass view of the
    # same memory, which always exports).
    Pointer(np.zeros(1))
    a = make()
    assert _outcome(a, writable) == _outcome(a.view(_ArraySub), writable)


def test_wrong_types():
    with pytest.raises(TypeError):
        hip.hipGetErrorString("hipErrorNoDevice")
    with pytest.raises(TypeError):
        hip.hipSetDevice("0")
    # A float is a C integer as in hip-python (truncated: tests/idioms.py); None is not.
    with pytest.raises(TypeError):
        hip.hipMalloc(None)
    with pytest.raises(TypeError):
        hip.hipStreamSynchronize(object())
    with pytest.raises(TypeError, match="pointer-like"):
        hip.hipFree("not a pointer")


def test_enum_of_another_class_is_refused():
    with pytest.raises(TypeError, match="hipError_t"):
        hip.hipGetErrorName(hip.hipMemcpyKind.hipMemcpyHostToDevice)


def test_refused_enum_arguments_name_the_enum_and_the_type():
    # Messages are kept per enum and type: each refusal must still name its own pair.
    for _ in range(2):
        for call, enum in (
            (hip.hipGetErrorName, "hipError_t"),
            (lambda v: hip.hipMemcpy(None, None, 0, v), "hipMemcpyKind"),
        ):
            for value, type_name in (("x", "str"), (object(), "object"), (b"y", "bytes"), ([], "list")):
                expected = f"expected a member of {enum} or an int, got {type_name}$"
                with pytest.raises(TypeError, match=expected):
                    call(value)


def test_negative_and_out_of_range_ints():
    with pytest.raises(OverflowError):
        hip.hipMalloc(-1)
    with pytest.raises(OverflowError):
        hip.hipSetDevice(2**40)
    with pytest.raises(OverflowError):
        hip.hipFree(-5)
    with pytest.raises(OverflowError):
        hip.hipGetErrorName(2**40)


def test_integer_range_edges():
    # Plain ints take a fast path; its edges must agree with the general one: the C type's
    # whole range passes, one past either end is an OverflowError, subclasses still convert.
    u32_max = 2**32 - 1
    assert isinstance(hip.hipStreamCreateWithFlags(u32_max)[0], hip.hipError_t)
    for bad in (2**32, -1, 2**63, 2**64, -(2**63) - 1):
        with pytest.raises(OverflowError):
            hip.hipStreamCreateWithFlags(bad)
    for fine in (2**31 - 1, -(2**31), True, np.int32(3)):
        assert isinstance(hip.hipSetDevice(fine)[0], hip.hipError_t)
    for bad in (2**31, -(2**31) - 1):
        with pytest.raises(OverflowError):
            hip.hipSetDevice(bad)


def test_pointer_int_edges():
    # An address as a plain int: the whole 64-bit range, nothing negative or wider.
    for addr in (0, 1, 2**63, 2**64 - 1):
        assert int(hip.hipStream_t(addr)) == addr
    with pytest.raises(OverflowError, match="negative"):
        hip.hipStream_t(-1)
    with pytest.raises(OverflowError):
        hip.hipStream_t(2**64)
    with pytest.raises(OverflowError, match="negative"):
        hip.hipFree(-(2**70))


def test_negative_buffer_length():
    with pytest.raises(ValueError, match="negative"):
        hip.hipDeviceGetName(-1, 0)


def test_out_string_buffer():
    status, name = hip.hipDeviceGetName(64, 0)
    assert status != hip.hipError_t.hipSuccess and name == b""


def test_wrong_argument_count():
    with pytest.raises(TypeError):
        hip.hipGetDeviceCount(1)
    with pytest.raises(TypeError):
        hip.hipMalloc()


def test_device_array_interface():
    dev = DeviceArray(CudaArrayLike())
    cai = dev.__cuda_array_interface__
    assert cai["data"] == (0x1234, False) and cai["shape"] == (4,) and cai["typestr"] == "<f4"
    assert dev.configure(shape=(2,), typestr="<f8") is dev
    assert dev.shape == (2,) and dev.itemsize == 8
    with pytest.raises(ValueError):
        dev.configure(shape=(100,))


@pytest.mark.parametrize(
    "name, typestr",
    [("float32", "<f4"), ("f4", "<f4"), ("=f8", "<f8"), ("uint8", "|u1"), ("int64", "<i8"), (">i2", ">i2")],
)
def test_device_array_takes_numpy_type_names(name, typestr):
    dev = DeviceArray(CudaArrayLike())
    dev.configure(typestr=name, shape=(1,), _force=True)
    assert dev.__cuda_array_interface__["typestr"] == typestr


def test_device_array_refuses_unknown_type_names():
    with pytest.raises(ValueError, match="typestr"):
        DeviceArray(CudaArrayLike()).configure(typestr="floaty")


def test_kernel_args_are_packed_with_c_alignment():
    packed = pack_kernel_args((ctypes.c_char(b"a"), ctypes.c_double(2.5), Pointer(0x10), ctypes.c_int(7)))
    expected = b"a" + b"\0" * 7 + struct.pack("<d", 2.5) + struct.pack("<Q", 0x10) + struct.pack("<i", 7)
    assert packed == expected


def test_kernel_args_refuse_plain_python_numbers():
    with pytest.raises(TypeError, match="ctypes"):
        pack_kernel_args((3,))


def test_launch_with_extra_reaches_the_runtime():
    (status,) = hip.hipModuleLaunchKernel(
        None, 1, 1, 1, 1, 1, 1, 0, None, None, (ctypes.c_int(1), ctypes.c_float(2.0))
    )
    assert status != hip.hipError_t.hipSuccess


def test_dim3_by_value():
    # hipLaunchKernel takes dim3 by value; without a GPU the runtime answers with an error.
    (status,) = hip.hipLaunchKernel(None, hip.dim3(1), hip.dim3(64), None, 0, None)
    assert isinstance(status, hip.hipError_t) and status != hip.hipError_t.hipSuccess
    with pytest.raises(TypeError):
        hip.hipLaunchKernel(None, None, hip.dim3(64), None, 0, None)


def test_list_adapters_build_c_arrays():
    from hip._util.types import ListOfBytes, ListOfInt, ListOfPointer, ListOfUnsigned

    ints = ListOfInt([1, -2, 3])
    assert struct.unpack("<3i", ctypes.string_at(int(ints), 12)) == (1, -2, 3)
    assert struct.unpack("<2I", ctypes.string_at(int(ListOfUnsigned([7, 8])), 8)) == (7, 8)
    buf = bytearray(4)
    ptrs = ListOfPointer([buf, None, 0x10])
    assert struct.unpack("<3Q", ctypes.string_at(int(ptrs), 24)) == (int(Pointer(buf)), 0, 0x10)
    names = ListOfBytes(["a", b"bc"])
    first, second = struct.unpack("<2Q", ctypes.string_at(int(names), 16))
    assert ctypes.string_at(first) == b"a" and ctypes.string_at(second) == b"bc"
    assert int(ListOfInt(0x20)) == 0x20


def test_list_adapter_as_argument():
    from hip import hiprtc
    from hip._util.types import ListOfBytes

    status, prog = hiprtc.hiprtcCreateProgram(b"__global__ void k() {}", b"k.hip", 0, None, None)
    opts = ListOfBytes([b"--offload-arch=gfx90a"])
    assert hiprtc.hiprtcCompileProgram(prog, 1, opts) == (hiprtc.hiprtcResult.HIPRTC_SUCCESS,)
    hiprtc.hiprtcDestroyProgram(prog)


def test_an_enum_class_stands_for_hips_once_registered():
    # A package's own enum class (the cuda package's `cudaError_t`) is taken where HIP's is
    # once it registers so; an attribute naming HIP's class is not enough.
    import enum

    from hip import _native

    class Status(enum.IntEnum):
        INVALID_VALUE = 1

    Status.__hip_enum__ = hip.hipError_t
    with pytest.raises(TypeError):
        hip.hipGetErrorString(Status.INVALID_VALUE)
    _native.register_enum_stand_in(Status, hip.hipError_t)
    assert hip.hipGetErrorString(Status.INVALID_VALUE) == hip.hipGetErrorString(hip.hipError_t(1))
