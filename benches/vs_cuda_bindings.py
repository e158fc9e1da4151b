#!/usr/bin/env python3
"""Our bindings on NVIDIA against NVIDIA's cuda-bindings, side by side on one GPU, in one run.

    python3 benches/vs_cuda_bindings.py            # on a machine with an NVIDIA GPU and cuda-bindings

Ours is hip-python built with `./build_pkgs.sh --platform nvidia` (importable as `hip`, from
OURS_PYTHONPATH; hip-python-as-cuda must not be on that path, its `cuda` would shadow
NVIDIA's); theirs is `cuda.bindings` of the same Python. Both load into one process, which
measures per-call overhead of calls that stay in the runtime (`hipGetErrorString` /
`cudaGetErrorString`, `hipGetDevice` / `cudaGetDevice`) and the cost of launching an empty
kernel through the driver API (enqueue, and launch + synchronize), the two sides in turn
(BENCH_ROUNDS rounds, 5 by default, who goes first alternating), keeping each side's best
round; the parent prints a Markdown table (also written to benches/RESULTS-nvidia.md).
"""

import json
import os
import platform
import subprocess
import sys
import timeit
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
KERNEL = b'extern "C" __global__ void empty(int *x) { }'
LAUNCHES = 500
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "5"))


def best(fn, number=200000, repeat=7):
    return min(timeit.repeat(fn, number=number, repeat=repeat)) / number * 1e9


def launch_latency(launch, sync):
    """(enqueue cost, launch-to-completion) in µs: batches of launches timed without the
    synchronize that follows (a batch stays below the driver's queue depth), and single
    launches each followed by a synchronize."""
    status = launch()[0]
    if int(status) != 0:
        raise SystemExit(f"the launch failed: {status!r}")
    sync()
    enqueue = []
    for _ in range(40):
        t = timeit.default_timer()
        for _ in range(LAUNCHES):
            launch()
        enqueue.append((timeit.default_timer() - t) / LAUNCHES * 1e6)
        sync()
    roundtrip = []
    for _ in range(2000):
        t = timeit.default_timer()
        launch()
        sync()
        roundtrip.append((timeit.default_timer() - t) * 1e6)
    roundtrip.sort()
    return min(enqueue), roundtrip[len(roundtrip) // 2]


def ours():
    """Our calls: name -> what to time (the launch as (launch, synchronize)), and the GPU."""
    import ctypes

    from hip import hip, hiprtc

    calls = {
        "hipGetErrorString": lambda: hip.hipGetErrorString(hip.hipError_t.hipErrorInvalidValue),
        "hipGetDevice": lambda: hip.hipGetDevice(),
    }
    props = hip.hipDeviceProp_t()
    hip.hipGetDeviceProperties(props, 0)
    err, prog = hiprtc.hiprtcCreateProgram(KERNEL, b"empty.cu", 0, None, None)
    hiprtc.hiprtcCompileProgram(prog, 1, [f"--offload-arch=sm_{props.major}{props.minor}".encode()])
    err, size = hiprtc.hiprtcGetCodeSize(prog)
    code = bytearray(size)
    hiprtc.hiprtcGetCode(prog, code)
    err, module = hip.hipModuleLoadData(bytes(code))
    err, fn = hip.hipModuleGetFunction(module, b"empty")
    err, stream = hip.hipStreamCreate()
    arg = ctypes.c_void_p(0)
    params = (ctypes.c_void_p * 1)(ctypes.addressof(arg))
    # The same argument forms as theirs: the parameter array by address.
    address = ctypes.addressof(params)
    calls["launch (kernelParams)"] = (
        lambda: hip.hipModuleLaunchKernel(fn, 1, 1, 1, 32, 1, 1, 0, stream, address, None),
        lambda: hip.hipStreamSynchronize(stream),
    )
    keep = (arg, params)
    name = props.name.decode() if isinstance(props.name, bytes) else str(props.name)
    return calls, name, keep


def theirs():
    """NVIDIA's calls, as `ours()` gives ours."""
    import ctypes

    from cuda.bindings import driver, nvrtc, runtime

    calls = {
        "hipGetErrorString": lambda: runtime.cudaGetErrorString(runtime.cudaError_t.cudaErrorInvalidValue),
        "hipGetDevice": lambda: runtime.cudaGetDevice(),
    }
    err, props = runtime.cudaGetDeviceProperties(0)
    # The driver API needs a current context; the runtime makes the primary one current.
    runtime.cudaFree(0)
    err, prog = nvrtc.nvrtcCreateProgram(KERNEL, b"empty.cu", 0, [], [])
    nvrtc.nvrtcCompileProgram(prog, 1, [f"--gpu-architecture=sm_{props.major}{props.minor}".encode()])
    err, size = nvrtc.nvrtcGetPTXSize(prog)
    ptx = b" " * size
    nvrtc.nvrtcGetPTX(prog, ptx)
    err, module = driver.cuModuleLoadData(ptx)
    assert int(err) == 0, err
    err, fn = driver.cuModuleGetFunction(module, b"empty")
    err, stream = driver.cuStreamCreate(0)
    arg = ctypes.c_void_p(0)
    params = (ctypes.c_void_p * 1)(ctypes.addressof(arg))
    address = ctypes.addressof(params)
    calls["launch (kernelParams)"] = (
        lambda: driver.cuLaunchKernel(fn, 1, 1, 1, 32, 1, 1, 0, stream, address, 0),
        lambda: driver.cuStreamSynchronize(stream),
    )
    return calls, None, (arg, params)


def measure(call):
    """One figure: ns per call, or (enqueue µs, launch + synchronize µs) for a launch pair."""
    return launch_latency(*call) if isinstance(call, tuple) else best(call)


def interleaved(sides):
    """Each figure of each side, the sides measured in turn (who goes first alternating) for
    ROUNDS rounds, in one process; the best round of each side is kept."""
    figures = [{} for _ in sides]
    for r in range(ROUNDS):
        for name in sides[0]:
            order = range(len(sides)) if r % 2 == 0 else reversed(range(len(sides)))
            for i in order:
                figures[i].setdefault(name, []).append(measure(sides[i][name]))
    return [{k: best_of(v) for k, v in f.items()} for f in figures]


def best_of(values):
    """The smallest of several rounds' figures (per item for the launch pair)."""
    if isinstance(values[0], tuple):
        return [min(v) for v in zip(*values, strict=True)]
    return min(values)


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "both":
        # Each side: (calls, GPU name, the ctypes buffers its launches point into, kept alive).
        mine, nvidia = ours(), theirs()
        a, b = interleaved([mine[0], nvidia[0]])
        a["device"] = mine[1]
        print(json.dumps([a, b]))
        return
    ours_path = os.environ.get("OURS_PYTHONPATH", "")
    # Both packages in one process (ours is `hip`; NVIDIA's `cuda` is not shadowed where
    # hip-python-as-cuda is not on the path), measured in turn: load on the shared host then
    # falls on both sides alike.
    env = dict(os.environ, PYTHONPATH=ours_path, HIP_PLATFORM="nvidia")
    res = subprocess.run(
        [sys.executable, __file__, "both"], env=env, capture_output=True, text=True, cwd="/tmp"
    )
    if res.returncode != 0:
        sys.exit(f"the benchmark failed:\n{res.stderr}")
    a, b = json.loads(res.stdout)
    (ae, ar), (be, br) = a["launch (kernelParams)"], b["launch (kernelParams)"]
    rows = [
        (
            "call: hipGetErrorString / cudaGetErrorString",
            a["hipGetErrorString"],
            b["hipGetErrorString"],
            "ns",
        ),
        ("call: hipGetDevice / cudaGetDevice", a["hipGetDevice"], b["hipGetDevice"], "ns"),
        ("kernel launch, enqueue (hipModuleLaunchKernel / cuLaunchKernel)", ae, be, "µs"),
        ("kernel launch + stream synchronize, median", ar, br, "µs"),
    ]
    fmt = {"ns": "{:.0f} ns", "µs": "{:.2f} µs"}
    lines = [
        f"Machine: {a['device']}, Python {platform.python_version()}, {platform.platform()}",
        "",
        "| measurement | ours (HIP over CUDA) | NVIDIA cuda-bindings | ours / theirs |",
        "| --- | --- | --- | --- |",
        *(
            f"| {name} | {fmt[unit].format(x)} | {fmt[unit].format(y)} | {x / y:.2f} |"
            for name, x, y, unit in rows
        ),
    ]
    text = "\n".join(lines) + "\n"
    print(text)
    (REPO / "benches" / "RESULTS-nvidia.md").write_text(
        "Written by `python3 benches/vs_cuda_bindings.py` on a device machine; both sides in one process, "
        f"measured in turn, {ROUNDS} rounds each, each figure the best round's: per-call figures the "
        f"fastest of 7 runs of 200,000 calls; enqueue cost the best of 40 batches of {LAUNCHES} "
        "launches; launch + synchronize the median of 2,000.\n\n" + text
    )


if __name__ == "__main__":
    main()
