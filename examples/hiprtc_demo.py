"""Compile a HIP kernel with hiprtc, inspect the code object, and launch it if a GPU exists.

Run: python examples/hiprtc_demo.py [--arch gfx90a]   (on NVIDIA: --arch sm_90)
"""

import argparse
import ctypes
import struct
import sys
from typing import Any

from hip import hip, hiprtc

SOURCE = b"""
extern "C" __global__ void scale(float* x, float a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= a;
}
"""

EM_AMDGPU = 0xE0


def check(result: tuple[Any, ...]) -> Any:
    """Raises on a failed status and returns the remaining results."""
    status, *rest = result
    if status != 0:
        raise RuntimeError(f"{status!r}")
    return rest[0] if len(rest) == 1 else rest


def compile_kernel(arch: str) -> bytes:
    prog = check(hiprtc.hiprtcCreateProgram(SOURCE, b"scale.hip", 0, None, None))
    try:
        (status,) = hiprtc.hiprtcCompileProgram(prog, 1, [f"--offload-arch={arch}".encode()])
        if status != hiprtc.hiprtcResult.HIPRTC_SUCCESS:
            log = bytearray(check(hiprtc.hiprtcGetProgramLogSize(prog)))
            hiprtc.hiprtcGetProgramLog(prog, log)
            raise RuntimeError(f"compilation failed:\n{log.decode(errors='replace')}")
        code = bytearray(check(hiprtc.hiprtcGetCodeSize(prog)))
        check(hiprtc.hiprtcGetCode(prog, code))
        return bytes(code)
    finally:
        hiprtc.hiprtcDestroyProgram(prog)


def launch(code: bytes) -> bool:
    n = 1024
    data = (ctypes.c_float * n)(*range(n))
    module = check(hip.hipModuleLoadData(code))
    kernel = check(hip.hipModuleGetFunction(module, b"scale"))
    dev = check(hip.hipMalloc(n * 4))
    check(hip.hipMemcpy(dev, data, n * 4, hip.hipMemcpyKind.hipMemcpyHostToDevice))
    check(
        hip.hipModuleLaunchKernel(
            kernel,
            n // 256,
            1,
            1,
            256,
            1,
            1,
            0,
            None,
            None,
            (dev, ctypes.c_float(2.0), ctypes.c_int(n)),
        )
    )
    check(hip.hipDeviceSynchronize())
    check(hip.hipMemcpy(data, dev, n * 4, hip.hipMemcpyKind.hipMemcpyDeviceToHost))
    check(hip.hipFree(dev))
    check(hip.hipModuleUnload(module))
    ok = all(data[i] == 2.0 * i for i in range(n))
    print(f"kernel ran on the GPU: x[10] = {data[10]}, all {n} results {'correct' if ok else 'WRONG'}")
    return ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--arch", default="gfx90a")
    args = parser.parse_args()

    status, version = hip.hipRuntimeGetVersion()
    print(f"HIP runtime version: {version} ({status.name})")
    code = compile_kernel(args.arch)
    (machine,) = struct.unpack_from("<H", code, 18)
    if code[:4] == b"\x7fELF" and machine == EM_AMDGPU:
        kind = "AMD GPU ELF"
    elif code.startswith(b"//") and b".target" in code:
        kind = "NVIDIA PTX"  # the NVIDIA platform: hiprtc is NVRTC
    else:
        kind = "unknown"
    print(f"hiprtc compiled 'scale' for {args.arch}: {len(code)} bytes, {kind} code object")

    status, count = hip.hipGetDeviceCount()
    if status != hip.hipError_t.hipSuccess or count == 0:
        print(f"no GPU to launch on: hipGetDeviceCount -> {status.name}")
        return 0
    return 0 if launch(code) else 1


if __name__ == "__main__":
    sys.exit(main())
