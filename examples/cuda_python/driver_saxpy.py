"""The CUDA driver API in cuda-python's idiom: compile SAXPY with NVRTC, load the module,
launch the kernel with kernel parameters, copy the result back.

Each step prints its status, so the script shows what the driver answers, GPU or not.
"""

import numpy as np
from cuda import cuda, nvrtc

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

(err,) = cuda.cuInit(0)
print("cuInit:", int(err))
err, device = cuda.cuDeviceGet(0)
print("cuDeviceGet:", int(err))
err, context = cuda.cuCtxCreate(None, 0, device)  # cuda-bindings 13 (HIP_PYTHON_CUDA_API=12: (0, device))
print("cuCtxCreate:", int(err))

err, prog = nvrtc.nvrtcCreateProgram(str.encode(saxpy), b"saxpy.cu", 0, [], [])
(err,) = nvrtc.nvrtcCompileProgram(prog, 1, [b"--gpu-architecture=compute_80"])
print("nvrtcCompileProgram:", int(err))
err, size = nvrtc.nvrtcGetPTXSize(prog)
ptx = b" " * size
(err,) = nvrtc.nvrtcGetPTX(prog, ptx)
ptx = np.char.array(ptx)

err, module = cuda.cuModuleLoadData(ptx.ctypes.data)
print("cuModuleLoadData:", int(err))
err, kernel = cuda.cuModuleGetFunction(module, b"saxpy")
print("cuModuleGetFunction:", int(err))

n = 512
a = np.array([2.0], dtype=np.float32)
x = np.random.rand(n).astype(np.float32)
y = np.random.rand(n).astype(np.float32)
out = np.zeros(n, dtype=np.float32)
err, dx = cuda.cuMemAlloc(x.nbytes)
print("cuMemAlloc:", int(err))
err, dy = cuda.cuMemAlloc(y.nbytes)
err, dout = cuda.cuMemAlloc(out.nbytes)
err, stream = cuda.cuStreamCreate(0)
print("cuStreamCreate:", int(err))
(err,) = cuda.cuMemcpyHtoDAsync(dx, x.ctypes.data, x.nbytes, stream)
print("cuMemcpyHtoDAsync:", int(err))
(err,) = cuda.cuMemcpyHtoDAsync(dy, y.ctypes.data, y.nbytes, stream)

# Kernel arguments as cuda-python's examples pass them: an array of pointers to values.
values: list[np.ndarray] = [
    a,
    np.array([int(dx or 0)], dtype=np.uint64),
    np.array([int(dy or 0)], dtype=np.uint64),
    np.array([int(dout or 0)], dtype=np.uint64),
    np.array([n], dtype=np.uint64),
]
args = np.array([v.ctypes.data for v in values], dtype=np.uint64)
(err,) = cuda.cuLaunchKernel(kernel, n // 128, 1, 1, 128, 1, 1, 0, stream, args.ctypes.data, 0)
print("cuLaunchKernel:", int(err))
(err,) = cuda.cuMemcpyDtoHAsync(out.ctypes.data, dout, out.nbytes, stream)
(err,) = cuda.cuStreamSynchronize(stream)
print("cuStreamSynchronize:", int(err))
print("result correct:", bool(np.allclose(out, a[0] * x + y)))
for d in (dx, dy, dout):
    cuda.cuMemFree(d)
(err,) = cuda.cuCtxDestroy(context)
print("cuCtxDestroy:", int(err))
