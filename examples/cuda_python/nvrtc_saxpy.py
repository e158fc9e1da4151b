"""NVRTC in cuda-python's idiom: compile a SAXPY kernel and fetch its code.

Runs unchanged on NVIDIA's cuda-python and on HIP through hip-python-as-cuda (there the
code is an AMD code object; set HIP_PYTHON_OFFLOAD_ARCH, e.g. gfx90a, where no GPU is).
"""

from typing import Any

from cuda import nvrtc

saxpy = """\
extern "C" __global__
void saxpy(float a, float *x, float *y, float *out, size_t n)
{
    size_t tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid < n) {
        out[tid] = a * x[tid] + y[tid];
    }
}
"""


def check(result: tuple[Any, ...]) -> Any:
    err = result[0]
    if err != nvrtc.nvrtcResult.NVRTC_SUCCESS:
        raise RuntimeError(f"NVRTC error {int(err)}: {nvrtc.nvrtcGetErrorString(err)[1].decode()}")
    return result[1:] if len(result) > 2 else (result[1] if len(result) == 2 else None)


prog = check(nvrtc.nvrtcCreateProgram(str.encode(saxpy), b"saxpy.cu", 0, [], []))
opts = [b"--fmad=false", b"--gpu-architecture=compute_80"]
(err,) = nvrtc.nvrtcCompileProgram(prog, 2, opts)
print("nvrtcCompileProgram:", int(err))
if err != nvrtc.nvrtcResult.NVRTC_SUCCESS:
    log_size = check(nvrtc.nvrtcGetProgramLogSize(prog))
    log = b" " * log_size
    check(nvrtc.nvrtcGetProgramLog(prog, log))
    print(log.decode(errors="replace"))
    raise SystemExit(1)
ptx_size = check(nvrtc.nvrtcGetPTXSize(prog))
ptx = b" " * ptx_size
check(nvrtc.nvrtcGetPTX(prog, ptx))
print("code size:", ptx_size)
print("code starts:", ptx[:4])
