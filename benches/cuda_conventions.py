#!/usr/bin/env python3
"""What cuda-python's conventions cost over the HIP call, on an NVIDIA GPU, in one run.

    HIP_PLATFORM=nvidia python3 benches/cuda_conventions.py

Needs hip-python and hip-python-as-cuda built with `./build_pkgs.sh --platform nvidia`
importable (ours shadows NVIDIA's `cuda.bindings`). Each row times a CUDA name of the `cuda`
package against the HIP call it makes, in the same process: a CUDA name whose convention is
HIP's is the HIP object (the row shows it), an adapted one is a compiled adapter calling the
HIP function's C symbol (hipgen's `cuda/adapters.rs`). Prints a Markdown table, also written
to benches/RESULTS-cuda-conventions.md.
"""

import ctypes
import platform
import sys
import timeit
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
# A module of this folder named like one of NVIDIA's packages (`nvidia`, where the CUDA runtime
# wheel is found) would shadow it for a script run from here: the folder leaves the path.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
KERNEL = b'extern "C" __global__ void empty(int *x) { }'


def best(*fns, number=100_000, repeat=7):
    """Nanoseconds per call of each function: the fastest of `repeat` runs, the functions
    taking turns (so a busy moment of the machine falls on all)."""
    times = [[] for _ in fns]
    for _ in range(repeat):
        for fn, out in zip(fns, times, strict=True):
            out.append(timeit.timeit(fn, number=number) / number * 1e9)
    return [min(t) for t in times]


def main():
    from cuda.bindings import driver as cu
    from cuda.bindings import runtime as rt

    from hip import hip, hiprtc

    assert getattr(rt, "HIP_PYTHON", False), "the cuda package here is not hip-python-as-cuda"
    cu.cuInit(0)
    err, dev = cu.cuDeviceGet(0)
    err, ctx = cu.cuCtxCreate(None, 0, dev)
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
    address = ctypes.addressof(params)

    def launches(*launchers):
        """ns per enqueue of each launcher: batches of 500 launches, synchronized between
        batches, the launchers taking turns (so a busy moment of the machine falls on all)."""
        times = [[] for _ in launchers]
        for _ in range(40):
            for launch, out in zip(launchers, times, strict=True):
                t = timeit.default_timer()
                for _ in range(500):
                    launch()
                out.append((timeit.default_timer() - t) / 500 * 1e9)
                hip.hipStreamSynchronize(stream)
        return [min(t) for t in times]

    pair = ((0,), (ctypes.c_void_p,))
    rows = [
        (
            "cudaGetDevice (convention = HIP's: the HIP object)",
            rt.cudaGetDevice is hip.hipGetDevice,
            *best(lambda: rt.cudaGetDevice(), lambda: hip.hipGetDevice()),
        ),
        (
            "cuDeviceGet (adapted: returns a CUdevice)",
            False,
            *best(lambda: cu.cuDeviceGet(0), lambda: hip.hipDeviceGet(0)),
        ),
        (
            "cuCtxGetDevice (adapted: returns a CUdevice)",
            False,
            *best(lambda: cu.cuCtxGetDevice(), lambda: hip.hipCtxGetDevice()),
        ),
        (
            "cudaGetDeviceProperties (adapted: cuda-python's struct class)",
            False,
            *best(
                lambda: rt.cudaGetDeviceProperties(0),
                lambda: hip.hipGetDeviceProperties(hip.hipDeviceProp_t(), 0),
                number=2_000,
            ),
        ),
        (
            "cuLaunchKernel, kernelParams as an address (adapted)",
            False,
            *launches(
                lambda: cu.cuLaunchKernel(fn, 1, 1, 1, 32, 1, 1, 0, stream, address, 0),
                lambda: hip.hipModuleLaunchKernel(fn, 1, 1, 1, 32, 1, 1, 0, stream, address, None),
            ),
        ),
        (
            "cuLaunchKernel, kernelParams as ((values), (types)) (adapted)",
            False,
            *launches(
                lambda: cu.cuLaunchKernel(fn, 1, 1, 1, 32, 1, 1, 0, stream, pair, 0),
                lambda: hip.hipModuleLaunchKernel(fn, 1, 1, 1, 32, 1, 1, 0, stream, address, None),
            ),
        ),
    ]
    cu.cuCtxDestroy(ctx)
    lines = [
        f"Machine: {props.name.decode()}, Python {platform.python_version()}, {platform.platform()}",
        "",
        "| CUDA call (cuda package) | CUDA name | HIP call it makes | ratio |",
        "| --- | --- | --- | --- |",
        *(
            f"| {name} | {a:.0f} ns | {b:.0f} ns | {'same object' if same else f'{a / b:.2f}'} |"
            for name, same, a, b in rows
        ),
    ]
    text = "\n".join(lines) + "\n"
    print(text)
    (REPO / "benches" / "RESULTS-cuda-conventions.md").write_text(
        "Written by `python3 benches/cuda_conventions.py` on a device machine; per-call figures "
        "are the fastest of 7 runs of 100,000 calls, launches the best of 40 batches of 500 "
        "enqueues, the three launchers taking turns.\n\n" + text
    )


if __name__ == "__main__":
    main()
