#!/usr/bin/env python3
"""Our `cuda.bindings` (hip-python-as-cuda over HIP over CUDA) against NVIDIA's cuda-bindings:
NVIDIA's per-call set, one process per package, rounds alternating.

    OURS_PYTHONPATH=/path/to/site python3 benches/cuda_per_call.py   # on an NVIDIA machine

Both sides run the same code (`child()`, cuda-python's API alone): ours with hip-python and
hip-python-as-cuda on OURS_PYTHONPATH (its `cuda.bindings` comes first, so NVIDIA's is not
imported), theirs with the Python's own cuda-bindings. Each round starts one process per
side, who goes first alternating (BENCH_ROUNDS rounds, 5 by default); a process times each
call as NVIDIA's benchmarks do (a loop of calls through a local name, `time.perf_counter`),
the fastest of 7 loops; each side keeps its best round. BENCH_CPU=N runs both on core N. The
parent prints a Markdown table (also written to benches/RESULTS-cuda-per-call.md).
"""

import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "5"))
LOOPS = 100_000
#: Launches and copies per loop: fewer, as each costs microseconds.
LAUNCHES = 10_000
REPEATS = 7

KERNELS = b"""
extern "C" __global__ void args16(int *f, int *a0, int *a1, int *a2, int *a3, int *a4,
    int *a5, int *a6, int *a7, int *a8, int *a9, int *a10, int *a11, int *a12, int *a13,
    int *a14) { *f = 0; }
"""

#: (row, unit) in the order printed.
ROWS = [
    ("cuCtxGetCurrent", "ns"),
    ("cuDeviceGetAttribute", "ns"),
    ("cuEventQuery", "ns"),
    ("cudaGetDevice", "ns"),
    ("cuLaunchKernel, 16 arguments as (values, types)", "ns"),
    ("cuLaunchKernel, 16 arguments pre-packed (ctypes void *[16])", "ns"),
    ("cuMemcpyHtoD, 4 bytes", "ns"),
    ("cuCtxGetDevice", "ns"),
    ("cuDeviceGet", "ns"),
    ("cuStreamQuery", "ns"),
]


def check(result):
    status = result[0]
    if int(status) != 0:
        raise SystemExit(f"status {status!r}")
    return result[1] if len(result) == 2 else result[1:]


def child():
    """Sets up as NVIDIA's benchmarks do and times each call: {row: ns per call}."""
    import ctypes

    cpu = os.environ.get("BENCH_CPU")
    if cpu:
        # Both sides on the same core: a process moved between cores, or landing on a slower
        # one, moved whole rows by 10-15 % between runs.
        os.sched_setaffinity(0, {int(cpu)})

    from cuda.bindings import driver, nvrtc, runtime

    check(driver.cuInit(0))
    dev = check(driver.cuDeviceGet(0))
    ctx = check(driver.cuDevicePrimaryCtxRetain(dev))
    check(driver.cuCtxSetCurrent(ctx))
    attrs = driver.CUdevice_attribute
    major = check(driver.cuDeviceGetAttribute(attrs.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev))
    minor = check(driver.cuDeviceGetAttribute(attrs.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev))
    prog = check(nvrtc.nvrtcCreateProgram(KERNELS, b"bench.cu", 0, [], []))
    check(nvrtc.nvrtcCompileProgram(prog, 1, [f"--gpu-architecture=sm_{major}{minor}".encode()]))
    size = check(nvrtc.nvrtcGetPTXSize(prog))
    ptx = b" " * size
    check(nvrtc.nvrtcGetPTX(prog, ptx))
    module = check(driver.cuModuleLoadData(ptx))
    kernel = check(driver.cuModuleGetFunction(module, b"args16"))
    stream = check(driver.cuStreamCreate(driver.CUstream_flags.CU_STREAM_NON_BLOCKING.value))
    event = check(driver.cuEventCreate(driver.CUevent_flags.CU_EVENT_DISABLE_TIMING.value))
    check(driver.cuEventRecord(event, stream))
    check(driver.cuStreamSynchronize(stream))
    ints = [check(driver.cuMemAlloc(4)) for _ in range(16)]
    boxes = [ctypes.c_void_p(int(p)) for p in ints]
    packed = (ctypes.c_void_p * 16)(*[ctypes.addressof(b) for b in boxes])
    host = (ctypes.c_int * 1)(7)
    attr = attrs.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR
    args = (tuple(ints), (None,) * 16)

    def loop(fn, *a, loops=LOOPS):
        best = float("inf")
        for _ in range(REPEATS):
            t0 = time.perf_counter()
            for _ in range(loops):
                fn(*a)
            best = min(best, time.perf_counter() - t0)
            check(driver.cuStreamSynchronize(stream))
        return best / loops * 1e9

    launch = driver.cuLaunchKernel
    figures = {
        "cuCtxGetCurrent": loop(driver.cuCtxGetCurrent),
        "cuDeviceGetAttribute": loop(driver.cuDeviceGetAttribute, attr, dev),
        "cuEventQuery": loop(driver.cuEventQuery, event),
        "cudaGetDevice": loop(runtime.cudaGetDevice),
        ROWS[4][0]: loop(launch, kernel, 1, 1, 1, 1, 1, 1, 0, stream, args, 0, loops=LAUNCHES),
        ROWS[5][0]: loop(launch, kernel, 1, 1, 1, 1, 1, 1, 0, stream, packed, 0, loops=LAUNCHES),
        "cuMemcpyHtoD, 4 bytes": loop(driver.cuMemcpyHtoD, ints[0], host, 4, loops=LAUNCHES),
        "cuCtxGetDevice": loop(driver.cuCtxGetDevice),
        "cuDeviceGet": loop(driver.cuDeviceGet, 0),
        "cuStreamQuery": loop(driver.cuStreamQuery, stream),
    }
    # The calls did what they say: a launch ran, the copy arrived.
    out = (ctypes.c_int * 1)(0)
    check(driver.cuMemcpyDtoH(out, ints[0], 4))
    import cuda.bindings

    figures["_package"] = "ours" if getattr(cuda.bindings, "HIP_PYTHON", False) else "nvidia"
    figures["_copied"] = out[0]
    figures["_device"] = check(driver.cuDeviceGetName(64, dev)).split(b"\0")[0].decode()
    return figures


def run_side(env):
    res = subprocess.run(
        [sys.executable, __file__, "child"], env=env, capture_output=True, text=True, cwd="/tmp"
    )
    if res.returncode != 0:
        sys.exit(f"the benchmark failed:\n{res.stdout}\n{res.stderr}")
    return json.loads(res.stdout.strip().splitlines()[-1])


def main():
    if sys.argv[1:] == ["child"]:
        print(json.dumps(child()))
        return
    ours_env = dict(os.environ, PYTHONPATH=os.environ["OURS_PYTHONPATH"], HIP_PLATFORM="nvidia")
    theirs_env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    sides = {"ours": (ours_env, []), "nvidia": (theirs_env, [])}
    for r in range(ROUNDS):
        order = ["ours", "nvidia"] if r % 2 == 0 else ["nvidia", "ours"]
        for side in order:
            env, rounds = sides[side]
            figures = run_side(env)
            if figures["_package"] != side or figures["_copied"] != 7:
                sys.exit(f"{side}: wrong package or copy: {figures}")
            rounds.append(figures)
    best = {s: {row: min(f[row] for f in rounds) for row, _ in ROWS} for s, (_, rounds) in sides.items()}
    device = sides["ours"][1][0]["_device"]
    lines = [
        f"Machine: {device}, Python {platform.python_version()}, {platform.platform()}",
        "",
        "| call | ours (hip-python-as-cuda) | NVIDIA cuda-bindings | ours / theirs |",
        "| --- | --- | --- | --- |",
    ]
    for row, _ in ROWS:
        a, b = best["ours"][row], best["nvidia"][row]
        lines.append(f"| {row} | {a:.0f} ns | {b:.0f} ns | {a / b:.2f} |")
    text = "\n".join(lines) + "\n"
    print(text)
    (REPO / "benches" / "RESULTS-cuda-per-call.md").write_text(
        "Written by `python3 benches/cuda_per_call.py` on a device machine: one process per "
        f"package, {ROUNDS} rounds alternating who goes first, each figure the best round's "
        f"(in a round, the fastest of {REPEATS} loops of {LOOPS:,} calls, {LAUNCHES:,} for launches "
        "and copies)"
        + (f", both sides on core {os.environ['BENCH_CPU']}" if os.environ.get("BENCH_CPU") else "")
        + ".\n\n"
        + text
    )


if __name__ == "__main__":
    main()
