#!/usr/bin/env python3
"""Calls per second from 1, 2, 4 and 8 threads at once, under the interpreter that runs this
(the free-threaded build is where threads can scale; with the GIL they take turns).

    python benches/threads.py [--seconds 2] [--threads 1,2,4,8] [--compile] [--json FILE]

Workloads, each thread looping on its own objects: `hipGetErrorString` (a call that returns a
cached C string), a NumPy array as a pointer argument (`hiprtcGetProgramLog` copying a short
log into it) and packing 16 kernel arguments (ctypes values and pointers). With --compile:
hiprtc compiles of a small kernel instead (run it in a ROCm root, tools/rocm-run.sh, to time
that release's compiler). Prints a Markdown table and, with --json, the figures.
"""

import argparse
import ctypes
import json
import sys
import sysconfig
import threading
import time

import numpy as np

from hip import hip, hiprtc
from hip._native import Pointer, libraries, pack_kernel_args

SOURCE = b'extern "C" __global__ void k(float *x, float a) { x[threadIdx.x] *= a; }'
#: The target of hiprtc's compiles (`--arch`: sm_90 on an H200, where NVRTC compiles).
ARCH = [b"--offload-arch=gfx90a"]


def compile_once():
    _, prog = hiprtc.hiprtcCreateProgram(SOURCE, b"k.cu", 0, None, None)
    (status,) = hiprtc.hiprtcCompileProgram(prog, 1, ARCH)
    assert status == hiprtc.hiprtcResult.HIPRTC_SUCCESS, status
    hiprtc.hiprtcDestroyProgram(prog)


def workloads():
    """name -> a function making one thread's call (its own objects)."""
    err = hip.hipError_t.hipErrorInvalidValue

    def error_string():
        return lambda: hip.hipGetErrorString(err)

    def error_string_int():
        # The same call given a plain int: CPython's small ints are immortal, so no thread
        # changes a count of the argument's (every thread passing one enum member does).
        code = int(err)
        return lambda: hip.hipGetErrorString(code)

    def c_function(module, symbol, argtypes, restype=ctypes.c_int):
        # The C function under one of ours, called through ctypes, a function object per thread:
        # how far the library itself lets the call scale (on NVIDIA: the HIP shim and the CUDA
        # runtime behind it, NVRTC behind hiprtc).
        path = next(p for name, _, loaded, p in libraries() if name == module and loaded)
        fn = getattr(ctypes.CDLL(path), symbol)
        fn.argtypes, fn.restype = argtypes, restype
        return fn

    def library_floor():
        hip.hipGetErrorString(err)  # the library loaded
        fn = c_function("hip", "hipGetErrorString", [ctypes.c_int], ctypes.c_void_p)
        code = int(err)
        return lambda: fn(code)

    def compiled_program():
        """A thread's own compiled program and a NumPy buffer its log fits in."""
        _, prog = hiprtc.hiprtcCreateProgram(SOURCE, b"k.cu", 0, None, None)
        hiprtc.hiprtcCompileProgram(prog, 1, ARCH)
        _, size = hiprtc.hiprtcGetProgramLogSize(prog)
        return prog, np.zeros(max(size, 64), np.uint8)

    def program_log_floor():
        prog, host = compiled_program()
        fn = c_function("hiprtc", "hiprtcGetProgramLog", [ctypes.c_void_p, ctypes.c_void_p])
        handle, data = int(prog), host.ctypes.data
        return lambda: (fn(handle, data), prog, host)[0]

    def numpy_pointer():
        prog, host = compiled_program()
        return lambda: hiprtc.hiprtcGetProgramLog(prog, host)

    def kernel_pack():
        values = [ctypes.c_int(i) if i % 2 else ctypes.c_float(i) for i in range(12)]
        values += [Pointer(0x1000 * i) for i in range(1, 5)]
        return lambda: pack_kernel_args(values)

    def builtin_floor():
        # CPython's own C call through a shared function object: how far the interpreter
        # itself scales a call this small (its shared objects' reference counts).
        empty = ()
        return lambda: len(empty)

    return {
        "floor: builtin len(())": builtin_floor,
        "hipGetErrorString": error_string,
        "hipGetErrorString, an int argument": error_string_int,
        "floor: hipGetErrorString's C function through ctypes": library_floor,
        "NumPy pointer argument (hiprtcGetProgramLog)": numpy_pointer,
        "floor: hiprtcGetProgramLog's C function through ctypes": program_log_floor,
        "16 kernel arguments packed": kernel_pack,
    }


def rate(make_call, threads, seconds, batch=200):
    """Calls per second of `threads` threads each calling its own `make_call()` for `seconds`."""
    calls = [make_call() for _ in range(threads)]
    counts = [0] * threads
    start = threading.Barrier(threads + 1)
    stop = threading.Event()

    def loop(i):
        call = calls[i]
        start.wait()
        n = 0
        while not stop.is_set():
            for _ in range(batch):
                call()
            n += batch
        counts[i] = n

    workers = [threading.Thread(target=loop, args=(i,)) for i in range(threads)]
    for w in workers:
        w.start()
    start.wait()
    t0 = time.perf_counter()
    time.sleep(seconds)
    stop.set()
    for w in workers:
        w.join()
    return sum(counts) / (time.perf_counter() - t0)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--threads", default="1,2,4,8")
    parser.add_argument("--compile", action="store_true", help="time hiprtc compiles instead")
    parser.add_argument("--json")
    parser.add_argument("--arch", default="gfx90a", help="the GPU architecture compiled for")
    args = parser.parse_args(argv)
    ARCH[0] = f"--offload-arch={args.arch}".encode()
    counts = [int(n) for n in args.threads.split(",")]
    if args.compile:
        compile_once()  # the compiler loaded and warm before timing
        table = {"hiprtc compiles": {n: rate(lambda: compile_once, n, args.seconds, batch=1) for n in counts}}
        unit = "compiles/s"
    else:
        table = {name: {n: rate(make, n, args.seconds) for n in counts} for name, make in workloads().items()}
        unit = "calls/s"
    free = bool(sysconfig.get_config_var("Py_GIL_DISABLED")) and not sys._is_gil_enabled()
    _, major, minor = hiprtc.hiprtcVersion()
    print(f"Python {sys.version.split()[0]}{'t, GIL off' if free else ', GIL on'}; hiprtc {major}.{minor}\n")
    print(f"| {unit} | " + " | ".join(f"{n} thread{'s' if n > 1 else ''}" for n in counts) + " |")
    print("| --- |" + " ---: |" * len(counts))
    for name, row in table.items():
        one = row[counts[0]]
        cells = [f"{row[n]:,.0f}" + (f" ({row[n] / one:.2f}x)" if n != counts[0] else "") for n in counts]
        print(f"| {name} | " + " | ".join(cells) + " |")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"free_threaded": free, "hiprtc": [major, minor], "unit": unit, "table": table}, f)


if __name__ == "__main__":
    main()
