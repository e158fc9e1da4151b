"""hip.core against the real runtime here: hiprtc compiles through Program; device calls go as
far as the runtime's answer (no GPU here: hipErrorNoDevice as a HipError); DLPack capsules
are checked with NumPy as the other side."""

import ctypes
import gc

import numpy as np
import pytest

from hip import hip
from hip.core import (
    CompileError,
    Device,
    DeviceArray,
    HipError,
    Kernel,
    LaunchConfig,
    Program,
    _dlpack,
    _launch,
    _mangled,
    launch,
)

SAXPY = """
template <typename T> __global__ void saxpy(T a, const T* x, T* y, size_t n) {
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}"""


QUUX = [ctypes.c_uint16, ctypes.c_uint32, ctypes.c_int64, ctypes.c_int64, ctypes.c_bool, ctypes.c_double]


def gpu_count() -> int:
    err, count = hip.hipGetDeviceCount()
    return count if int(err) == 0 else 0


@pytest.mark.parametrize(
    "mangled, types",
    [
        ("_Z5saxpyfPKfPfi", [ctypes.c_float, "pointer", "pointer", ctypes.c_int32]),
        ("_Z5saxpyIfEvT_PKS0_PS0_m", [ctypes.c_float, "pointer", "pointer", ctypes.c_uint64]),
        ("_Z3addIdEvPT_S1_S1_y", ["pointer"] * 3 + [ctypes.c_uint64]),
        ("_Z1fPfS_", ["pointer", "pointer"]),
        ("_Z1gv", []),
        ("_Z4quuxcahstjlxbd", [ctypes.c_char, ctypes.c_int8, ctypes.c_uint8, ctypes.c_int16] + QUUX),
    ],
)
def test_parameter_types_from_mangled_names(mangled, types):
    assert _mangled.parameter_types(mangled) == types


@pytest.mark.parametrize("bad", ["saxpy", "_ZN2ns1kEv", "_Z1kR3Foo", "_Z1kS_"])
def test_unreadable_names_are_value_errors(bad):
    with pytest.raises(ValueError):
        _mangled.parameter_types(bad)


def test_program_compiles_with_hiprtc_and_lowers_names():
    code = Program(SAXPY, arch="gfx90a").compile(name_expressions=["saxpy<float>", "saxpy<double>"])
    assert code.code[:4] == b"\x7fELF"
    lowered = code.lowered_names
    assert _mangled.parameter_types(lowered["saxpy<float>"])[0] is ctypes.c_float
    assert _mangled.parameter_types(lowered["saxpy<double>"])[0] is ctypes.c_double


def test_compile_errors_carry_the_log():
    with pytest.raises(CompileError) as raised:
        Program("__global__ void broken( { }", arch="gfx90a").compile()
    assert "error" in raised.value.log and int(raised.value.status) != 0


@pytest.mark.skipif(gpu_count() > 0, reason="a GPU is present")
def test_device_calls_raise_the_runtimes_status():
    with pytest.raises(HipError) as raised:
        Device()
    assert raised.value.status == hip.hipError_t.hipErrorNoDevice
    assert "hipGetDeviceCount" in str(raised.value)
    with pytest.raises(HipError):
        DeviceArray((4,), np.float32)
    with pytest.raises(HipError):
        Program(SAXPY).compile()  # the default target is the current device's


def test_launch_config_and_argument_packing():
    assert LaunchConfig(grid=4, block=(16, 8)).block == (16, 8, 1)
    with pytest.raises(ValueError):
        LaunchConfig(grid=0)
    kernel = Kernel(None, "saxpy", _mangled.parameter_types("_Z5saxpyIfEvT_PKS0_PS0_m"))

    class Device1D:
        __cuda_array_interface__ = {"data": (0x1000, False), "shape": (4,), "typestr": "<f4", "version": 3}

    a, x, y, n = _launch.pack(kernel, (np.float32(2.5), Device1D(), 0x2000, 7))
    assert (type(a), a.value, x.value, y.value, n.value) == (ctypes.c_float, 2.5, 0x1000, 0x2000, 7)
    with pytest.raises(TypeError, match="takes 4 arguments"):
        _launch.pack(kernel, (1.0,))
    with pytest.raises(OverflowError, match="argument 3"):
        _launch.pack(kernel, (1.0, 0, 0, -1))
    with pytest.raises(TypeError, match="argument 0"):
        _launch.pack(kernel, ("x", 0, 0, 1))
    # An extern "C" kernel: ctypes and NumPy scalars say their type; a bare int does not.
    untyped = Kernel(None, "scale", None)
    values = _launch.pack(untyped, (Device1D(), ctypes.c_float(2.0), np.int32(5)))
    assert [v.value for v in values] == [0x1000, 2.0, 5]
    with pytest.raises(TypeError, match="not known"):
        _launch.pack(untyped, (Device1D(), 2.0))


def test_launch_reaches_the_runtime():
    kernel = Kernel(None, "k", ["pointer", ctypes.c_int32])
    with pytest.raises(HipError) as raised:
        launch(kernel, LaunchConfig(1, 1), 0, 1)
    assert raised.value.call == "hipModuleLaunchKernel"


class HostTensor:
    """A host array exported through hip.core's DLPack producer (device type CPU)."""

    def __init__(self, arr):
        self.arr = arr

    def __dlpack_device__(self):
        return (_dlpack.CPU, 0)

    def __dlpack__(self, stream=None, **kwargs):
        return _dlpack.to_capsule(
            self.arr.ctypes.data, self.arr.shape, self.arr.dtype, (_dlpack.CPU, 0), self
        )


def test_dlpack_export_is_read_by_numpy_without_a_copy():
    host = np.arange(12, dtype=np.float32).reshape(3, 4)
    before = len(_dlpack._LIVE)
    view = np.from_dlpack(HostTensor(host))
    assert view.ctypes.data == host.ctypes.data and view.shape == (3, 4) and view.dtype == np.float32
    assert (view == host).all()
    assert len(_dlpack._LIVE) == before + 1  # kept until the consumer lets go
    del view
    gc.collect()
    assert len(_dlpack._LIVE) == before
    capsule = HostTensor(host).__dlpack__()
    del capsule  # never consumed: the capsule releases it
    assert len(_dlpack._LIVE) == before


def test_a_freed_array_gives_no_address():
    from hip.core import Device, DeviceArray

    host = np.arange(4, dtype=np.float32)
    arr = DeviceArray._view(host.ctypes.data, host.shape, host.dtype, Device.__new__(Device), host)
    assert arr.ptr == host.ctypes.data
    arr.free()
    with pytest.raises(ValueError, match="freed"):
        _ = arr.ptr
    with pytest.raises(ValueError, match="freed"):
        _ = arr.__cuda_array_interface__
    assert "freed" in repr(arr)


def test_dlpack_import_reads_shape_type_and_releases():
    producer = np.arange(6, dtype=np.int16).reshape(2, 3)
    imported = _dlpack.Imported(producer.__dlpack__())
    assert imported.shape == (2, 3) and imported.dtype == np.int16 and imported.device == (_dlpack.CPU, 0)
    assert imported.data == producer.ctypes.data
    imported.release()
    with pytest.raises(BufferError, match="device type 1"):
        DeviceArray.from_dlpack(producer)  # host memory is not this GPU's
