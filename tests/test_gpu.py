"""The GPU suite: real kernels, copies, streams and events on whatever GPU is present (AMD, or
NVIDIA, where the same wheel runs over CUDA). Skipped where no GPU is; run on the
device machines with `pytest -m gpu tests/test_gpu.py` (see docs/nvidia.md).
"""

import ctypes
import inspect
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import hip
from conftest import REPO
from hip import hip as h
from hip import hiprtc


def _gpus():
    try:
        err, count = h.hipGetDeviceCount()
    except RuntimeError:
        return 0
    return count if err == h.hipError_t.hipSuccess else 0


GPUS = _gpus()
pytestmark = [pytest.mark.gpu, pytest.mark.skipif(GPUS == 0, reason="no GPU here")]

SCALE = b"""
extern "C" __global__ void scale(float *x, float a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= a;
}
"""


def library(name):
    """Module `hip.<name>`, or a skip where this build has none (`build_pkgs.sh --libs`)."""
    if name not in hip._modules:
        pytest.skip(f"this build has no hip.{name} (build_pkgs.sh --libs)")
    return getattr(__import__("hip", fromlist=[name]), name)


def ok(result):
    status = result[0]
    assert int(status) == 0, result
    return result[1] if len(result) == 2 else result[1:]


def arch_option():
    """The current device's target, as hiprtc on this platform wants it."""
    props = h.hipDeviceProp_t()
    ok(h.hipGetDeviceProperties(props, 0))
    if hip.platform() == "nvidia":
        return f"--offload-arch=sm_{props.major}{props.minor}".encode()
    name = props.gcnArchName
    return b"--offload-arch=" + (name if isinstance(name, bytes) else str(name).encode()).split(b":")[0]


@pytest.fixture(scope="module")
def kernel():
    prog = ok(hiprtc.hiprtcCreateProgram(SCALE, b"scale.cu", 0, None, None))
    (status,) = hiprtc.hiprtcCompileProgram(prog, 1, [arch_option()])
    if int(status) != 0:
        size = ok(hiprtc.hiprtcGetProgramLogSize(prog))
        log = bytearray(size)
        hiprtc.hiprtcGetProgramLog(prog, log)
        pytest.fail(log.decode(errors="replace"))
    size = ok(hiprtc.hiprtcGetCodeSize(prog))
    code = bytearray(size)
    ok(hiprtc.hiprtcGetCode(prog, code))
    module = ok(h.hipModuleLoadData(bytes(code)))
    return ok(h.hipModuleGetFunction(module, b"scale"))


def test_device_properties_and_attributes():
    props = h.hipDeviceProp_t()
    ok(h.hipGetDeviceProperties(props, 0))
    assert props.multiProcessorCount > 0 and props.totalGlobalMem > 1 << 30
    sms = ok(h.hipDeviceGetAttribute(h.hipDeviceAttribute_t.hipDeviceAttributeMultiprocessorCount, 0))
    assert sms == props.multiProcessorCount
    name = props.name if isinstance(props.name, bytes) else str(props.name).encode()
    assert name.strip(b"\0")


def launch_and_check(kernel, launch):
    n = 1000
    host = np.arange(n, dtype=np.float32)
    dev = ok(h.hipMalloc(host.nbytes))
    ok(h.hipMemcpy(dev, host, host.nbytes, h.hipMemcpyKind.hipMemcpyHostToDevice))
    launch(dev, n)
    ok(h.hipDeviceSynchronize())
    out = np.zeros_like(host)
    ok(h.hipMemcpy(out, dev, host.nbytes, h.hipMemcpyKind.hipMemcpyDeviceToHost))
    ok(h.hipFree(dev))
    np.testing.assert_allclose(out, host * 3.0)


def test_launch_with_kernel_params(kernel):
    def launch(dev, n):
        ptr = ctypes.c_void_p(int(dev))
        a, count = ctypes.c_float(3.0), ctypes.c_int(n)
        params = (ctypes.c_void_p * 3)(ctypes.addressof(ptr), ctypes.addressof(a), ctypes.addressof(count))
        ok(h.hipModuleLaunchKernel(kernel, (n + 255) // 256, 1, 1, 256, 1, 1, 0, None, params, None))

    launch_and_check(kernel, launch)


def test_launch_with_extra(kernel):
    def launch(dev, n):
        extra = (dev, ctypes.c_float(3.0), ctypes.c_int(n))
        ok(h.hipModuleLaunchKernel(kernel, (n + 255) // 256, 1, 1, 256, 1, 1, 0, None, None, extra))

    launch_and_check(kernel, launch)


def test_streams_events_async_copies(kernel):
    n = 1 << 20
    host = np.random.rand(n).astype(np.float32)
    back = np.zeros_like(host)
    stream = ok(h.hipStreamCreate())
    start, stop = ok(h.hipEventCreate()), ok(h.hipEventCreate())
    dev = ok(h.hipMalloc(host.nbytes))
    ok(h.hipEventRecord(start, stream))
    ok(h.hipMemcpyAsync(dev, host, host.nbytes, h.hipMemcpyKind.hipMemcpyHostToDevice, stream))
    extra = (dev, ctypes.c_float(3.0), ctypes.c_int(n))
    ok(h.hipModuleLaunchKernel(kernel, n // 256, 1, 1, 256, 1, 1, 0, stream, None, extra))
    ok(h.hipMemcpyAsync(back, dev, host.nbytes, h.hipMemcpyKind.hipMemcpyDeviceToHost, stream))
    ok(h.hipEventRecord(stop, stream))
    ok(h.hipStreamSynchronize(stream))
    ms = ok(h.hipEventElapsedTime(start, stop))
    assert ms > 0
    np.testing.assert_allclose(back, host * 3.0, rtol=1e-6)
    for e in (start, stop):
        ok(h.hipEventDestroy(e))
    ok(h.hipStreamDestroy(stream))
    ok(h.hipFree(dev))


def test_graph_dependencies_added_removed_and_launched():
    """Edges between graph nodes (CUDA 13 takes edge data beside them: the CUDA 13 shim passes
    NULL, plain dependencies), then the graph runs; a destroyed graph is refused."""
    graph = ok(h.hipGraphCreate(0))
    a = ok(h.hipGraphAddEmptyNode(graph, None, 0))
    b = ok(h.hipGraphAddEmptyNode(graph, None, 0))
    ok(h.hipGraphAddDependencies(graph, [a], [b], 1))
    ok(h.hipGraphRemoveDependencies(graph, [a], [b], 1))
    # The edge is gone: removing it again is the runtime's error, not a crash. Where the
    # runtime keeps it as its last error (CUDA 13's runtime API does), other users of the same
    # runtime would see it (PyTorch checks it after its launches): taken back, as a program
    # mixing libraries does.
    assert h.hipGraphRemoveDependencies(graph, [a], [b], 1)[0] != h.hipError_t.hipSuccess
    h.hipGetLastError()
    assert h.hipGetLastError()[0] == h.hipError_t.hipSuccess
    ok(h.hipGraphAddDependencies(graph, [a], [b], 1))
    graph_exec = ok(h.hipGraphInstantiateWithFlags(graph, 0))
    ok(h.hipGraphLaunch(graph_exec, None))
    ok(h.hipDeviceSynchronize())
    ok(h.hipGraphExecDestroy(graph_exec))
    ok(h.hipGraphDestroy(graph))
    with pytest.raises(ValueError, match="hipGraphDestroy"):
        h.hipGraphAddEmptyNode(graph, None, 0)


def test_device_array_through_cuda_array_interface():
    consumers = []
    try:
        import cupy

        consumers.append(("cupy", lambda d: cupy.asarray(d)))
    except ImportError:
        pass
    try:
        import torch

        consumers.append(("torch", lambda d: torch.as_tensor(d, device="cuda")))
    except ImportError:
        pass
    if not consumers:
        pytest.skip("neither CuPy nor PyTorch is installed")
    n = 256
    host = np.arange(n, dtype=np.float32)
    dev = ok(h.hipMalloc(host.nbytes))
    dev.configure(typestr="float32", shape=(n,))
    ok(h.hipMemcpy(dev, host, host.nbytes, h.hipMemcpyKind.hipMemcpyHostToDevice))
    for name, consume in consumers:
        arr = consume(dev)
        assert float(arr.sum()) == float(host.sum()), name
        arr *= 2  # writes the same memory
        out = np.zeros_like(host)
        ok(h.hipMemcpy(out, dev, host.nbytes, h.hipMemcpyKind.hipMemcpyDeviceToHost))
        np.testing.assert_allclose(out, host * 2)
        host = out
    ok(h.hipFree(dev))


# Run in a fresh process: HIP's driver-API calls as a program's first calls, and again after
# the program left no context current (the NVIDIA shims then make the current device's
# primary context current and make the call again, as HIP on AMD never asks for one).
_NO_CONTEXT = """
from hip import hip as h
err, dev = h.hipDeviceGet(0)
print("first hipDeviceGet:", int(err), dev)
err, ptr = h.hipMalloc(16)
print("hipMalloc:", int(err))
err, ctx = h.hipCtxPopCurrent()
print("popped:", int(err), ctx is not None)
err, current = h.hipCtxGetCurrent()
print("current after pop:", int(err), current)
err, base, size = h.hipMemGetAddressRange(ptr)
print("hipMemGetAddressRange:", int(err), int(base) == int(ptr), size >= 16)
err, stream = h.hipStreamCreateWithFlags(0)
print("hipStreamCreateWithFlags:", int(err), stream is not None)
err, current = h.hipCtxGetCurrent()
print("current again:", int(err), current is not None)
print("hipFree:", int(h.hipFree(ptr)[0]))
"""


def test_driver_calls_make_a_context_current_where_none_is():
    out = subprocess.run([sys.executable, "-c", _NO_CONTEXT], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    lines = dict(line.split(": ", 1) for line in out.stdout.splitlines())
    assert lines["first hipDeviceGet"] == "0 0"
    assert lines["hipMalloc"] == "0"
    assert lines["popped"] == "0 True"
    assert lines["current after pop"] == "0 None"
    assert lines["hipMemGetAddressRange"] == "0 True True"
    assert lines["hipStreamCreateWithFlags"] == "0 True"
    assert lines["current again"] == "0 True"
    assert lines["hipFree"] == "0"


def test_init_leaves_the_primary_context_current():
    code = (
        "from hip import hip as h\n"
        "print(int(h.hipInit(0)[0]))\n"
        "err, ctx = h.hipCtxGetCurrent()\n"
        "print(int(err), ctx is not None)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["0", "0", "True"], out.stdout


@pytest.mark.parametrize("script", ["runtime_memcpy.py", "driver_saxpy.py", "nvrtc_saxpy.py"])
def test_cuda_python_scripts_run_unmodified(script):
    try:
        import cuda.bindings

        if not getattr(cuda.bindings, "HIP_PYTHON", False):
            pytest.skip("the cuda package here is NVIDIA's, not hip-python-as-cuda")
    except ImportError:
        pytest.skip("hip-python-as-cuda is not installed")
    out = subprocess.run(
        [sys.executable, str(REPO / "examples" / "cuda_python" / script)],
        capture_output=True,
        text=True,
        timeout=300,
        env=dict(os.environ),
    )
    assert out.returncode == 0, out.stderr
    results = dict(line.split(": ", 1) for line in out.stdout.splitlines() if ": " in line)
    statuses = {k: v for k, v in results.items() if k.startswith(("cu", "nvrtc"))}
    assert statuses and all(
        v.split()[0] == "0" for k, v in statuses.items() if k != "cudaErrorNoDevice is"
    ), statuses
    for check in ("round trip equal", "result correct"):
        if check in results:
            assert results[check] == "True"


def test_rccl_all_reduce_across_gpus():
    if GPUS < 2:
        pytest.skip("needs two GPUs")
    rccl = library("rccl")

    n = 1 << 16
    comms = (ctypes.c_void_p * 2)()
    devs = (ctypes.c_int * 2)(0, 1)
    ok(rccl.ncclCommInitAll(comms, 2, devs))
    bufs, streams = [], []
    for d in range(2):
        ok(h.hipSetDevice(d))
        host = np.full(n, d + 1, dtype=np.float32)
        buf = ok(h.hipMalloc(host.nbytes))
        ok(h.hipMemcpy(buf, host, host.nbytes, h.hipMemcpyKind.hipMemcpyHostToDevice))
        bufs.append(buf)
        streams.append(ok(h.hipStreamCreate()))
    ok(rccl.ncclGroupStart())
    for d in range(2):
        ok(
            rccl.ncclAllReduce(
                bufs[d],
                bufs[d],
                n,
                rccl.ncclDataType_t.ncclFloat32,
                rccl.ncclRedOp_t.ncclSum,
                comms[d],
                streams[d],
            )
        )
    ok(rccl.ncclGroupEnd())
    for d in range(2):
        ok(h.hipSetDevice(d))
        ok(h.hipStreamSynchronize(streams[d]))
        out = np.zeros(n, dtype=np.float32)
        ok(h.hipMemcpy(out, bufs[d], out.nbytes, h.hipMemcpyKind.hipMemcpyDeviceToHost))
        assert (out == 3.0).all()
    for d in range(2):
        rccl.ncclCommDestroy(comms[d])
    ok(h.hipSetDevice(0))  # the module-scoped kernel lives in device 0's context


def test_hip_python_kernel_idioms(kernel):
    """The user guide's launch: a float grid size, `*grid, *block`, a sub-array, createRef."""
    ok(h.hipSetDevice(0))
    n = 1000
    host = np.arange(n, dtype=np.float32).reshape(10, 100)
    dev = ok(h.hipMalloc(host.nbytes)).configure(typestr="float32", shape=(10, 100))
    ok(h.hipMemcpy(dev, host, host.nbytes, h.hipMemcpyKind.hipMemcpyHostToDevice))
    row = dev[3, :]  # a contiguous sub-array: the kernel scales row 3 only
    block = h.dim3(x=32)
    grid = h.dim3(row.size / block.x + 1)  # a float, truncated as in hip-python
    extra = (row, ctypes.c_float(3.0), ctypes.c_int(row.size))
    ok(
        h.hipModuleLaunchKernel(
            kernel, *grid, *block, sharedMemBytes=0, stream=None, kernelParams=None, extra=extra
        )
    )
    ok(h.hipDeviceSynchronize())
    out = np.zeros_like(host)
    ok(h.hipMemcpy(out, dev, host.nbytes, h.hipMemcpyKind.hipMemcpyDeviceToHost))
    expected = host.copy()
    expected[3] *= 3.0
    np.testing.assert_allclose(out, expected)
    ok(h.hipFree(dev))


def test_program_destroyed_through_create_ref_and_through_the_handle_after_a_launch(kernel):
    for destroy in (lambda p: p.createRef(), lambda p: p):
        prog = ok(hiprtc.hiprtcCreateProgram(SCALE, b"scale.cu", 0, None, None))
        ok(hiprtc.hiprtcCompileProgram(prog, 1, [arch_option()]))
        assert hiprtc.hiprtcDestroyProgram(destroy(prog))[0] == hiprtc.hiprtcResult.HIPRTC_SUCCESS


def test_rccl_communicator_through_a_handle_object():
    rccl = library("rccl")

    comm = rccl.ncclComm()  # one communicator: the handle object stands for a 1-element array
    ok(rccl.ncclCommInitAll(comm, 1, (ctypes.c_int * 1)(0)))
    assert int(comm) != 0
    assert ok(rccl.ncclCommCount(comm)) == 1
    assert rccl.ncclCommDestroy(comm)[0] == rccl.ncclResult_t.ncclSuccess


# The math libraries: on NVIDIA each runs over its CUDA counterpart through the shim hipgen
# generates (hipBLAS over cuBLAS, ...); the results are checked against NumPy.


def to_device(array):
    """A device copy of `array` (C or Fortran order: its bytes as they lie)."""
    dev = ok(h.hipMalloc(max(array.nbytes, 1)))
    ok(h.hipMemcpy(dev, array, array.nbytes, h.hipMemcpyKind.hipMemcpyHostToDevice))
    return dev


def from_device(dev, like):
    """An array shaped and ordered as `like`, read from `dev`."""
    out = np.empty_like(like)
    ok(h.hipMemcpy(out, dev, out.nbytes, h.hipMemcpyKind.hipMemcpyDeviceToHost))
    return out


def lib_ok(result):
    """The value of a (status, value) result of a math library, whose success is 0."""
    status = result[0] if isinstance(result, tuple) else result
    assert int(status) == 0, (status, result)
    return result[1] if isinstance(result, tuple) and len(result) == 2 else None


def created(fn, *args):
    """A descriptor a hipSPARSE create function makes, under either release's convention: ROCm
    6's takes the address to write it to (as hip-python 6.4.3 does), ROCm 7's returns it (as
    rocm-bindings 10.0 does)."""
    if len(inspect.signature(fn).parameters) == len(args) + 1:
        out = ctypes.c_void_p()
        lib_ok(fn(ctypes.addressof(out), *args))
        return out.value
    return lib_ok(fn(*args))


def test_hipblas_sgemm_both_transposes_match_numpy():
    hipblas = library("hipblas")

    handle = lib_ok(hipblas.hipblasCreate())
    m, n, k = 64, 48, 32
    rng = np.random.default_rng(1)
    a = np.asfortranarray(rng.random((m, k), dtype=np.float32))
    at = np.asfortranarray(a.T)  # k x m: used with HIPBLAS_OP_T
    b = np.asfortranarray(rng.random((k, n), dtype=np.float32))
    alpha, beta = np.array([2.0], np.float32), np.array([0.0], np.float32)
    d_a, d_at, d_b = to_device(a), to_device(at), to_device(b)
    d_c = to_device(np.zeros((m, n), np.float32, order="F"))
    op = hipblas.hipblasOperation_t
    # A stored as is, and stored transposed (k x m) with HIPBLAS_OP_T: the same product.
    for trans, d_left, lda in ((op.HIPBLAS_OP_N, d_a, m), (op.HIPBLAS_OP_T, d_at, k)):
        lib_ok(
            hipblas.hipblasSgemm(
                handle, trans, op.HIPBLAS_OP_N, m, n, k, alpha, d_left, lda, d_b, k, beta, d_c, m
            )
        )
        ok(h.hipDeviceSynchronize())
        c = from_device(d_c, np.zeros((m, n), np.float32, order="F"))
        np.testing.assert_allclose(c, 2.0 * a @ b, rtol=1e-4)
    # A value HIPIFY does not map is refused before cuBLAS is called.
    (status,) = hipblas.hipblasSgemm(handle, 5, op.HIPBLAS_OP_N, m, n, k, alpha, d_a, m, d_b, k, beta, d_c, m)
    assert status == hipblas.hipblasStatus_t.HIPBLAS_STATUS_INVALID_ENUM
    for d in (d_a, d_at, d_b, d_c):
        ok(h.hipFree(d))
    lib_ok(hipblas.hipblasDestroy(handle))


def test_hipblas_gemm_ex_reaches_the_exported_cublas_function():
    """hipblasGemmEx: cuBLAS's C++ headers overload cublasGemmEx with an inline wrapper taking
    the older compute type; the shim calls the exported function, with HIP's data and compute
    types translated."""
    hipblas = library("hipblas")

    handle = lib_ok(hipblas.hipblasCreate())
    m, n, k = 32, 24, 16
    rng = np.random.default_rng(3)
    a = np.asfortranarray(rng.random((m, k), dtype=np.float32))
    b = np.asfortranarray(rng.random((k, n), dtype=np.float32))
    alpha, beta = np.array([1.5], np.float32), np.array([0.0], np.float32)
    d_a, d_b = to_device(a), to_device(b)
    d_c = to_device(np.zeros((m, n), np.float32, order="F"))
    op, r32f = hipblas.hipblasOperation_t.HIPBLAS_OP_N, h.hipDataType.HIP_R_32F
    lib_ok(
        hipblas.hipblasGemmEx(
            handle,
            op,
            op,
            m,
            n,
            k,
            alpha,
            d_a,
            r32f,
            m,
            d_b,
            r32f,
            k,
            beta,
            d_c,
            r32f,
            m,
            hipblas.hipblasComputeType_t.HIPBLAS_COMPUTE_32F,
            hipblas.hipblasGemmAlgo_t.HIPBLAS_GEMM_DEFAULT,
        )
    )
    ok(h.hipDeviceSynchronize())
    c = from_device(d_c, np.zeros((m, n), np.float32, order="F"))
    np.testing.assert_allclose(c, 1.5 * a @ b, rtol=1e-4)
    for d in (d_a, d_b, d_c):
        ok(h.hipFree(d))
    lib_ok(hipblas.hipblasDestroy(handle))


def test_hipfft_c2c_forward_and_inverse_match_numpy():
    hipfft = library("hipfft")

    n, batch = 256, 4
    rng = np.random.default_rng(2)
    x = (rng.random((batch, n)) + 1j * rng.random((batch, n))).astype(np.complex64)
    plan = lib_ok(hipfft.hipfftPlan1d(n, hipfft.hipfftType_t.HIPFFT_C2C, batch))
    d_x, d_y = to_device(x), to_device(np.zeros_like(x))
    lib_ok(hipfft.hipfftExecC2C(plan, d_x, d_y, hipfft.HIPFFT_FORWARD))
    ok(h.hipDeviceSynchronize())
    y = from_device(d_y, x)
    np.testing.assert_allclose(y, np.fft.fft(x, axis=1), rtol=1e-3, atol=1e-3)
    lib_ok(hipfft.hipfftExecC2C(plan, d_y, d_x, hipfft.HIPFFT_BACKWARD))
    ok(h.hipDeviceSynchronize())
    np.testing.assert_allclose(from_device(d_x, x) / n, x, rtol=1e-3, atol=1e-4)
    lib_ok(hipfft.hipfftDestroy(plan))
    ok(h.hipFree(d_x))
    ok(h.hipFree(d_y))


def test_hiprand_uniform_is_uniform_and_seeded():
    hiprand = library("hiprand")

    n = 1 << 20

    def draw(seed):
        gen = lib_ok(hiprand.hiprandCreateGenerator(hiprand.hiprandRngType_t.HIPRAND_RNG_PSEUDO_DEFAULT))
        lib_ok(hiprand.hiprandSetPseudoRandomGeneratorSeed(gen, seed))
        dev = ok(h.hipMalloc(n * 4))
        lib_ok(hiprand.hiprandGenerateUniform(gen, dev, n))
        ok(h.hipDeviceSynchronize())
        out = from_device(dev, np.zeros(n, np.float32))
        ok(h.hipFree(dev))
        lib_ok(hiprand.hiprandDestroyGenerator(gen))
        return out

    a, b, c = draw(1234), draw(1234), draw(99)
    assert a.min() > 0.0 and a.max() <= 1.0
    assert abs(a.mean() - 0.5) < 0.01 and abs(a.var() - 1 / 12) < 0.01
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(a, c)


def test_hipsparse_spmv_csr_matches_numpy():
    hipsparse = library("hipsparse")

    rows, cols = 50, 40
    rng = np.random.default_rng(3)
    dense = rng.random((rows, cols), dtype=np.float32) * (rng.random((rows, cols)) < 0.1)
    nz = np.nonzero(dense)
    values = dense[nz].astype(np.float32)
    col_ind = nz[1].astype(np.int32)
    row_ptr = np.zeros(rows + 1, np.int32)
    np.add.at(row_ptr, nz[0] + 1, 1)
    row_ptr = np.cumsum(row_ptr).astype(np.int32)
    x = rng.random(cols, dtype=np.float32)
    d_ptr, d_col, d_val, d_x = to_device(row_ptr), to_device(col_ind), to_device(values), to_device(x)
    d_y = to_device(np.zeros(rows, np.float32))
    handle = lib_ok(hipsparse.hipsparseCreate())
    i32 = hipsparse.hipsparseIndexType_t.HIPSPARSE_INDEX_32I
    r32 = h.hipDataType.HIP_R_32F
    zero = hipsparse.hipsparseIndexBase_t.HIPSPARSE_INDEX_BASE_ZERO
    mat = created(
        hipsparse.hipsparseCreateCsr, rows, cols, len(values), d_ptr, d_col, d_val, i32, i32, zero, r32
    )
    vx = created(hipsparse.hipsparseCreateDnVec, cols, d_x, r32)
    vy = created(hipsparse.hipsparseCreateDnVec, rows, d_y, r32)
    alpha, beta = np.array([1.5], np.float32), np.array([0.0], np.float32)
    op = hipsparse.hipsparseOperation_t.HIPSPARSE_OPERATION_NON_TRANSPOSE
    alg = hipsparse.hipsparseSpMVAlg_t.HIPSPARSE_SPMV_ALG_DEFAULT
    size = np.zeros(1, np.uint64)
    lib_ok(hipsparse.hipsparseSpMV_bufferSize(handle, op, alpha, mat, vx, beta, vy, r32, alg, size))
    buf = ok(h.hipMalloc(max(int(size[0]), 1)))
    lib_ok(hipsparse.hipsparseSpMV(handle, op, alpha, mat, vx, beta, vy, r32, alg, buf))
    ok(h.hipDeviceSynchronize())
    np.testing.assert_allclose(from_device(d_y, np.zeros(rows, np.float32)), 1.5 * dense @ x, rtol=1e-4)
    lib_ok(hipsparse.hipsparseDestroySpMat(mat))
    lib_ok(hipsparse.hipsparseDestroyDnVec(vx))
    lib_ok(hipsparse.hipsparseDestroyDnVec(vy))
    lib_ok(hipsparse.hipsparseDestroy(handle))
    for d in (d_ptr, d_col, d_val, d_x, d_y, buf):
        ok(h.hipFree(d))


def test_hipsolver_lu_solve_matches_numpy():
    hipsolver = library("hipsolver")

    n = 32
    rng = np.random.default_rng(4)
    a = np.asfortranarray(rng.random((n, n), dtype=np.float32) + n * np.eye(n, dtype=np.float32))
    b = rng.random(n, dtype=np.float32)
    handle = lib_ok(hipsolver.hipsolverDnCreate())
    d_a, d_b = to_device(a), to_device(b)
    lwork = np.zeros(1, np.int32)
    lib_ok(hipsolver.hipsolverDnSgetrf_bufferSize(handle, n, n, d_a, n, lwork))
    work = ok(h.hipMalloc(max(int(lwork[0]), 1) * 4))
    ipiv, info = ok(h.hipMalloc(n * 4)), ok(h.hipMalloc(4))
    lib_ok(hipsolver.hipsolverDnSgetrf(handle, n, n, d_a, n, work, ipiv, info))
    # hipSOLVER 6 takes hipBLAS's operation enum (hipsolverOperation_t is hipblasOperation_t).
    op = hipsolver.hipsolverOperation_t.HIPBLAS_OP_N
    lib_ok(hipsolver.hipsolverDnSgetrs(handle, op, n, 1, d_a, n, ipiv, d_b, n, info))
    ok(h.hipDeviceSynchronize())
    assert from_device(info, np.zeros(1, np.int32))[0] == 0
    np.testing.assert_allclose(from_device(d_b, b), np.linalg.solve(a, b), rtol=1e-3)
    lib_ok(hipsolver.hipsolverDnDestroy(handle))
    for d in (d_a, d_b, work, ipiv, info):
        ok(h.hipFree(d))


CUDA_ARGS = b"""
extern "C" __global__ void mix(float *out, float a, int n, double b, unsigned char c) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = a * i + (float)b + c;
}
"""


def test_cuda_python_conventions_on_the_gpu():
    """cuda-python's idioms through the `cuda` package: returned structs, CUDA 13's
    cuCtxCreate, CUdeviceptr outputs, every kernelParams form, None outputs on errors."""
    try:
        import cuda.bindings

        if not getattr(cuda.bindings, "HIP_PYTHON", False):
            pytest.skip("the cuda package here is NVIDIA's, not hip-python-as-cuda")
    except ImportError:
        pytest.skip("hip-python-as-cuda is not installed")
    from cuda.bindings import driver as cu
    from cuda.bindings import nvrtc
    from cuda.bindings import runtime as rt

    err, prop = rt.cudaGetDeviceProperties(0)
    assert err == rt.cudaError_t.cudaSuccess and prop.major >= 1 and prop.name
    assert cu.cuInit(0)[0] == cu.CUresult.CUDA_SUCCESS
    err, dev = cu.cuDeviceGet(0)
    assert str(dev) == "<CUdevice 0>"
    err, ctx = cu.cuCtxCreate(None, 0, dev)
    assert err == cu.CUresult.CUDA_SUCCESS
    err, major = cu.cuDeviceGetAttribute(
        cu.CUdevice_attribute.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev
    )
    err, minor = cu.cuDeviceGetAttribute(
        cu.CUdevice_attribute.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev
    )
    err, prog = nvrtc.nvrtcCreateProgram(CUDA_ARGS, b"mix.cu", 0, None, None)
    opts = [f"--gpu-architecture=sm_{major}{minor}".encode()]
    assert nvrtc.nvrtcCompileProgram(prog, len(opts), opts)[0] == nvrtc.nvrtcResult.NVRTC_SUCCESS
    # cuda-python's log idiom; a clean NVRTC log is 1 byte (the NUL): b" " * 1 is Python's
    # shared one-byte object, which must come back untouched.
    err, log_size = nvrtc.nvrtcGetProgramLogSize(prog)
    assert nvrtc.nvrtcGetProgramLog(prog, b" " * log_size)[0] == nvrtc.nvrtcResult.NVRTC_SUCCESS
    assert b" " == bytes([32])
    err, size = nvrtc.nvrtcGetCUBINSize(prog)
    cubin = b" " * size
    assert nvrtc.nvrtcGetCUBIN(prog, cubin)[0] == nvrtc.nvrtcResult.NVRTC_SUCCESS
    err, module = cu.cuModuleLoadData(np.char.array(cubin))
    assert err == cu.CUresult.CUDA_SUCCESS
    err, fn = cu.cuModuleGetFunction(module, b"mix")
    n = 256
    err, dout = cu.cuMemAlloc(n * 4)
    assert err == cu.CUresult.CUDA_SUCCESS and str(dout).startswith("<CUdeviceptr ")
    # The runtime's `void **` outputs are int addresses, which ctypes takes.
    err, host = rt.cudaMallocHost(16)
    assert err == rt.cudaError_t.cudaSuccess and type(host) is int
    ctypes.c_int32.from_address(host).value = 5
    assert rt.cudaFreeHost(host)[0] == rt.cudaError_t.cudaSuccess
    err, stream = cu.cuStreamCreate(0)
    want = 2.0 * np.arange(n, dtype=np.float32) + np.float32(0.5) + 3
    forms = {
        "values and types": (
            (dout, 2.0, n, 0.5, 3),
            (None, ctypes.c_float, ctypes.c_int, ctypes.c_double, ctypes.c_ubyte),
        ),
        "ctypes values": (
            (
                ctypes.c_void_p(int(dout)),
                ctypes.c_float(2.0),
                ctypes.c_int(n),
                ctypes.c_double(0.5),
                ctypes.c_ubyte(3),
            ),
            (ctypes.c_void_p, ctypes.c_float, ctypes.c_int, ctypes.c_double, ctypes.c_ubyte),
        ),
    }
    values = [
        np.array([int(dout)], dtype=np.uint64),
        np.array([2.0], dtype=np.float32),
        np.array([n], dtype=np.int32),
        np.array([0.5], dtype=np.float64),
        np.array([3], dtype=np.uint8),
    ]
    pointers = np.array([v.ctypes.data for v in values], dtype=np.uint64)
    forms["array of pointers"] = pointers
    forms["address"] = pointers.ctypes.data
    for name, form in forms.items():
        assert cu.cuMemsetD8(dout, 0, n * 4)[0] == cu.CUresult.CUDA_SUCCESS
        (err,) = cu.cuLaunchKernel(fn, 1, 1, 1, n, 1, 1, 0, stream, form, 0)
        assert err == cu.CUresult.CUDA_SUCCESS, name
        out = np.zeros(n, dtype=np.float32)
        assert cu.cuMemcpyDtoHAsync(out, dout, n * 4, stream)[0] == cu.CUresult.CUDA_SUCCESS
        assert cu.cuStreamSynchronize(stream)[0] == cu.CUresult.CUDA_SUCCESS
        np.testing.assert_allclose(out, want, rtol=1e-6, err_msg=name)
    # An error gives None for each output, as in cuda-python.
    err, bad = cu.cuMemAlloc(1 << 62)
    assert err != cu.CUresult.CUDA_SUCCESS and bad is None
    cu.cuMemFree(dout)
    cu.cuStreamDestroy(stream)
    assert cu.cuCtxDestroy(ctx)[0] == cu.CUresult.CUDA_SUCCESS


def test_cuda_struct_and_attribute_outputs_are_native_on_the_gpu():
    """Outputs the adapter makes (a struct HIP's function fills, an attribute's value, lists
    and counts of direct C calls) come from the compiled adapters, and read what the GPU
    wrote."""
    pytest.importorskip("cuda.bindings")
    from cuda.bindings import driver as cu
    from cuda.bindings import runtime as rt

    from hip import _native

    native = {n for v, n in _native.cuda_adapters() if v == "13"}
    for name in (
        "cudaGetDeviceProperties",
        "cudaMalloc3D",
        "cuPointerGetAttribute",
        "cudaPointerGetAttributes",
        "cuPointerGetAttributes",
        "cudaGraphGetNodes",
    ):
        assert name in native, name
        module = rt if name.startswith("cuda") else cu
        assert type(getattr(module, name)).__name__ == "builtin_function_or_method", name
    # A struct HIP lays out otherwise: HIP's, copied into CUDA's layout.
    err, prop = rt.cudaGetDeviceProperties(0)
    assert err == rt.cudaError_t.cudaSuccess and isinstance(prop, rt.cudaDeviceProp)
    assert prop.major >= 1 and prop.multiProcessorCount > 0
    # A struct HIP lays out as CUDA does: CUDA's class, filled in place.
    extent = rt.cudaExtent()
    extent.width, extent.height, extent.depth = 100, 3, 1
    err, pitched = rt.cudaMalloc3D(extent)
    assert err == rt.cudaError_t.cudaSuccess and type(pitched) is rt.cudaPitchedPtr
    assert pitched.pitch >= 100 and pitched.xsize == 100 and int(pitched.ptr) != 0
    err, attrs = rt.cudaPointerGetAttributes(pitched.ptr)
    assert err == rt.cudaError_t.cudaSuccess and isinstance(attrs, rt.cudaPointerAttributes)
    assert attrs.device == 0 and int(attrs.devicePointer) == int(pitched.ptr)
    # An attribute's value: as its C type where CUDA documents one (an int), else 64 bits.
    ordinal = cu.CUpointer_attribute.CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL
    err, value = cu.cuPointerGetAttribute(ordinal, int(pitched.ptr))
    assert err == cu.CUresult.CUDA_SUCCESS and value == 0 and type(value) is int
    address = cu.CUpointer_attribute.CU_POINTER_ATTRIBUTE_DEVICE_POINTER
    err, value = cu.cuPointerGetAttribute(address, int(pitched.ptr))
    assert err == cu.CUresult.CUDA_SUCCESS and int(value) == int(pitched.ptr)
    assert type(value).__name__ == "cuuint64_t"
    # Direct C calls: a list of attributes, one value each, typed as above.
    err, values = cu.cuPointerGetAttributes(2, [ordinal, address], int(pitched.ptr))
    assert err == cu.CUresult.CUDA_SUCCESS and values[0] == 0 and int(values[1]) == int(pitched.ptr)
    assert rt.cudaFree(pitched.ptr)[0] == rt.cudaError_t.cudaSuccess
    # A value of the size an argument gives (managed memory, as the range attributes need).
    err, managed = rt.cudaMallocManaged(4096, rt.cudaMemAttachGlobal)
    assert err == rt.cudaError_t.cudaSuccess
    read_mostly = rt.cudaMemRangeAttribute.cudaMemRangeAttributeReadMostly
    err, value = rt.cudaMemRangeGetAttribute(4, read_mostly, managed, 4096)
    assert err == rt.cudaError_t.cudaSuccess and value == 0
    assert rt.cudaFree(managed)[0] == rt.cudaError_t.cudaSuccess
    # An array the call fills, its count in and out: 0 asks for the count alone.
    err, graph = rt.cudaGraphCreate(0)
    assert err == rt.cudaError_t.cudaSuccess
    err, first = rt.cudaGraphAddEmptyNode(graph, None, 0)
    err, second = rt.cudaGraphAddEmptyNode(graph, [first], 1)
    assert err == rt.cudaError_t.cudaSuccess
    err, nodes, count = rt.cudaGraphGetNodes(graph)
    assert err == rt.cudaError_t.cudaSuccess and (nodes, count) == ([], 2)
    err, nodes, count = rt.cudaGraphGetNodes(graph, 2)
    assert err == rt.cudaError_t.cudaSuccess and count == 2
    assert {int(n) for n in nodes} == {int(first), int(second)}
    assert all(isinstance(n, rt.cudaGraphNode_t) for n in nodes)
    err, roots, count = rt.cudaGraphGetRootNodes(graph, 2)
    assert err == rt.cudaError_t.cudaSuccess and count == 1 and int(roots[0]) == int(first)
    assert rt.cudaGraphDestroy(graph)[0] == rt.cudaError_t.cudaSuccess


# --- hip.core ----------------------------------------------------------------------------


@pytest.mark.parametrize("example", ["core_saxpy.py", "core_reduction.py"])
def test_core_examples_match_numpy(example):
    out = subprocess.run(
        [sys.executable, str(REPO / "examples" / example)], capture_output=True, text=True, timeout=300
    )
    assert out.returncode == 0, out.stdout + out.stderr
    print(out.stdout)


def test_core_streams_events_and_timing():
    from hip import core

    dev = core.Device()
    dev.set_current()
    assert dev.arch and dev.name and core.Device(0) is dev and dev.compute_capability.major > 0
    assert dev.properties.multiprocessor_count > 0 and len(dev.uuid) == 36
    host = np.arange(1 << 16, dtype=np.float64)
    stream = dev.create_stream()
    timing = core.EventOptions(timing_enabled=True)
    arr = core.DeviceArray.from_numpy(host, stream=stream)
    start = stream.record(options=timing)
    back = arr.to_numpy(stream=stream)
    end = stream.record(options=timing)
    end.sync()
    assert (back == host).all() and end.is_done and (end - start) >= 0
    other = dev.create_stream(options=core.StreamOptions(nonblocking=False))
    assert not other.is_nonblocking
    other.wait(end)
    other.wait(stream)
    other.sync()
    untimed = stream.record()
    with pytest.raises(RuntimeError, match="timing enabled"):
        _ = untimed - start
    foreign = dev.create_stream(obj=other)  # through __cuda_stream__
    assert int(foreign.handle) == int(other.handle)
    arr.free()
    with pytest.raises(ValueError, match="freed"):
        arr.to_numpy()
    arr.free()  # a second free does nothing


def test_core_buffers_from_each_memory_resource():
    from hip import core

    dev = core.Device()
    dev.set_current()
    stream = dev.create_stream()
    pinned = core.LegacyPinnedMemoryResource()
    for mr in (dev.memory_resource, core.ManagedMemoryResource(), pinned):
        buf = mr.allocate(4096, stream=stream)
        buf.fill(7, stream=stream)
        host = pinned.allocate(4096, stream=stream)
        buf.copy_to(host, stream=stream)
        stream.sync()
        assert (np.from_dlpack(host) == 7).all(), type(mr).__name__
        copy = buf.copy_to(stream=stream)
        assert copy.size == 4096 and copy.memory_resource is mr
        for b in (buf, host, copy):
            b.close(stream)
    buf = dev.allocate(64, stream=stream)
    buf.fill(b"\x01\x02\x03\x04", stream=stream)
    with pytest.raises(ValueError, match="divisible by 4"):
        dev.allocate(6, stream=stream).fill(b"\0\0\0\0", stream=stream)
    with pytest.raises(ValueError, match="sizes mismatch"):
        buf.copy_from(dev.allocate(32, stream=stream), stream=stream)
    stream.sync()


def test_core_launch_and_graph_capture():
    from hip import core

    dev = core.Device()
    dev.set_current()
    src = """extern "C" __global__ void axpb(float* y, float a, float b, unsigned long long n) {
        unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
        if (i < n) y[i] = a * y[i] + b; }"""
    program = core.Program(src, "c++", core.ProgramOptions(arch=f"sm_{dev.arch}"))
    kernel = program.compile("cubin").get_kernel("axpb")
    assert kernel.attributes.max_threads_per_block > 0
    assert kernel.occupancy.max_active_blocks_per_multiprocessor(256, 0) > 0
    n = 1 << 12
    stream = dev.create_stream()
    y = core.DeviceArray.from_numpy(np.ones(n, np.float32), stream=stream)
    config = core.LaunchConfig(grid=(n + 255) // 256, block=256)
    core.launch(stream, config, kernel, y, np.float32(2.0), np.float32(1.0), n)
    np.testing.assert_array_equal(y.to_numpy(stream=stream), np.full(n, 3.0, np.float32))
    builder = stream.create_graph_builder().begin_building()
    core.launch(builder, config, kernel, y, np.float32(1.0), np.float32(1.0), n)
    graph = builder.end_building().complete()
    for _ in range(3):
        graph.launch(stream)
    np.testing.assert_array_equal(y.to_numpy(stream=stream), np.full(n, 6.0, np.float32))


def test_core_properties_occupancy_and_cooperative_limits():
    from hip import core

    dev = core.Device()
    dev.set_current()
    props = dev.properties
    assert isinstance(props.managed_memory, bool) and isinstance(props.multiprocessor_count, int)
    assert props.max_threads_per_multiprocessor > 0 and props.warp_size in (32, 64)
    src = 'extern "C" __global__ void touch(int* x) { x[threadIdx.x] = 1; }'
    kernel = (
        core.Program(src, "c++", core.ProgramOptions(arch=f"sm_{dev.arch}"))
        .compile("cubin")
        .get_kernel("touch")
    )
    grid, block = kernel.occupancy.max_potential_block_size(0, 128)
    assert 0 < block <= 128 and block % props.warp_size == 0 and grid >= props.multiprocessor_count
    smem = kernel.occupancy.available_dynamic_shared_memory_per_block(2, 128)
    assert 0 < smem <= props.max_shared_memory_per_multiprocessor
    if props.cooperative_launch:
        too_many = core.LaunchConfig(grid=props.max_grid_dim_x // 128 + 1, block=128, is_cooperative=True)
        with pytest.raises(ValueError, match="cooperative launch"):
            core.launch(dev.default_stream, too_many, kernel, 0)


def test_core_graph_memory_and_managed_buffers():
    from hip import core

    dev = core.Device()
    dev.set_current()
    stream = dev.create_stream()
    gmr = core.GraphMemoryResource(dev)
    assert core.GraphMemoryResource(dev.device_id) is gmr
    with pytest.raises(RuntimeError, match="non-capturing stream"):
        gmr.allocate(64, stream=stream)
    builder = stream.create_graph_builder().begin_building()
    buf = gmr.allocate(1 << 20, stream=builder)
    buf.fill(3, stream=builder)
    buf.close(builder)
    graph = builder.end_building().complete()
    graph.launch(stream)
    stream.sync()
    assert gmr.attributes.reserved_mem_current >= 1 << 20
    with pytest.raises(AttributeError, match="not writable"):
        gmr.attributes.used_mem_current = 0
    if dev.properties.concurrent_managed_access:
        managed = core.ManagedMemoryResource().allocate(4096, stream=stream)
        assert isinstance(managed, core.ManagedBuffer) and managed.is_managed
        managed.read_mostly = True
        assert managed.read_mostly is True
        managed.preferred_location = core.Host()
        assert managed.preferred_location == core.Host()
        managed.accessed_by.add(dev)
        assert dev in managed.accessed_by
        managed.prefetch(dev, stream=stream)
        stream.sync()
        managed.close()


def test_core_ptx_programs_and_the_linker_on_nvidia():
    from hip import _native, core

    if _native.platform() != "nvidia":
        pytest.skip("PTX is NVIDIA's (AMD's linker takes LLVM bitcode: tests/test_core.py)")
    dev = core.Device()
    dev.set_current()
    opts = core.ProgramOptions(arch=f"sm_{dev.arch}", relocatable_device_code=True)
    caller = (
        'extern __device__ int twice(int); extern "C" __global__ void apply(int* x) { x[0] = twice(x[0]); }'
    )
    parts = [
        core.Program(s, "c++", opts).compile("ptx")
        for s in (caller, "__device__ int twice(int v) { return 2 * v; }")
    ]
    linked = core.Linker(*parts, options=core.LinkerOptions(arch=f"sm_{dev.arch}")).link("cubin")
    kernel = linked.get_kernel("apply")
    stream = dev.create_stream()
    host = core.LegacyPinnedMemoryResource().allocate(4, stream=stream)
    np.from_dlpack(host).view(np.int32)[0] = 21
    core.launch(stream, core.LaunchConfig(grid=1, block=1), kernel, host)
    stream.sync()
    assert np.from_dlpack(host).view(np.int32)[0] == 42
    program = core.Program(parts[1].code.decode(), "ptx")
    assert program.backend == "driver" and program.compile("cubin").code_type == "cubin"


def test_core_graph_definitions_build_run_and_change():
    from hip import core
    from hip.core.graph import AllocNode, EmptyNode, GraphDefinition, KernelNode, MemsetNode

    dev = core.Device()
    dev.set_current()
    stream = dev.create_stream()
    src = 'extern "C" __global__ void add_one(unsigned char* x) { x[threadIdx.x] += 1; }'
    kernel = (
        core.Program(src, "c++", core.ProgramOptions(arch=f"sm_{dev.arch}"))
        .compile("cubin")
        .get_kernel("add_one")
    )
    host = core.LegacyPinnedMemoryResource().allocate(64, stream=stream)
    g = GraphDefinition()
    alloc = g.allocate(64)
    assert (
        isinstance(alloc, AllocNode) and alloc.dptr and alloc.bytesize == 64 and alloc.memory_type == "device"
    )
    fill = alloc.memset(alloc.dptr, 41, 64)
    bump = fill.launch(core.LaunchConfig(grid=1, block=64), kernel, alloc.dptr)
    copy = bump.memcpy(host.handle, alloc.dptr, 64)
    free = copy.deallocate(alloc.dptr)
    assert isinstance(fill, MemsetNode) and isinstance(bump, KernelNode) and bump.kernel is kernel
    assert g.nodes() == {alloc, fill, bump, copy, free} and (fill, bump) in g.edges()
    assert (
        set(bump.pred) == {fill}
        and set(bump.succ) == {copy}
        and bump.type.name == "CU_GRAPH_NODE_TYPE_KERNEL"
    )
    g.instantiate().launch(stream)
    stream.sync()
    assert (np.from_dlpack(host) == 42).all()
    join = g.join(alloc, fill)
    assert isinstance(join, EmptyNode) and set(join.pred) == {alloc, fill}
    join.destroy()
    assert join not in g.nodes() and join.handle is None
    with pytest.raises(ValueError, match="Invalid memory_type"):
        g.allocate(8, memory_type="elsewhere")
    with pytest.raises(core.CUDAError, match="conditional"):
        g.create_condition()


def test_memory_freed_through_the_bindings_is_refused_afterwards():
    status, ptr = h.hipMalloc(64)
    assert status == h.hipError_t.hipSuccess
    assert h.hipMemset(ptr, 0, 64)[0] == h.hipError_t.hipSuccess
    assert h.hipFree(ptr)[0] == h.hipError_t.hipSuccess
    with pytest.raises(ValueError, match="destroyed by hipFree"):
        h.hipMemset(ptr, 0, 64)
    with pytest.raises(ValueError, match="destroyed by hipFree"):
        h.hipFree(ptr)


def test_core_arrays_go_to_torch_and_cupy_and_back_without_a_copy():
    from hip import core

    consumers = []
    try:
        import cupy

        consumers.append(("cupy", cupy.from_dlpack, lambda t: t.data.ptr))
    except ImportError:
        pass
    try:
        import torch

        consumers.append(("torch", torch.from_dlpack, lambda t: t.data_ptr()))
    except ImportError:
        pass
    if not consumers:
        pytest.skip("neither CuPy nor PyTorch is installed")
    host = np.arange(1024, dtype=np.float32)
    for name, take, address in consumers:
        arr = core.DeviceArray.from_numpy(host)
        tensor = take(arr)
        assert address(tensor) == arr.ptr, name  # the same memory
        assert float(tensor.sum()) == float(host.sum()), name
        tensor *= 2  # written through the other library: seen here
        np.testing.assert_allclose(arr.to_numpy(), host * 2, err_msg=name)
        back = core.DeviceArray.from_dlpack(tensor)
        assert back.ptr == address(tensor) and back.shape == (1024,) and back.dtype == np.float32, name
        np.testing.assert_allclose(back.to_numpy(), host * 2, err_msg=name)
        # Their own arrays come in without a copy too.
        theirs = take(core.DeviceArray.from_numpy(host)) * 3
        view = core.DeviceArray.from_dlpack(theirs)
        assert view.ptr == address(theirs), name
        np.testing.assert_allclose(view.to_numpy(), host * 3, err_msg=name)


#: A folder holding NVIDIA's cuda-bindings, or the answers it gave on this GPU
#: (`tools/cuda_attributes.py ask`, a JSON file).
NVIDIA_BINDINGS = os.environ.get("HIPGEN_NVIDIA_CUDA_BINDINGS")
NVIDIA_ATTRIBUTES = os.environ.get("HIPGEN_NVIDIA_ATTRIBUTES")


@pytest.mark.skipif(
    not (NVIDIA_BINDINGS or NVIDIA_ATTRIBUTES),
    reason="neither HIPGEN_NVIDIA_CUDA_BINDINGS (NVIDIA's cuda-bindings) nor HIPGEN_NVIDIA_ATTRIBUTES is set",
)
def test_every_device_attribute_answers_as_nvidias_cuda_bindings(tmp_path):
    """Every `CUdevice_attribute` and `cudaDeviceAttr` member asked through NVIDIA's
    cuda-bindings and through ours on the same GPU (tools/cuda_attributes.py, each in its own
    process): where NVIDIA's answers, ours answers the same value. HIPIFY pairs several CUDA
    attributes with one HIP member (surface and texture limits, `GPU_OVERLAP`); on NVIDIA the
    cuda package hands CUDA each as its own member."""
    if hip.platform() != "nvidia":
        pytest.skip("NVIDIA's cuda-bindings runs on the NVIDIA platform only")
    tool = str(REPO / "tools" / "cuda_attributes.py")
    nvidia, ours = tmp_path / "nvidia.json", tmp_path / "ours.json"
    if NVIDIA_BINDINGS:
        env = dict(os.environ, PYTHONPATH=NVIDIA_BINDINGS)
        subprocess.run([sys.executable, tool, "ask", str(nvidia)], check=True, env=env, timeout=300)
    else:
        nvidia = NVIDIA_ATTRIBUTES
    subprocess.run([sys.executable, tool, "ask", str(ours), str(nvidia)], check=True, timeout=300)
    import json

    nvidia = Path(nvidia)

    theirs, mine = json.loads(nvidia.read_text()), json.loads(ours.read_text())
    # The CUDA 12 shim (CUDA 12's runtime installed) knows the attributes of CUDA 12's headers:
    # those CUDA 13 added are answered only through the CUDA 13 one, and cuda-bindings 12 has
    # no names for them.
    cuda12 = any(line.rstrip().endswith("/libhip_nvidia.so") for line in open("/proc/self/maps"))
    if cuda12:
        from cuda import _plan

        enums12 = _plan._Tables("12").enums
        known = {m for e in ("CUdevice_attribute", "cudaDeviceAttr") for m, _ in enums12[e]["members"]}
    for kind in ("driver", "runtime"):
        answered = {n: r for n, r in theirs[kind].items() if r[0] == 0 and (not cuda12 or n in known)}
        assert len(answered) > 100, kind
        differ = {n: (r, mine[kind].get(n)) for n, r in answered.items() if mine[kind].get(n) != r}
        # CUDA 13's runtime answers 0 for its reserved slot 94 (once "can use stream wait value
        # NOR"); HIPIFY pairs the name with HIP's stream-wait attribute, which CUDA answers.
        differ.pop("cudaDevAttrReserved94", None)
        assert not differ, f"{kind}: {len(differ)} of {len(answered)} differ: {differ}"
