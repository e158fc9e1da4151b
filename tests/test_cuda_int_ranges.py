"""Integers the `cuda` package converts are refused before C as the generated functions refuse
theirs: a string or other non-number is a TypeError, a value outside the C type's range an
OverflowError, both naming the argument or field; valid ints, enum members and NumPy's
integers pass. Without a GPU the runtime answers each call that gets through with an error
status, which is how a test tells "reached C" from "refused before"."""

import ctypes
import enum

import numpy as np
import pytest

driver = pytest.importorskip("cuda.bindings.driver")
from cuda import _native  # noqa: E402
from cuda.bindings import nvrtc, runtime  # noqa: E402

#: An attribute any device has (cuda-python takes the enum member).
ATTR = driver.CUdevice_attribute.CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK
POOL_ATTR = driver.CUmemPool_attribute.CU_MEMPOOL_ATTR_RELEASE_THRESHOLD
RANGE_ATTR = driver.CUmem_range_attribute.CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY
POINTER_ATTR = driver.CUpointer_attribute.CU_POINTER_ATTRIBUTE_CONTEXT


def launch(params, fn=None):
    """cuLaunchKernel of a null function with `params` (the module's, or `fn`)."""
    return (fn or driver.cuLaunchKernel)(0, 1, 1, 1, 1, 1, 1, 0, 0, params, 0)


def is_status(result):
    return isinstance(result, tuple) and int(result[0]) != 0  # no GPU: the runtime's error


REFUSED = [
    # Functions called as HIP's (generated conversions).
    ("cuDeviceGetAttribute", lambda: driver.cuDeviceGetAttribute(ATTR, -(2**70)), OverflowError, None),
    ("cuDeviceGet str", lambda: driver.cuDeviceGet("5"), TypeError, "ordinal"),
    ("cuDeviceGet 2**40", lambda: driver.cuDeviceGet(2**40), OverflowError, None),
    ("cudaSetDevice", lambda: runtime.cudaSetDevice(2**70), OverflowError, None),
    ("cudaSetDevice str", lambda: runtime.cudaSetDevice("5"), TypeError, None),
    # Direct C calls (compiled: generator/src/backends/cuda_adapters/direct.rs): scalars, counts,
    # lists, addresses.
    ("numOptions str", lambda: driver.cuModuleLoadDataEx(b"", "1", [], []), TypeError, "'numOptions'"),
    ("numOptions u32", lambda: driver.cuModuleLoadDataEx(b"", 2**32, [], []), OverflowError, "'numOptions'"),
    (
        "options[0] i32",
        lambda: driver.cuModuleLoadDataEx(b"", 1, [2**31], [0]),
        OverflowError,
        r"'options'\[0\]",
    ),
    ("image address", lambda: driver.cuModuleLoadDataEx(2**64, 0, [], []), OverflowError, "'image'"),
    ("image float", lambda: driver.cuModuleLoadDataEx(4096.0, 0, [], []), TypeError, "'image'"),
    ("numNodes str", lambda: driver.cuGraphGetNodes(driver.CUgraph(), "2"), TypeError, "'numNodes'"),
    ("numNodes -1", lambda: driver.cuGraphGetNodes(driver.CUgraph(), -1), OverflowError, "'numNodes'"),
    ("numNodes 2**64", lambda: driver.cuGraphGetNodes(driver.CUgraph(), 2**64), OverflowError, "'numNodes'"),
    ("count 2**70", lambda: driver.cuMemRangeGetAttribute(4, RANGE_ATTR, 0, 2**70), OverflowError, "'count'"),
    ("dataSize str", lambda: driver.cuMemRangeGetAttribute("4", RANGE_ATTR, 0, 8), TypeError, "'dataSize'"),
    ("ptr 2**64", lambda: driver.cuPointerGetAttributes(1, [POINTER_ATTR], 2**64), OverflowError, "'ptr'"),
    ("ptr -1", lambda: driver.cuPointerGetAttributes(1, [POINTER_ATTR], -1), OverflowError, "'ptr'"),
    (
        "attributes[0] str",
        lambda: driver.cuPointerGetAttributes(1, ["1"], 0),
        TypeError,
        r"'attributes'\[0\]",
    ),
    # Attribute values given by value.
    (
        "pool attribute value",
        lambda: driver.cuMemPoolSetAttribute(driver.CUmemoryPool(0), POOL_ATTR, 2**64),
        OverflowError,
        "attribute value",
    ),
    # Emulated and overridden functions.
    (
        "wOffsetDst str",
        lambda: runtime.cudaMemcpyArrayToArray(None, "1", 0, None, 0, 0, 8),
        TypeError,
        "'wOffsetDst'",
    ),
    (
        "count -1",
        lambda: runtime.cudaMemcpyArrayToArray(None, 0, 0, None, 0, 0, -1),
        OverflowError,
        "'count'",
    ),
    ("nvrtc numOptions", lambda: nvrtc.nvrtcCompileProgram(None, "1", []), TypeError, "'numOptions'"),
    (
        "nvrtc numOptions 2**31",
        lambda: nvrtc.nvrtcCompileProgram(None, 2**31, []),
        OverflowError,
        "'numOptions'",
    ),
    # Memory locations: cuda-python's location struct (or CUDA 12's device), nothing else.
    ("cuMemAdvise object", lambda: driver.cuMemAdvise(0, 0, 1, object()), TypeError, "'location'"),
    (
        "cuMemPrefetchAsync object",
        lambda: driver.cuMemPrefetchAsync(0, 0, object(), 0, None),
        TypeError,
        "'location'",
    ),
    ("cudaMemAdvise object", lambda: runtime.cudaMemAdvise(0, 0, 1, object()), TypeError, "'location'"),
    (
        "cudaMemPrefetchAsync object",
        lambda: runtime.cudaMemPrefetchAsync(0, 0, object(), 0, None),
        TypeError,
        "'location'",
    ),
    # cudaMemcpyArrayToArray's arrays and kind, converted before any HIP call.
    ("src object", lambda: runtime.cudaMemcpyArrayToArray(None, 0, 0, object(), 0, 0, 8), TypeError, "'src'"),
    (
        "src 2**1100",
        lambda: runtime.cudaMemcpyArrayToArray(None, 0, 0, 2**1100, 0, 0, 8),
        OverflowError,
        "'src'",
    ),
    ("dst object", lambda: runtime.cudaMemcpyArrayToArray(object(), 0, 0, None, 0, 0, 8), TypeError, "'dst'"),
    (
        "kind object",
        lambda: runtime.cudaMemcpyArrayToArray(None, 0, 0, None, 0, 0, 8, object()),
        TypeError,
        "'kind'",
    ),
    (
        "kind 2**1100",
        lambda: runtime.cudaMemcpyArrayToArray(None, 0, 0, None, 0, 0, 8, 2**1100),
        OverflowError,
        "'kind'",
    ),
    # Lists are lists or tuples: a handle object (`__getitem__` without end) never iterates.
    (
        "nvrtc options handle",
        lambda: nvrtc.nvrtcCompileProgram(None, 1, driver.CUstream(0)),
        TypeError,
        "'options'",
    ),
    ("nvrtc options object", lambda: nvrtc.nvrtcCompileProgram(None, 1, object()), TypeError, "'options'"),
    ("nvrtc options bytes", lambda: nvrtc.nvrtcCompileProgram(None, 1, b"-O3"), TypeError, "'options'"),
    (
        "options handle",
        lambda: driver.cuModuleLoadDataEx(b"", 1, driver.CUstream(0), [0]),
        TypeError,
        "'options'",
    ),
    (
        "attributes handle",
        lambda: driver.cuPointerGetAttributes(1, driver.CUstream(0), 0),
        TypeError,
        "'attributes'",
    ),
    (
        "array field handle",
        lambda: setattr(driver.CUDA_ARRAY_MEMORY_REQUIREMENTS(), "reserved", driver.CUstream(0)),
        TypeError,
        "'reserved'",
    ),
    # Kernel arguments, through the module's cuLaunchKernel (every form is packed natively:
    # runtime/src/convert/kernel_params.rs).
    ("kernel np c_int", lambda: launch(((np.int64(2**40),), (ctypes.c_int,))), OverflowError, "c_int"),
    ("kernel float ptr", lambda: launch(((4096.0,), (None,))), TypeError, "kernelParams"),
    ("kernel c_int", lambda: launch(((2**40,), (ctypes.c_int,))), OverflowError, "kernelParams"),
    # A C int's bits of either sign pass (`c_uint(-1)`, as ctypes makes it); wider ones do not.
    ("kernel c_uint 2**32", lambda: launch(((2**32,), (ctypes.c_uint,))), OverflowError, "kernelParams"),
    ("kernel c_short str", lambda: launch((("5",), (ctypes.c_short,))), TypeError, "c_short"),
    ("kernel ptr 2**70", lambda: launch(((2**70,), (None,))), OverflowError, "kernelParams"),
    ("kernel c_void_p -1", lambda: launch(((-1,), (ctypes.c_void_p,))), OverflowError, "kernelParams"),
    ("kernel array 2**64", lambda: launch(2**64), OverflowError, "kernelParams"),
]


@pytest.mark.parametrize("call, error, match", [r[1:] for r in REFUSED], ids=[r[0] for r in REFUSED])
def test_calls_refuse_before_c(call, error, match):
    with pytest.raises(error, match=match):
        call()


class Color(enum.IntEnum):
    RED = 0


@pytest.mark.parametrize(
    "call",
    [
        lambda: driver.cuDeviceGet(np.int32(0)),
        lambda: driver.cuDeviceGet(Color.RED),
        lambda: driver.cuDeviceGetAttribute(ATTR, np.int64(0)),
        lambda: runtime.cudaSetDevice(np.uint8(0)),
        lambda: driver.cuModuleLoadDataEx(b"\0" * 16, np.uint32(0), [], []),
        lambda: driver.cuModuleLoadDataEx(np.zeros(16, np.uint8), 0, [], []),  # a buffer, not its value
        lambda: driver.cuGraphGetNodes(driver.CUgraph(), np.int64(2)),
        lambda: driver.cuPointerGetAttributes(np.uint32(1), [POINTER_ATTR], np.uint64(0x1000)),
        lambda: driver.cuMemRangeGetAttribute(4, RANGE_ATTR, driver.CUdeviceptr(0x1000), np.uint64(8)),
        lambda: driver.cuMemPoolSetAttribute(driver.CUmemoryPool(0), POOL_ATTR, np.int64(5)),
        lambda: launch(
            ((np.int32(-(2**31)), Color.RED, 2**31 - 1), (ctypes.c_int, ctypes.c_int, ctypes.c_int))
        ),
        lambda: launch(((np.int32(-1), 2**32 - 1, 2**64 - 1), (ctypes.c_int, ctypes.c_uint, None))),
        lambda: launch(((driver.CUdeviceptr(0x1000), 0), (None, ctypes.c_void_p))),
    ],
)
def test_valid_integers_reach_the_runtime(call):
    assert is_status(call())


def test_cuda_integer_classes():
    assert int(driver.CUdevice(np.int64(3))) == 3
    assert int(driver.CUdevice(Color.RED)) == 0
    assert int(driver.CUdevice(5.7)) == 5  # cuda-python's Cython conversion truncates too
    assert int(driver.cuuint64_t(driver.CUdevice(3))) == 3
    with pytest.raises(TypeError, match="CUdevice"):
        driver.CUdevice("5")
    with pytest.raises(TypeError):
        driver.CUdevice(None)
    with pytest.raises(OverflowError, match="CUdevice"):
        driver.CUdevice(2**31)
    with pytest.raises(OverflowError):
        driver.cuuint32_t(2**32)
    with pytest.raises(OverflowError):
        driver.CUdeviceptr(-1)
    with pytest.raises(TypeError, match="_ptr"):
        driver.cuuint64_t(_ptr="4096")


def test_struct_fields_of_cudas_layout():
    p = driver.CUexecAffinityParam()
    with pytest.raises(TypeError, match="'val'"):
        p.param.smCount.val = "5"
    with pytest.raises(OverflowError, match="'val'"):
        p.param.smCount.val = 2**32
    with pytest.raises(OverflowError, match="'type'"):
        p.type = 2**40
    with pytest.raises(TypeError, match="'type'"):
        p.type = "0"
    p.param.smCount.val = np.uint32(7)
    assert p.param.smCount.val == 7
    p.type = driver.CUexecAffinityType.CU_EXEC_AFFINITY_TYPE_SM_COUNT
    assert p.type == driver.CUexecAffinityType.CU_EXEC_AFFINITY_TYPE_SM_COUNT
    # A pointer field: an address in 64 bits, no float.
    params = runtime.cudaMemcpy3DPeerParms()
    with pytest.raises(OverflowError):
        params.srcArray = 2**64
    with pytest.raises(TypeError):
        params.srcArray = 4096.0


def test_one_rule():
    assert _native.integer(True, 8, False) == 1 and type(_native.integer(Color.RED, 8, False)) is int
    assert _native.integer(np.uint64(2**64 - 1), 8, False) == 2**64 - 1
    assert _native.integer(7.9, 8, False) == 7
    assert _native.integer(-(2**31), 4, True) == -(2**31)
    with pytest.raises(OverflowError):
        _native.integer(2**31, 4, True)
    with pytest.raises(TypeError):
        _native.integer(7.9, 8, False, truncate=False)
    with pytest.raises(ValueError):
        _native.integer(float("nan"), 8, False)
    for bad in ("5", b"5", None, [5], object()):
        with pytest.raises(TypeError, match="'x'"):
            _native.integer(bad, 8, False, "argument 'x'")
    with pytest.raises(OverflowError, match=r"'x': 256 is out of range \[0, 255\]"):
        _native.integer(256, 1, False, "argument 'x'")
    with pytest.raises(OverflowError, match="'x'"):
        _native.integer(2**200, 8, False, "argument 'x'")
    assert _native.address(driver.CUdeviceptr(5)) == 5
    with pytest.raises(TypeError):
        _native.address(np.float64(5))
    with pytest.raises(OverflowError):
        _native.address(-1)


def test_compiled_launch_refuses_ints_that_do_not_fit():
    for args in (
        ((2**40,), (ctypes.c_int,)),
        ((-1,), (None,)),
        ((2**70,), (None,)),
        ((256,), (ctypes.c_uint8,)),
    ):
        with pytest.raises(OverflowError):
            launch(args)
