"""Per-call timings of one binding package (ours or hip-python), printed as JSON.

Run under the interpreter whose `hip` package is measured; `benches/run.py` runs it under each
(ours, hip-python 6.4.3 and 7.2.2, rocm-bindings 10.0's hip-python shim). A figure a package
cannot give (its call raises) is left out.
Only calls that do not enter the HIP runtime are timed (the runtime itself costs ~15 µs per
call here while it retries device discovery), so the figures are the bindings' own overhead.
"""

import ctypes
import json
import sys
import timeit

import numpy as np

from hip import hip, hiprtc

try:
    from hip._util.types import DeviceArray
except ImportError:
    DeviceArray = None

SOURCE = b'extern "C" __global__ void k(float* x) { x[0] = 1; }'


def best(fn, number=200_000, repeat=7):
    """Nanoseconds per call: the fastest of `repeat` runs (least disturbed by the machine);
    None if the call raises."""
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - a package without this call has no figure
        print(f"left out: {e!r}", file=sys.stderr)
        return None
    return min(timeit.repeat(fn, number=number, repeat=repeat)) / number * 1e9


def refused(call):
    """`call` wrapped to catch the TypeError it must raise; a call that does not raise one
    fails, so the figure is left out."""

    def f():
        try:
            call()
        except TypeError:
            return
        raise AssertionError("accepted an argument it should refuse")

    return f


class HostAsDevice:
    """Host memory presented through `__cuda_array_interface__`, so DeviceArray can wrap it."""

    def __init__(self, array):
        self.__cuda_array_interface__ = {
            "shape": array.shape,
            "typestr": array.dtype.str,
            "data": (array.ctypes.data, False),
            "strides": None,
            "version": 3,
        }


def main():
    results = {}
    err = hip.hipError_t.hipErrorNoDevice
    rtc_err = hiprtc.hiprtcResult.HIPRTC_ERROR_COMPILATION
    results["hipGetErrorString"] = best(lambda: hip.hipGetErrorString(err))
    results["hipGetErrorName"] = best(lambda: hip.hipGetErrorName(err))
    results["hiprtcGetErrorString"] = best(lambda: hiprtc.hiprtcGetErrorString(rtc_err))
    results["hiprtcVersion (2 out params)"] = best(lambda: hiprtc.hiprtcVersion())

    # A refused argument: the TypeError built, raised and caught (a program that tries one
    # form, then another, pays this).
    junk = object()
    for label, call in (
        ("refused argument: hipStreamSynchronize(object())", lambda: hip.hipStreamSynchronize(junk)),
        ("refused argument: hipGetErrorString(object())", lambda: hip.hipGetErrorString(junk)),
    ):
        results[label] = best(refused(call))

    d = hip.dim3(x=4)
    results["struct field get (dim3.x)"] = best(lambda: d.x)

    def set_x():
        d.x = 7

    results["struct field set (dim3.x = 7)"] = best(set_x)

    # A pointer argument: hiprtcGetProgramLog copies the (short) log into the buffer given.
    try:
        _, prog = hiprtc.hiprtcCreateProgram(SOURCE, b"k.hip", 0, None, None)
        hiprtc.hiprtcCompileProgram(prog, 1, [b"--offload-arch=gfx90a"])
        _, size = hiprtc.hiprtcGetProgramLogSize(prog)
    except Exception as e:  # noqa: BLE001 - no program, no pointer-argument figures
        print(f"left out: pointer arguments: {e!r}", file=sys.stderr)
        prog = None
    if prog is not None:
        host = np.zeros(max(size, 64), np.uint8)
        results["pointer arg: numpy array"] = best(lambda: hiprtc.hiprtcGetProgramLog(prog, host))
        try:
            dev = DeviceArray(HostAsDevice(host))
        except (TypeError, AttributeError):
            # hip-python 6.4.3's DeviceArray cannot wrap such an object (its configure() call
            # raises); without a GPU, hipMalloc cannot make one either.
            dev = None
        if dev is not None:
            results["pointer arg: DeviceArray"] = best(lambda: hiprtc.hiprtcGetProgramLog(prog, dev))

    lib = ctypes.CDLL("libamdhip64.so.5")
    lib.hipGetErrorString.restype = ctypes.c_char_p
    lib.hipGetErrorString.argtypes = [ctypes.c_int]
    results["ctypes: hipGetErrorString"] = best(lambda: lib.hipGetErrorString(100))
    empty = ()
    results["builtin call floor: len(())"] = best(lambda: len(empty))
    json.dump({k: v for k, v in results.items() if v is not None}, sys.stdout)


if __name__ == "__main__":
    main()
