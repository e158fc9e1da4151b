#!/usr/bin/env python3
"""Threads hammering the bindings at once, every result checked against the same call made by
one thread first: a crash, a wrong result or memory that keeps growing fails the run.

    python tools/stress_threads.py [--threads 8] [--seconds 30] [--json FILE]

Each thread loops over a mix of calls that need no GPU, so it runs anywhere the packages
install: error strings (`hipGetErrorString`, the cached C strings and shared result tuples),
struct fields (a thread's own `dim3`s and one shared read-only `hipDeviceProp_t`), DeviceArrays
(`configure`, `__cuda_array_interface__`, item views), kernel argument packing (16 ctypes
values and pointers), NumPy arrays as pointer arguments, refused arguments (TypeError with the
bindings' message), hiprtc program handles destroyed and then refused, the cuda package's
adapters, and (one thread in four, now and then) a hiprtc compile. Under a free-threaded
interpreter the GIL must stay off (`sys._is_gil_enabled()`), which is checked too.

The resident set size is sampled once the threads are warm and at the end; more than
`--rss-slack` MiB of growth is a leak. Prints one JSON object; exits 1 on any failure.
"""

import argparse
import ctypes
import json
import os
import struct
import sys
import threading
import time

import numpy as np
from cuda.bindings import runtime

from hip import hip, hiprtc
from hip._native import DeviceArray, Pointer, pack_kernel_args

KERNEL = b'extern "C" __global__ void k(float *x, float a) { x[threadIdx.x] *= a; }'
#: The target of hiprtc's compiles (`--arch`; sm_90 on an H200, where NVRTC compiles).
ARCH = [b"--offload-arch=gfx90a"]


def rss_mib():
    """The resident set size in MiB; None where /proc is not mounted (a chroot)."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
    except OSError:
        return None


def gil_enabled():
    return getattr(sys, "_is_gil_enabled", lambda: True)()


class Expected:
    """Every answer, asked once by one thread before the others start."""

    def __init__(self):
        self.errors = [e for e in hip.hipError_t]
        self.strings = {e: hip.hipGetErrorString(e) for e in self.errors}
        self.cuda_strings = {e: runtime.cudaGetErrorString(e) for e in list(runtime.cudaError_t)[:64]}
        self.cuda_names = {e: runtime.cudaGetErrorName(e) for e in list(runtime.cudaError_t)[:64]}
        self.pack_values = [ctypes.c_int(i) if i % 3 else ctypes.c_double(i / 4) for i in range(14)]
        self.pack_values += [Pointer(0x1000), ctypes.c_float(2.5)]
        self.packed = bytes(pack_kernel_args(self.pack_values))
        check(self.packed == self._laid_out(self.pack_values), "pack_kernel_args's layout")
        self.shared_props = hip.hipDeviceProp_t()
        self.shared_props.maxThreadsPerBlock = 1024
        self.refusal = self._refusal()
        self.compiled = self.compile()

    @staticmethod
    def _laid_out(values):
        """The values as C lays out a struct of them: each at its alignment."""
        out = b""
        for v in values:
            if isinstance(v, Pointer):
                data, align = struct.pack("<Q", int(v)), 8
            else:
                data, align = bytes(v), ctypes.alignment(v)
            out += b"\0" * (-len(out) % align) + data
        return out

    @staticmethod
    def _refusal():
        try:
            hip.hipGetErrorString("not an error")
        except TypeError as e:
            return str(e)
        raise AssertionError("a str was taken as a hipError_t")

    @staticmethod
    def compile():
        status, prog = hiprtc.hiprtcCreateProgram(KERNEL, b"k.cu", 0, None, None)
        assert status == hiprtc.hiprtcResult.HIPRTC_SUCCESS, status
        (status,) = hiprtc.hiprtcCompileProgram(prog, 1, ARCH)
        assert status == hiprtc.hiprtcResult.HIPRTC_SUCCESS, status
        _, size = hiprtc.hiprtcGetCodeSize(prog)
        code = bytearray(size)
        hiprtc.hiprtcGetCode(prog, code)
        hiprtc.hiprtcDestroyProgram(prog)
        return code[:4], size


def check(cond, what):
    if not cond:
        raise AssertionError(what)


def one_round(x, rng, compiles):
    """One of each kind of call, each answer checked."""
    e = x.errors[rng % len(x.errors)]
    check(hip.hipGetErrorString(e) == x.strings[e], f"hipGetErrorString({e!r})")
    ce = next(iter(x.cuda_strings))
    check(runtime.cudaGetErrorString(ce) == x.cuda_strings[ce], "cudaGetErrorString")
    ne = list(x.cuda_names)[rng % len(x.cuda_names)]
    check(runtime.cudaGetErrorName(ne) == x.cuda_names[ne], "cudaGetErrorName")
    # A thread's own structs, and one shared struct only read.
    d = hip.dim3(rng, 2, 3)
    d.y = rng + 1
    check((d.x, d.y, d.z) == (rng, rng + 1, 3), "dim3 fields")
    check(x.shared_props.maxThreadsPerBlock == 1024, "shared struct field")
    # A DeviceArray's shape and views.
    a = DeviceArray(Pointer(0x10000 + 256 * (rng % 7))).configure(
        _force=True, typestr="float32", shape=(4, 8)
    )
    iface = a.__cuda_array_interface__
    check(iface["shape"] == (4, 8) and iface["data"][0] == 0x10000 + 256 * (rng % 7), "DeviceArray")
    check(int(a[1]) == iface["data"][0] + 32, "DeviceArray row view")
    # Kernel arguments: 16 values packed.
    check(bytes(pack_kernel_args(x.pack_values)) == x.packed, "pack_kernel_args")
    # A NumPy array as a pointer argument (no GPU here: the runtime answers an error status,
    # and the conversion must not be what fails).
    host = np.arange(16, dtype=np.float32)
    result = hip.hipMemcpy(host, host, host.nbytes, hip.hipMemcpyKind.hipMemcpyHostToHost)
    check(isinstance(result[0], hip.hipError_t), "hipMemcpy status")
    # A refused argument, with the bindings' message.
    try:
        hip.hipGetErrorString("not an error")
    except TypeError as err:
        check(str(err) == x.refusal, "refusal message")
    else:
        raise AssertionError("a str was taken as a hipError_t")
    # A handle destroyed, then refused.
    status, prog = hiprtc.hiprtcCreateProgram(KERNEL, b"k.cu", 0, None, None)
    check(status == hiprtc.hiprtcResult.HIPRTC_SUCCESS, "hiprtcCreateProgram")
    hiprtc.hiprtcDestroyProgram(prog)
    try:
        hiprtc.hiprtcDestroyProgram(prog)
    except ValueError:
        pass
    else:
        raise AssertionError("a destroyed program was taken again")
    if compiles:
        check(Expected.compile() == x.compiled, "hiprtc compile")


def worker(x, index, stop, counts, failures, compile_every):
    rng = index * 7919
    n = 0
    try:
        while not stop.is_set():
            rng = (rng * 1103515245 + 12345) & 0x7FFFFFFF
            compiles = compile_every and index % 4 == 0 and n % compile_every == compile_every - 1
            one_round(x, rng % 1000, compiles)
            n += 1
    except BaseException as e:  # noqa: BLE001 - every failure is reported
        failures.append(f"thread {index}: {type(e).__name__}: {e}")
        stop.set()
    counts[index] = n


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--threads", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument(
        "--compile-every", type=int, default=200, help="rounds between a thread's compiles (0: none)"
    )
    parser.add_argument("--rss-slack", type=float, default=16, help="MiB the RSS may grow once warm")
    parser.add_argument("--json", help="also write the result here")
    parser.add_argument("--arch", default="gfx90a", help="the GPU architecture compiled for")
    args = parser.parse_args(argv)
    ARCH[0] = f"--offload-arch={args.arch}".encode()

    x = Expected()
    stop = threading.Event()
    counts = [0] * args.threads
    failures = []
    threads = [
        threading.Thread(target=worker, args=(x, i, stop, counts, failures, args.compile_every))
        for i in range(args.threads)
    ]
    start = time.perf_counter()
    for t in threads:
        t.daemon = True  # a failure of this thread's own must not leave them running
        t.start()
    try:
        time.sleep(min(args.seconds / 5, 5))
        warm = rss_mib()
        gil_during = gil_enabled()
        time.sleep(max(args.seconds - (time.perf_counter() - start), 0))
    finally:
        stop.set()
        for t in threads:
            t.join()
    end = rss_mib()
    elapsed = time.perf_counter() - start
    result = {
        "python": sys.version.split()[0] + ("t" if not gil_during else ""),
        "gil_enabled": gil_during,
        "threads": args.threads,
        "seconds": round(elapsed, 1),
        "rounds": sum(counts),
        "rounds_per_second": round(sum(counts) / elapsed),
        "rss_warm_mib": None if warm is None else round(warm, 1),
        "rss_end_mib": None if end is None else round(end, 1),
        "failures": failures[:10],
    }
    if warm is not None and end is not None and end - warm > args.rss_slack:
        failures.append(f"RSS grew {end - warm:.1f} MiB once warm (slack {args.rss_slack})")
        result["failures"] = failures[:10]
    print(json.dumps(result))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(result, f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
