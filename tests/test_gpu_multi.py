"""The GPU suite's multi-GPU part: RCCL collectives (NCCL on the NVIDIA platform) in one process
and in one process per GPU, peer access and peer copies, and `hip.core` with a device per
thread, each checked against NumPy. Skipped where fewer than two GPUs are; run on the device
machines of two GPUs with `pytest -m gpu tests/test_gpu_multi.py` (docs/nvidia.md). NVLink
multicast stays off (`NCCL_NVLS_ENABLE=0`) in this process and every one it starts.
"""

import ctypes
import os
import subprocess
import sys

import numpy as np
import pytest

from conftest import REPO
from hip import hip as h

os.environ["NCCL_NVLS_ENABLE"] = "0"


def _gpus():
    try:
        err, count = h.hipGetDeviceCount()
    except RuntimeError:
        return 0
    return count if err == h.hipError_t.hipSuccess else 0


GPUS = _gpus()
pytestmark = [pytest.mark.gpu, pytest.mark.skipif(GPUS < 2, reason="needs two GPUs")]
NDEV = 2
H2D = h.hipMemcpyKind.hipMemcpyHostToDevice
D2H = h.hipMemcpyKind.hipMemcpyDeviceToHost


def ok(result):
    """The outputs of a `(status, *outputs)` result, after checking the status."""
    err, *rest = result
    assert err == 0, result
    return rest[0] if len(rest) == 1 else tuple(rest)


#: NumPy dtype → RCCL's data type name.
DTYPES = {
    np.float32: "ncclFloat32",
    np.float64: "ncclFloat64",
    np.int32: "ncclInt32",
    np.int64: "ncclInt64",
    np.float16: "ncclFloat16",
    np.uint8: "ncclUint8",
}


class Clique:
    """One communicator per GPU in this process (`ncclCommInitAll`), a stream on each."""

    def __init__(self):
        from hip import rccl

        self.rccl = rccl
        self.comms = (ctypes.c_void_p * NDEV)()
        ok(rccl.ncclCommInitAll(self.comms, NDEV, (ctypes.c_int * NDEV)(*range(NDEV))))
        self.streams = []
        for d in range(NDEV):
            ok(h.hipSetDevice(d))
            self.streams.append(ok(h.hipStreamCreate()))
        self.buffers = []

    def upload(self, d, host):
        ok(h.hipSetDevice(d))
        buf = ok(h.hipMalloc(max(host.nbytes, 1)))
        ok(h.hipMemcpy(buf, host, host.nbytes, H2D))
        self.buffers.append(buf)
        return buf

    def empty(self, d, nbytes):
        ok(h.hipSetDevice(d))
        buf = ok(h.hipMalloc(nbytes))
        self.buffers.append(buf)
        return buf

    def download(self, d, buf, like):
        ok(h.hipSetDevice(d))
        ok(h.hipStreamSynchronize(self.streams[d]))
        out = np.empty_like(like)
        ok(h.hipMemcpy(out, buf, out.nbytes, D2H))
        return out

    def group(self, calls):
        """`calls(d)` for each GPU inside one group (one process drives both ranks)."""
        ok(self.rccl.ncclGroupStart())
        for d in range(NDEV):
            ok(calls(d))
        ok(self.rccl.ncclGroupEnd())

    def close(self):
        for buf in self.buffers:
            h.hipFree(buf)
        for d in range(NDEV):
            self.rccl.ncclCommDestroy(self.comms[d])
            h.hipStreamDestroy(self.streams[d])
        ok(h.hipSetDevice(0))


@pytest.fixture(scope="module")
def clique():
    c = Clique()
    yield c
    c.close()


def _values(d, n, dtype):
    rng = np.random.default_rng(d)
    if np.issubdtype(dtype, np.floating):
        return rng.integers(-8, 8, n).astype(dtype)  # exact in every float type's sum
    return rng.integers(0, 50, n).astype(dtype)


@pytest.mark.parametrize("dtype", list(DTYPES), ids=lambda t: t.__name__)
@pytest.mark.parametrize("n", [1, 1000, 1 << 20])
def test_all_reduce_sums_as_numpy(clique, dtype, n):
    r = clique.rccl
    dt = getattr(r.ncclDataType_t, DTYPES[dtype])
    host = [_values(d, n, dtype) for d in range(NDEV)]
    bufs = [clique.upload(d, host[d]) for d in range(NDEV)]
    clique.group(
        lambda d: r.ncclAllReduce(
            bufs[d], bufs[d], n, dt, r.ncclRedOp_t.ncclSum, clique.comms[d], clique.streams[d]
        )
    )
    want = (host[0] + host[1]).astype(dtype)
    for d in range(NDEV):
        assert np.array_equal(clique.download(d, bufs[d], want), want)


def test_all_reduce_of_a_gibibyte(clique):
    r = clique.rccl
    n = (1 << 30) // 4
    host = [np.full(n, d + 1, dtype=np.float32) for d in range(NDEV)]
    bufs = [clique.upload(d, host[d]) for d in range(NDEV)]
    f32, add = r.ncclDataType_t.ncclFloat32, r.ncclRedOp_t.ncclSum
    clique.group(lambda d: r.ncclAllReduce(bufs[d], bufs[d], n, f32, add, clique.comms[d], clique.streams[d]))
    for d in range(NDEV):
        assert (clique.download(d, bufs[d], host[d]) == 3.0).all()
        ok(h.hipSetDevice(d))
        ok(h.hipFree(bufs[d]))
        clique.buffers.remove(bufs[d])


def test_broadcast_all_gather_reduce_scatter(clique):
    r = clique.rccl
    f32 = r.ncclDataType_t.ncclFloat32
    n = 4096
    host = [np.arange(n, dtype=np.float32) * (d + 1) for d in range(NDEV)]
    src = [clique.upload(d, host[d]) for d in range(NDEV)]
    # Broadcast from rank 1 into fresh buffers.
    dst = [clique.empty(d, host[d].nbytes) for d in range(NDEV)]
    clique.group(lambda d: r.ncclBroadcast(src[d], dst[d], n, f32, 1, clique.comms[d], clique.streams[d]))
    for d in range(NDEV):
        assert np.array_equal(clique.download(d, dst[d], host[1]), host[1])
    # All-gather: rank i's values at offset i * n.
    gathered = [clique.empty(d, NDEV * host[d].nbytes) for d in range(NDEV)]
    clique.group(lambda d: r.ncclAllGather(src[d], gathered[d], n, f32, clique.comms[d], clique.streams[d]))
    want = np.concatenate(host)
    for d in range(NDEV):
        assert np.array_equal(clique.download(d, gathered[d], want), want)
    # Reduce-scatter of the gathered arrays: rank i gets the sum of block i.
    scattered = [clique.empty(d, host[d].nbytes) for d in range(NDEV)]
    clique.group(
        lambda d: r.ncclReduceScatter(
            gathered[d], scattered[d], n, f32, r.ncclRedOp_t.ncclSum, clique.comms[d], clique.streams[d]
        )
    )
    for d in range(NDEV):
        assert np.array_equal(clique.download(d, scattered[d], host[d]), NDEV * host[d])


def test_send_and_recv_swap_buffers(clique):
    r = clique.rccl
    i64 = r.ncclDataType_t.ncclInt64
    n = 10_000
    host = [np.full(n, 100 + d, dtype=np.int64) for d in range(NDEV)]
    send = [clique.upload(d, host[d]) for d in range(NDEV)]
    recv = [clique.empty(d, host[d].nbytes) for d in range(NDEV)]
    ok(r.ncclGroupStart())
    for d in range(NDEV):
        peer = 1 - d
        ok(r.ncclSend(send[d], n, i64, peer, clique.comms[d], clique.streams[d]))
        ok(r.ncclRecv(recv[d], n, i64, peer, clique.comms[d], clique.streams[d]))
    ok(r.ncclGroupEnd())
    for d in range(NDEV):
        assert np.array_equal(clique.download(d, recv[d], host[d]), host[1 - d])


RANK = r"""
import ctypes, os, sys
import numpy as np
from hip import hip as h, rccl

rank, path = int(sys.argv[1]), sys.argv[2]
assert h.hipSetDevice(rank)[0] == 0
uid = rccl.ncclUniqueId()
data = open(path, "rb").read()  # the id's bytes, as a launcher would hand them over
ctypes.memmove(uid.getPtr(), data, len(data))
err, comm = rccl.ncclCommInitRank(2, uid, rank)
assert err == 0, err
n = 1 << 20
host = np.full(n, rank + 1, dtype=np.float32)
err, buf = h.hipMalloc(host.nbytes)
assert h.hipMemcpy(buf, host, host.nbytes, h.hipMemcpyKind.hipMemcpyHostToDevice)[0] == 0
err, stream = h.hipStreamCreate()
f32, add = rccl.ncclDataType_t.ncclFloat32, rccl.ncclRedOp_t.ncclSum
assert rccl.ncclAllReduce(buf, buf, n, f32, add, comm, stream)[0] == 0
assert h.hipStreamSynchronize(stream)[0] == 0
out = np.empty_like(host)
assert h.hipMemcpy(out, buf, out.nbytes, h.hipMemcpyKind.hipMemcpyDeviceToHost)[0] == 0
print("rank", rank, "sum", float(out[0]), "all", bool((out == 3.0).all()))
rccl.ncclCommDestroy(comm)
"""


def test_one_process_per_gpu_through_a_unique_id(tmp_path):
    from hip import rccl

    uid = rccl.ncclUniqueId()
    ok(rccl.ncclGetUniqueId(uid))
    path = tmp_path / "uid"
    path.write_bytes(ctypes.string_at(uid.getPtr(), uid.c_sizeof()))
    env = dict(os.environ, NCCL_NVLS_ENABLE="0")
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", RANK, str(rank), str(path)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        for rank in range(NDEV)
    ]
    outs = [p.communicate(timeout=240) for p in procs]
    for rank, (p, (out, err)) in enumerate(zip(procs, outs, strict=True)):
        assert p.returncode == 0, err[-2000:]
        assert out.strip() == f"rank {rank} sum 3.0 all True"


def test_peer_access_and_peer_copies():
    assert ok(h.hipDeviceCanAccessPeer(0, 1)) in (0, 1)
    can = ok(h.hipDeviceCanAccessPeer(0, 1)) and ok(h.hipDeviceCanAccessPeer(1, 0))
    if can:
        for d in range(NDEV):
            ok(h.hipSetDevice(d))
            err = h.hipDeviceEnablePeerAccess(1 - d, 0)[0]
            assert err in (h.hipError_t.hipSuccess, h.hipError_t.hipErrorPeerAccessAlreadyEnabled), err
    n = 1 << 22
    host = np.arange(n, dtype=np.uint32)
    ok(h.hipSetDevice(0))
    a = ok(h.hipMalloc(host.nbytes))
    ok(h.hipMemcpy(a, host, host.nbytes, H2D))
    ok(h.hipSetDevice(1))
    b = ok(h.hipMalloc(host.nbytes))
    ok(h.hipMemcpyPeer(b, 1, a, 0, host.nbytes))
    out = np.zeros_like(host)
    ok(h.hipMemcpy(out, b, out.nbytes, D2H))
    assert np.array_equal(out, host)
    # Back, asynchronously on a stream of device 1, shifted by 1 MiB.
    stream = ok(h.hipStreamCreate())
    half = host.nbytes // 2
    ok(h.hipSetDevice(0))
    ok(h.hipMemset(a, 0, host.nbytes))
    ok(h.hipDeviceSynchronize())  # the memset may still run: device 1's stream does not wait for it
    ok(h.hipSetDevice(1))
    ok(h.hipMemcpyPeerAsync(a, 0, int(b) + half, 1, half, stream))
    ok(h.hipStreamSynchronize(stream))
    ok(h.hipSetDevice(0))
    out = np.zeros_like(host)
    ok(h.hipMemcpy(out, a, out.nbytes, D2H))
    assert np.array_equal(out[: n // 2], host[n // 2 :]) and not out[n // 2 :].any()
    for d, p in ((0, a), (1, b)):
        ok(h.hipSetDevice(d))
        ok(h.hipFree(p))
    ok(h.hipSetDevice(1))
    ok(h.hipStreamDestroy(stream))
    ok(h.hipSetDevice(0))


def test_core_multi_device_example():
    """examples/core_multi_device.py: hip.core's saxpy on every GPU at once, a thread per
    device, each against NumPy."""
    out = subprocess.run(
        [sys.executable, str(REPO / "examples" / "core_multi_device.py")],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    assert f"saxpy on {GPUS} devices at once" in out.stdout
