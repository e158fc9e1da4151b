#!/usr/bin/env python3
"""All-reduce bus bandwidth through hip.rccl (NCCL on the NVIDIA platform) beside NCCL's own
figures through PyTorch's torch.distributed, and peer-copy bandwidth through hip, on one
machine of two GPUs.

    PYTHONPATH=/path/to/site python3 benches/multi_gpu.py   # hip-python there; PyTorch installed

All-reduce: float32 sums of 1 MiB to 1 GiB, in place, each size timed over a loop of calls
after warm-up calls (fewer for large sizes); bus bandwidth as nccl-tests reports it,
bytes / time * 2 (n - 1) / n (= bytes / time for two GPUs). hip.rccl runs both ranks from one
process (`ncclCommInitAll`, the calls of both ranks in one group) and from one process per GPU
(`ncclGetUniqueId` + `ncclCommInitRank`); PyTorch one process per GPU (`init_process_group`
over NCCL). Peer copies: `hipMemcpyPeer` of 1 GiB each way. NVLink multicast stays off
(`NCCL_NVLS_ENABLE=0`). Prints a Markdown table (and writes benches/RESULTS-multi-gpu.md).
"""

import ctypes
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

os.environ["NCCL_NVLS_ENABLE"] = "0"
REPO = Path(__file__).resolve().parent.parent
SIZES = [1 << 20, 16 << 20, 128 << 20, 1 << 30]


def loops(nbytes):
    return (50, 10) if nbytes <= 16 << 20 else (10, 3)


def hip_one_process():
    """{size: seconds per all-reduce}, both ranks driven by this process."""
    from hip import hip as h
    from hip import rccl

    comms = (ctypes.c_void_p * 2)()
    assert rccl.ncclCommInitAll(comms, 2, (ctypes.c_int * 2)(0, 1))[0] == 0
    streams, out = [], {}
    for d in range(2):
        h.hipSetDevice(d)
        streams.append(h.hipStreamCreate()[1])
    f32, add = rccl.ncclDataType_t.ncclFloat32, rccl.ncclRedOp_t.ncclSum
    for nbytes in SIZES:
        bufs = []
        for d in range(2):
            h.hipSetDevice(d)
            err, buf = h.hipMalloc(nbytes)
            assert err == 0
            h.hipMemset(buf, 0, nbytes)
            bufs.append(buf)

        def once(bufs=bufs, nbytes=nbytes):
            rccl.ncclGroupStart()
            for d in range(2):
                rccl.ncclAllReduce(bufs[d], bufs[d], nbytes // 4, f32, add, comms[d], streams[d])
            rccl.ncclGroupEnd()

        def sync():
            for d in range(2):
                h.hipSetDevice(d)
                h.hipStreamSynchronize(streams[d])

        timed, warm = loops(nbytes)
        for _ in range(warm):
            once()
        sync()
        t = time.perf_counter()
        for _ in range(timed):
            once()
        sync()
        out[nbytes] = (time.perf_counter() - t) / timed
        for d in range(2):
            h.hipSetDevice(d)
            h.hipFree(bufs[d])
    for d in range(2):
        rccl.ncclCommDestroy(comms[d])
    return out


HIP_RANK = r"""
import ctypes, json, sys, time
sys.path.insert(0, sys.argv[3])
from multi_gpu import SIZES, loops
from hip import hip as h, rccl
rank = int(sys.argv[1])
h.hipSetDevice(rank)
uid = rccl.ncclUniqueId()
data = open(sys.argv[2], "rb").read()
ctypes.memmove(uid.getPtr(), data, len(data))
err, comm = rccl.ncclCommInitRank(2, uid, rank)
assert err == 0, err
err, stream = h.hipStreamCreate()
f32, add = rccl.ncclDataType_t.ncclFloat32, rccl.ncclRedOp_t.ncclSum
out = {}
for nbytes in SIZES:
    err, buf = h.hipMalloc(nbytes)
    h.hipMemset(buf, 0, nbytes)
    timed, warm = loops(nbytes)
    for _ in range(warm):
        rccl.ncclAllReduce(buf, buf, nbytes // 4, f32, add, comm, stream)
    h.hipStreamSynchronize(stream)
    t = time.perf_counter()
    for _ in range(timed):
        rccl.ncclAllReduce(buf, buf, nbytes // 4, f32, add, comm, stream)
    h.hipStreamSynchronize(stream)
    out[nbytes] = (time.perf_counter() - t) / timed
    h.hipFree(buf)
rccl.ncclCommDestroy(comm)
print(json.dumps(out))
"""

TORCH_RANK = r"""
import json, sys, time
sys.path.insert(0, sys.argv[2])
from multi_gpu import SIZES, loops
import torch, torch.distributed as dist
rank = int(sys.argv[1])
torch.cuda.set_device(rank)
dist.init_process_group("nccl", init_method="tcp://127.0.0.1:29517", rank=rank, world_size=2)
out = {}
for nbytes in SIZES:
    x = torch.zeros(nbytes // 4, dtype=torch.float32, device="cuda")
    timed, warm = loops(nbytes)
    for _ in range(warm):
        dist.all_reduce(x)
    torch.cuda.synchronize()
    t = time.perf_counter()
    for _ in range(timed):
        dist.all_reduce(x)
    torch.cuda.synchronize()
    out[nbytes] = (time.perf_counter() - t) / timed
    del x
dist.destroy_process_group()
print(json.dumps(out))
"""


def per_process(code, *extra):
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", code, str(rank), *extra],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for rank in range(2)
    ]
    outs = [p.communicate(timeout=600) for p in procs]
    for p, (_, err) in zip(procs, outs, strict=True):
        if p.returncode:
            raise RuntimeError(err[-3000:])
    return {int(k): v for k, v in json.loads(outs[0][0].strip().splitlines()[-1]).items()}


def hip_per_process():
    from hip import rccl

    uid = rccl.ncclUniqueId()
    assert rccl.ncclGetUniqueId(uid)[0] == 0
    path = Path("/tmp/hipgen-bench-uid")
    path.write_bytes(ctypes.string_at(uid.getPtr(), uid.c_sizeof()))
    return per_process(HIP_RANK, str(path), str(REPO / "benches"))


def peer_copies():
    """GB/s of hipMemcpyPeer, 1 GiB, each direction (best of 5)."""
    from hip import hip as h

    nbytes = 1 << 30
    bufs = []
    for d in range(2):
        h.hipSetDevice(d)
        for peer in range(2):
            if peer != d and h.hipDeviceCanAccessPeer(d, peer)[1]:
                h.hipDeviceEnablePeerAccess(peer, 0)
        bufs.append(h.hipMalloc(nbytes)[1])
    out = {}
    for src, dst in ((0, 1), (1, 0)):
        best = float("inf")
        for _ in range(5):
            h.hipSetDevice(dst)
            h.hipDeviceSynchronize()
            t = time.perf_counter()
            assert h.hipMemcpyPeer(bufs[dst], dst, bufs[src], src, nbytes)[0] == 0
            h.hipDeviceSynchronize()
            best = min(best, time.perf_counter() - t)
        out[f"{src}->{dst}"] = nbytes / best / 1e9
    for d in range(2):
        h.hipSetDevice(d)
        h.hipFree(bufs[d])
    return out


def main():
    from hip import hip as h

    props = h.hipDeviceProp_t()
    h.hipGetDeviceProperties(props, 0)
    name = props.name.decode() if isinstance(props.name, bytes) else props.name
    one = hip_one_process()
    ranks = hip_per_process()
    torch_ranks = per_process(TORCH_RANK, str(REPO / "benches"))
    copies = peer_copies()
    gb = lambda nbytes, sec: nbytes / sec / 1e9  # noqa: E731 (bus bandwidth for 2 GPUs)
    lines = [
        "Written by `python3 benches/multi_gpu.py` on a device machine of two GPUs: float32 "
        "all-reduce in place, bus bandwidth in GB/s as nccl-tests reports it (bytes / time for "
        "two GPUs), NCCL_NVLS_ENABLE=0.",
        "",
        f"Machine: 2 x {name}, Python {platform.python_version()}",
        "",
        "| size | hip.rccl, one process | hip.rccl, a process per GPU | torch.distributed (NCCL) |",
        "| --- | --- | --- | --- |",
    ]
    for nbytes in SIZES:
        lines.append(
            f"| {nbytes >> 20} MiB | {gb(nbytes, one[nbytes]):.1f} | {gb(nbytes, ranks[nbytes]):.1f} "
            f"| {gb(nbytes, torch_ranks[nbytes]):.1f} |"
        )
    lines += ["", "Peer copies (`hipMemcpyPeer`, 1 GiB, best of 5): "]
    lines[-1] += ", ".join(f"{k} {v:.1f} GB/s" for k, v in copies.items())
    text = "\n".join(lines) + "\n"
    print(text)
    (REPO / "benches" / "RESULTS-multi-gpu.md").write_text(text)


if __name__ == "__main__":
    main()
