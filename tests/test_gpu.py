"""The GPU suite: real kernels, copies, streams and events on whatever GPU is present (AMD, or
NVIDIA through `./build_pkgs.sh --platform nvidia`). Skipped where no GPU is; run on the
device machines with `pytest -m gpu tests/test_gpu.py` (see README, "Running on NVIDIA").
"""

import ctypes
import os
import subprocess
import sys

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


@pytest.mark.parametrize("script", ["runtime_memcpy.py", "driver_saxpy.py", "nvrtc_saxpy.py"])
def test_cuda_python_scripts_run_unmodified(script):
    try:
        import cuda  # noqa: F401

        if not getattr(cuda, "HIP_PYTHON", False):
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
    from hip import rccl

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
    from hip import rccl

    comm = rccl.ncclComm()  # one communicator: the handle object stands for a 1-element array
    ok(rccl.ncclCommInitAll(comm, 1, (ctypes.c_int * 1)(0)))
    assert int(comm) != 0
    assert ok(rccl.ncclCommCount(comm)) == 1
    assert rccl.ncclCommDestroy(comm)[0] == rccl.ncclResult_t.ncclSuccess
