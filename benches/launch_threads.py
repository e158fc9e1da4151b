#!/usr/bin/env python3
"""Kernel launches from 1, 2, 4 and 8 threads at once, each thread on a stream and a buffer of
its own, every result checked: launches per second per thread count beside one thread.

    python benches/launch_threads.py [--arch sm_90] [--launches 2000] [--threads 1,2,4,8]

Needs a GPU (AMD, or NVIDIA through the NVIDIA wheels). Each thread zeroes its buffer, launches
`add(x, 1.0f, n)` `--launches` times on its stream (`hipModuleLaunchKernel`, arguments packed
from `extra`), synchronizes the stream and copies the buffer back: every element must equal
the number of launches. Under a free-threaded interpreter the GIL must stay off.
"""

import argparse
import ctypes
import json
import sys
import threading
import time

from hip import hip, hiprtc

SOURCE = b"""
extern "C" __global__ void add(float* x, float v, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] += v;
}
"""
N = 256


def check(result):
    status, *rest = result
    if status != 0:
        raise RuntimeError(repr(status))
    return rest[0] if len(rest) == 1 else rest


def compile_kernel(arch):
    prog = check(hiprtc.hiprtcCreateProgram(SOURCE, b"add.hip", 0, None, None))
    (status,) = hiprtc.hiprtcCompileProgram(prog, 1, [f"--offload-arch={arch}".encode()])
    if status != hiprtc.hiprtcResult.HIPRTC_SUCCESS:
        raise RuntimeError(f"compile: {status!r}")
    code = bytearray(check(hiprtc.hiprtcGetCodeSize(prog)))
    check(hiprtc.hiprtcGetCode(prog, code))
    hiprtc.hiprtcDestroyProgram(prog)
    return bytes(code)


def run(kernel, threads, launches):
    """Launches per second of `threads` threads each launching `launches` times."""
    errors = []
    barrier = threading.Barrier(threads + 1)
    done = threading.Barrier(threads + 1)

    def job():
        try:
            check(hip.hipSetDevice(0))
            stream = check(hip.hipStreamCreate())
            dev = check(hip.hipMalloc(N * 4))
            check(hip.hipMemsetAsync(dev, 0, N * 4, stream))
            check(hip.hipStreamSynchronize(stream))
            args = (dev, ctypes.c_float(1.0), ctypes.c_int(N))
            barrier.wait()
            for _ in range(launches):
                check(hip.hipModuleLaunchKernel(kernel, 1, 1, 1, N, 1, 1, 0, stream, None, args))
            check(hip.hipStreamSynchronize(stream))
            done.wait()
            host = (ctypes.c_float * N)()
            check(hip.hipMemcpy(host, dev, N * 4, hip.hipMemcpyKind.hipMemcpyDeviceToHost))
            if any(v != launches for v in host):
                errors.append(f"wrong result: {sorted(set(host))[:4]} != {launches}")
            check(hip.hipFree(dev))
            check(hip.hipStreamDestroy(stream))
        except BaseException as e:  # noqa: BLE001 - reported below
            errors.append(f"{type(e).__name__}: {e}")
            barrier.abort()
            done.abort()

    workers = [threading.Thread(target=job) for _ in range(threads)]
    for w in workers:
        w.start()
    try:
        barrier.wait()
        t0 = time.perf_counter()
        done.wait()
        elapsed = time.perf_counter() - t0
    except threading.BrokenBarrierError:
        elapsed = float("nan")
    for w in workers:
        w.join()
    if errors:
        raise RuntimeError("; ".join(errors[:4]))
    return threads * launches / elapsed


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--arch", default="sm_90")
    parser.add_argument("--launches", type=int, default=2000)
    parser.add_argument("--threads", default="1,2,4,8")
    parser.add_argument("--json")
    args = parser.parse_args(argv)
    code = compile_kernel(args.arch)
    module = check(hip.hipModuleLoadData(code))
    kernel = check(hip.hipModuleGetFunction(module, b"add"))
    run(kernel, 1, 100)  # warm: the context, the module, the first launches
    counts = [int(n) for n in args.threads.split(",")]
    rates = {n: run(kernel, n, args.launches) for n in counts}
    gil = getattr(sys, "_is_gil_enabled", lambda: True)()
    print(f"Python {sys.version.split()[0]}, GIL {'on' if gil else 'off'}; results checked\n")
    print("| threads | launches/s | vs 1 thread |\n| --- | ---: | ---: |")
    for n in counts:
        print(f"| {n} | {rates[n]:,.0f} | {rates[n] / rates[counts[0]]:.2f}x |")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"gil_enabled": gil, "python": sys.version, "launches_per_second": rates}, f)
    return 0


if __name__ == "__main__":
    sys.exit(main())
