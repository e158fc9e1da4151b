"""The compiled CUDA adapters (`generator/src/backends/cuda_adapters`, in the hip extension): every
adapter of the plan is one, with cuda-python's parameters, the runtime's results here, and
kernel arguments packed as a kernel reads them."""

import ctypes
import decimal
import inspect
import keyword
import os
import pathlib
import subprocess
import sys

import numpy as np
import pytest
from cuda import _conventions, _plan
from cuda.bindings import driver, runtime

from hip import _native as hip_native
from hip import hip
from hip._util.types import Pointer

NATIVE = set(hip_native.cuda_adapters())
HERE = pathlib.Path(__file__).parent

# Adapters a program calls all the time: these must never fall back to Python.
HOT = ("cuDeviceGet", "cuCtxGetDevice", "cuLaunchKernel", "cudaLaunchKernel", "cudaMalloc", "cuMemAlloc")


def _entries(version):
    tables = _plan._Tables(version)
    return [e for e in tables.adapted.values() if (version, e["cuda"]) in NATIVE]


@pytest.mark.parametrize("version", ["12", "13"])
def test_native_adapters_cover_the_common_shapes(version):
    names = {n for v, n in NATIVE if v == version}
    assert len(names) >= 50
    for name in HOT:
        assert name in names, name
    # Every shape is compiled: direct C calls, arguments in CUDA's struct layout, locations.
    tables = _plan._Tables(version)
    for shape in ("direct", "record", "location"):
        entries = {
            n for n, e in tables.adapted.items() if e.get(shape) or any(p.get(shape) for p in e["params"])
        }
        assert entries <= names, shape
        # cuda-bindings 12 takes a device where 13 takes a location.
        assert entries or (shape, version) == ("location", "12"), shape


@pytest.mark.parametrize("version", ["12", "13"])
def test_every_adapter_is_compiled_with_cudas_parameters(version):
    tables = _plan._Tables(version)
    assert {n for v, n in NATIVE if v == version} == set(tables.adapted)
    for entry in _entries(version):
        native = hip_native.cuda_adapter(version, entry["module"], entry["cuda"])
        assert native.__name__ == entry["cuda"]
        assert native.__module__ == f"cuda.bindings.{entry['module']}"
        names = [p["name"] + "_" if keyword.iskeyword(p["name"]) else p["name"] for p in entry["params"]]
        assert list(inspect.signature(native).parameters) == names, entry["cuda"]


def test_module_functions_are_the_native_adapters():
    for module, name in ((driver, "cuDeviceGet"), (driver, "cuLaunchKernel"), (runtime, "cudaMalloc")):
        fn = getattr(module, name)
        assert type(fn).__name__ == "builtin_function_or_method", name
        assert _conventions.hip_function(fn) is not None
    assert _conventions.hip_function(driver.cuDeviceGet) is hip.hipDeviceGet
    assert _conventions.hip_function(len) is None


def _adapter(name):
    entry = _plan.tables().adapted[name]
    return getattr(driver if entry["module"] == "driver" else runtime, name)


@pytest.mark.parametrize(
    "name, args",
    [
        ("cuDeviceGet", (0,)),
        ("cuDeviceGet", (3,)),
        ("cuCtxGetDevice", ()),
        ("cudaMalloc", (64,)),
        ("cuMemAlloc", (64,)),
        ("cudaMallocHost", (64,)),
        ("cuMemAllocHost", (64,)),
        ("cuCtxCreate", (None, 0, 0)),
        ("cuCtxCreate", (None, 0, None)),  # a CUdevice given as None is device 0, as in cuda-python
        ("cuCtxCreate", (object(), 0, 0)),  # a CUDA-only input HIP cannot take: not supported
        ("cuDeviceGetByPCIBusId", (b"0000:00:00.0",)),
        ("cudaPointerGetAttributes", (0,)),  # a struct made, in CUDA's layout (reshaped)
        ("cudaMalloc3D", (runtime.cudaExtent(),)),  # a struct made as CUDA's class over HIP's
    ],
)
def test_adapters_return_the_runtimes_failure(name, args):
    got = _adapter(name)(*args)
    assert type(got) is tuple and len(got) == 1 + len(_plan.tables().adapted[name]["results"])
    assert int(got[0]) != 0  # no GPU here: the runtime's failure, with None for each output
    assert all(x is None for x in got[1:])


@pytest.mark.parametrize(
    "name, args",
    [("cuDeviceGet", ("0",)), ("cudaMalloc", ("64",)), ("cuDeviceGet", (0, 1)), ("cuDeviceGet", ())],
)
def test_adapters_refuse_wrong_arguments(name, args):
    with pytest.raises(TypeError):
        _adapter(name)(*args)


def check_made_structs(version):
    """Calls each native adapter that makes a struct with wrong arguments: the struct's class
    is checked before the arguments are converted, so a wrong argument must be refused for
    itself, never for the struct's class (which would be written with HIP's layout)."""
    made = [e for e in _entries(version) if any(a["from"] == "new" for a in e["args"])]
    assert len(made) >= 30
    for entry in made:
        native = hip_native.cuda_adapter(version, entry["module"], entry["cuda"])
        args = [None if k in entry["dropped"] else object() for k in range(len(entry["params"]))]
        if all(a is None for a in args):
            continue
        with pytest.raises(TypeError) as e:
            native(*args)
        assert "is not a subclass" not in str(e.value), entry["cuda"]


@pytest.mark.parametrize("version", ["12", "13"])
def test_structs_made_natively_are_of_hips_layout(version):
    # A native adapter makes the struct HIP's function fills as CUDA's class where that class
    # is HIP's own as cuda-python presents it. One API version per process, as programs run.
    code = (
        f"import sys; sys.path.insert(0, {str(HERE)!r}); "
        f"import test_cuda_native as t; t.check_made_structs({version!r})"
    )
    env = dict(os.environ, **{_plan.API_VARIABLE: version})
    subprocess.run([sys.executable, "-c", code], env=env, check=True)


def test_keyword_arguments_use_cuda_names():
    native = _adapter("cuDeviceGet")
    assert native(ordinal=0)[0] == native(0)[0]
    with pytest.raises(TypeError):
        native(device=0)


class _Pair(ctypes.Structure):
    _fields_ = [("a", ctypes.c_int), ("b", ctypes.c_float)]


def _bits(value, ctype) -> int:
    """The 8 bytes a kernel reads for `value` of `ctype` (zero-extended past its size)."""
    box = value if isinstance(value, ctype) else ctype(value)
    data = ctypes.string_at(ctypes.addressof(box), min(ctypes.sizeof(ctype), 8))
    return int.from_bytes(data.ljust(8, b"\0"), "little")


def test_kernel_params_pack_as_a_kernel_reads_them():
    device_ptr = driver.CUdeviceptr(0x7000)
    member = driver.CUmemorytype.CU_MEMORYTYPE_DEVICE
    dim = hip.dim3(x=4, y=5, z=6)  # a struct with None: its own memory (getPtr), not a pointer
    cases = [
        (1, ctypes.c_int, _bits(1, ctypes.c_int)),
        (7, ctypes.c_uint, 7),
        (-3, ctypes.c_short, 0xFFFD),
        (-(2**31), ctypes.c_int, 0x80000000),  # the least a C int holds (test_cuda_int_ranges.py: past it)
        (1.5, ctypes.c_float, _bits(1.5, ctypes.c_float)),
        (2.25, ctypes.c_double, _bits(2.25, ctypes.c_double)),
        (3, ctypes.c_double, _bits(3.0, ctypes.c_double)),  # an int given for a double
        (0x1234, ctypes.c_void_p, 0x1234),
        (None, ctypes.c_void_p, 0),
        (0xDEAD0000, None, 0xDEAD0000),
        (Pointer(0x1000), None, 0x1000),
        (ctypes.c_int(7), ctypes.c_int, 7),
        (device_ptr, ctypes.c_void_p, device_ptr.getPtr()),  # its storage's address, as cuda-python
        (member, None, int(member)),
        (_Pair(3, 0.5), _Pair, _bits(_Pair(3, 0.5), _Pair)),
        (ctypes.c_double(6.5), ctypes.c_double, _bits(6.5, ctypes.c_double)),
        (dim, None, 4 | 5 << 32),
    ]
    values = tuple(c[0] for c in cases)
    types = tuple(c[1] for c in cases)
    native = hip_native._kernel_param_values((values, types))
    for i, ((value, ctype, want), got) in enumerate(zip(cases, native, strict=True)):
        size = ctypes.sizeof(ctype) if ctype is not None and ctype is not _Pair else 8
        mask = (1 << (8 * min(size, 8))) - 1
        assert got & mask == want & mask, (i, value, ctype)


def test_kernel_params_pack_cuda_integer_objects_as_their_cells_hold_them():
    # A CUDA integer object with type None is what its getPtr() cell holds: its value.
    values = (driver.CUdeviceptr(0x9000), driver.CUdevice(-1), driver.CUdeviceptr((1 << 64) - 1))
    native = hip_native._kernel_param_values((values, (None,) * 3))
    assert native == [0x9000, (1 << 64) - 1, (1 << 64) - 1]
    # Enum members take the rule for enums: a C int.
    member = driver.CUmemorytype.CU_MEMORYTYPE_DEVICE
    packed = hip_native._kernel_param_values(((member,), (None,)))
    assert packed[0] & 0xFFFFFFFF == int(member)


def test_kernel_params_as_cuda_pythons_struct_test_gives_them():
    # cuda-python's test_kernelParams_types_cuda: an enum member, an address, CUDA's integer
    # object and one over host memory, a struct and one over host memory.
    surface_cell = ctypes.c_uint64(0)
    dim_cell = (ctypes.c_uint32 * 3)()
    values = (
        runtime.cudaError_t.cudaErrorUnknown,
        0x5000,
        runtime.cudaSurfaceObject_t(248),
        runtime.cudaSurfaceObject_t(_ptr=ctypes.addressof(surface_cell)),
        runtime.dim3(x=1, y=2, z=3),
        runtime.dim3(_ptr=ctypes.addressof(dim_cell)),
    )
    types = (None, ctypes.c_void_p, None, ctypes.c_void_p, None, ctypes.c_void_p)
    got = hip_native._kernel_param_values((values, types))
    assert got[0] & 0xFFFFFFFF == int(runtime.cudaError_t.cudaErrorUnknown)
    assert got[1] == 0x5000
    assert got[2] == 248
    assert got[3] == ctypes.addressof(surface_cell)  # the kernel writes through it
    assert got[4] == 1 | 2 << 32  # the struct's bytes, read where it lives
    assert got[5] == ctypes.addressof(dim_cell)


def test_kernel_params_rare_ctypes_forms():
    # Types the slots do not hold are made as ctypes makes them and read from there.
    values = (True, b"A", ctypes.c_int(-2), np.int16(-5), np.float32(0.5))
    types = (ctypes.c_bool, ctypes.c_char, ctypes.c_long, ctypes.c_short, ctypes.c_double)
    got = hip_native._kernel_param_values((values, types))
    assert got[0] & 0xFF == 1
    assert got[1] & 0xFF == ord("A")
    assert got[2] == (1 << 64) - 2  # a c_int's value given for a c_long
    assert got[3] & 0xFFFF == 0xFFFB
    assert got[4] == _bits(0.5, ctypes.c_double)
    # A ctypes pointer given for void *: the address it holds; an object with __int__
    # (our handles) with None: its value.
    buf = ctypes.create_string_buffer(8)
    ptr = ctypes.cast(buf, ctypes.c_void_p)
    got = hip_native._kernel_param_values(((ptr, Pointer(0x40)), (ctypes.c_void_p, None)))
    assert got == [ctypes.addressof(buf), 0x40]


def test_kernel_params_other_forms():
    assert hip_native._kernel_param_values(None) == []
    assert hip_native._kernel_param_values(((), ())) == []
    with pytest.raises(TypeError, match="differ in length"):
        hip_native._kernel_param_values(((1, 2), (ctypes.c_int,)))
    with pytest.raises(TypeError, match="with type None must have getPtr"):
        hip_native._kernel_param_values(((object(),), (None,)))
    with pytest.raises(TypeError, match="unsupported type"):
        hip_native._kernel_param_values(((1,), ("int",)))
    with pytest.raises(TypeError, match="unsupported type"):
        hip_native._kernel_param_values(((1,), (int,)))
    # A number that is no integer is no address, though it has __int__.
    for number in (np.float32(2.7), decimal.Decimal("3.9"), 4096.0):
        with pytest.raises(TypeError):
            hip_native._kernel_param_values(((number,), (None,)))
        with pytest.raises(TypeError):
            hip_native._kernel_param_values(((number,), (ctypes.c_void_p,)))


def test_launch_converts_kernel_params_before_the_runtime_answers():
    # Without a GPU the launch fails in the runtime; the arguments convert first, so a bad
    # form is a TypeError, and good forms reach the runtime (its status, not an exception).
    with pytest.raises(TypeError):
        driver.cuLaunchKernel(0, 1, 1, 1, 1, 1, 1, 0, 0, ((object(),), (None,)), 0)
    for params in (None, 0, ((1, 2.0), (ctypes.c_int, ctypes.c_float))):
        (status,) = driver.cuLaunchKernel(0, 1, 1, 1, 1, 1, 1, 0, 0, params, 0)
        assert int(status) != 0
