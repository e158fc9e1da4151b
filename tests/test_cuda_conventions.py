"""cuda-python's calling conventions on the HIP runtime (without a GPU it answers
hipErrorNoDevice / hipErrorInvalidDevice, which is enough to see each convention at work:
who takes which argument, what comes back, in which order and of which type)."""

import ctypes
import inspect
import json
import os
import subprocess
import sys

import pytest

cuda = pytest.importorskip("cuda.bindings.driver")
from cuda import _conventions  # noqa: E402
from cuda.bindings import nvrtc  # noqa: E402
from cuda.bindings import runtime as cudart  # noqa: E402

from hip import hip  # noqa: E402


def params(fn):
    return list(inspect.signature(fn).parameters)


SIGNATURE = (
    "import inspect; from cuda.bindings import driver as d; print(list(inspect.signature(d.{}).parameters))"
)


def in_api(version, code):
    """Runs `code` in a fresh interpreter with HIP_PYTHON_CUDA_API=version; its stdout."""
    env = dict(os.environ, HIP_PYTHON_CUDA_API=version)
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    return out.stdout.strip()


def test_same_convention_is_the_hip_object():
    assert cudart.cudaMalloc is hip.hipMalloc
    assert cuda.cuStreamSynchronize is hip.hipStreamSynchronize


def test_struct_output_is_returned():
    # cuda-python: err, prop = cudaGetDeviceProperties(device); HIP takes the struct from the caller.
    assert params(cudart.cudaGetDeviceProperties) == ["device"]
    assert params(hip.hipGetDeviceProperties) == ["prop", "deviceId"]


def test_hip_parameter_cuda_lacks_is_zero():
    # cudaMallocHost(size) → hipHostMalloc(size, 0)
    assert params(cudart.cudaMallocHost) == ["size"]
    err, ptr = cudart.cudaMallocHost(64)
    want = hip.hipHostMalloc(64, 0)[0]
    assert err == want
    if err != 0:
        assert ptr is None  # cuda-python returns None outputs with an error status


def test_api_13_is_default_and_12_selectable():
    assert _conventions.api_version() == "13"
    assert params(cuda.cuCtxCreate) == ["ctxCreateParams", "flags", "dev"]
    code = SIGNATURE.format("cuCtxCreate")
    assert len(eval(in_api("12", code))) == 2  # HIP's own names: no adapter for names alone
    # cuMemAdvise: a CUdevice in 12, a CUmemLocation in 13.
    code = SIGNATURE.format("cuMemAdvise")
    assert in_api("12", code).endswith("'device']")
    assert in_api("13", code).endswith("'location']")


def test_bad_api_version_is_a_value_error():
    env = dict(os.environ, HIP_PYTHON_CUDA_API="11")
    out = subprocess.run(
        [sys.executable, "-c", "from cuda.bindings import driver as d; d.cuCtxCreate"],
        env=env,
        capture_output=True,
        text=True,
    )
    assert out.returncode != 0
    assert "HIP_PYTHON_CUDA_API='11'" in out.stderr and "ValueError" in out.stderr


def test_input_hip_lacks_accepts_only_null():
    # CUDA 13's ctxCreateParams has no HIP counterpart: None passes through, anything else is
    # refused with CUDA_ERROR_NOT_SUPPORTED before HIP is called.
    err, ctx = cuda.cuCtxCreate(None, 0, 0)
    assert err == hip.hipCtxCreate(0, 0)[0]
    err, ctx = cuda.cuCtxCreate(5, 0, 0)
    assert err == cuda.CUresult.CUDA_ERROR_NOT_SUPPORTED
    assert ctx is None


def test_keywords_use_cuda_names():
    err, ctx = cuda.cuCtxCreate(ctxCreateParams=None, flags=0, dev=0)
    assert isinstance(err, cuda.CUresult)
    with pytest.raises(TypeError):
        cuda.cuCtxCreate(None, 0, device=0)  # HIP's name, not CUDA's


def test_unsupported_function_returns_status():
    assert "cuDeviceGetLuid" in dir(cuda)
    result = cuda.cuDeviceGetLuid(0)
    assert result[0] == cuda.CUresult.CUDA_ERROR_NOT_SUPPORTED
    assert all(r is None for r in result[1:])
    assert "not supported" in cuda.cuDeviceGetLuid.__doc__


def test_integer_typedef_classes():
    d = cuda.CUdeviceptr(7)
    assert str(d) == "<CUdeviceptr 7>" and int(d) == 7
    assert int(cuda.CUdeviceptr(2**64 - 1)) == 2**64 - 1
    assert str(cuda.cuuint32_t(7)) == "<cuuint32_t 7>"
    with pytest.raises(OverflowError):
        cuda.cuuint32_t(2**64 - 1)
    with pytest.raises(OverflowError):
        cuda.CUdeviceptr(-1)
    # getPtr(): the address of a C value holding it
    v = cuda.cuuint64_t(0x1234)
    assert ctypes.c_uint64.from_address(v.getPtr()).value == 0x1234
    assert cuda.cuuint64_t(_ptr=v.getPtr()) == 0x1234
    assert str(cudart.cudaSurfaceObject_t(248)) == "<cudaSurfaceObject_t 248>"
    # HIP functions take them where they take integers and pointers
    assert isinstance(hip.hipFree(cuda.CUdeviceptr(0))[0], hip.hipError_t)


def test_outputs_of_typedef_type_are_wrapped():
    err, dev = cuda.cuDeviceGet(0)
    assert err == hip.hipDeviceGet(0)[0]
    if err == 0:
        assert type(dev).__name__ == "CUdevice"


def test_kernel_params_forms():
    dptr = cuda.CUdeviceptr(0xABC0)
    addr, keep = _conventions.kernel_params(
        (
            (1, 2.5, dptr, ctypes.c_float(1.5), 0xDEAD, cudart.cudaError_t.cudaErrorUnknown),
            (ctypes.c_int, ctypes.c_double, None, ctypes.c_float, ctypes.c_void_p, None),
        )
    )
    args = (ctypes.c_void_p * 6).from_address(addr)
    assert ctypes.c_int.from_address(args[0]).value == 1
    assert ctypes.c_double.from_address(args[1]).value == 2.5
    assert ctypes.c_uint64.from_address(args[2]).value == 0xABC0
    assert ctypes.c_float.from_address(args[3]).value == 1.5
    assert ctypes.c_void_p.from_address(args[4]).value == 0xDEAD
    assert ctypes.c_int.from_address(args[5]).value == int(cudart.cudaError_t.cudaErrorUnknown)
    assert keep
    assert _conventions.kernel_params(None) == (0, None)
    assert _conventions.kernel_params(1234) == (1234, None)
    with pytest.raises(TypeError, match="differ in length"):
        _conventions.kernel_params(((1, 2), (ctypes.c_int,)))
    with pytest.raises(TypeError, match="getPtr"):
        _conventions.kernel_params(((object(),), (None,)))


def test_launch_takes_cuda_forms():
    # No device here: HIP answers with a status for a null function; what matters is that the
    # forms convert and the call reaches HIP.
    for form in (None, 0, ((), ()), ((1,), (ctypes.c_int,))):
        result = cuda.cuLaunchKernel(0, 1, 1, 1, 1, 1, 1, 0, 0, form, 0)
        assert len(result) == 1 and isinstance(result[0], cuda.CUresult)
    assert params(cuda.cuLaunchKernel)[8:] == ["hStream", "kernelParams", "extra"]


def test_nvrtc_overrides_stay():
    assert nvrtc.nvrtcCompileProgram.__module__ == "cuda._nvrtc"


def test_tables_cover_both_versions():
    from cuda import _native

    assert set(_native.api_versions()) == {"12", "13"}
    t12 = json.loads(_native.conventions("12"))
    t13 = json.loads(_native.conventions("13"))
    assert t12["not_supported"]["CUresult"] == "CUDA_ERROR_NOT_SUPPORTED"
    names12 = {a["cuda"] for a in t12["adapted"]}
    assert {"cudaGetDeviceProperties", "cuLaunchKernel", "cuMemAlloc"} <= names12
    assert "cuCtxCreate_v4" in names12 | {s["cuda"] for s in t12["stubs"]}  # 12 names both
    assert "cuCtxCreate_v4" not in {a["cuda"] for a in t13["adapted"]} | {s["cuda"] for s in t13["stubs"]}


def test_cubin_is_the_code_object():
    src = b'extern "C" __global__ void k(int *x) { *x = 1; }'
    err, prog = nvrtc.nvrtcCreateProgram(src, b"k.cu", 0, None, None)
    assert err == nvrtc.nvrtcResult.NVRTC_SUCCESS
    (err,) = nvrtc.nvrtcCompileProgram(prog, 1, [b"--offload-arch=gfx90a"])
    assert err == nvrtc.nvrtcResult.NVRTC_SUCCESS
    err, size = nvrtc.nvrtcGetCUBINSize(prog)
    assert err == nvrtc.nvrtcResult.NVRTC_SUCCESS and size > 0
    cubin, ptx = b" " * size, b" " * size
    assert nvrtc.nvrtcGetCUBIN(prog, cubin)[0] == nvrtc.nvrtcResult.NVRTC_SUCCESS
    assert nvrtc.nvrtcGetPTX(prog, ptx)[0] == nvrtc.nvrtcResult.NVRTC_SUCCESS
    assert cubin == ptx and cubin[:4] == b"\x7fELF"
