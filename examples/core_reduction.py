"""A sum reduction with hip.core: per-thread partial sums, one atomic each, timed on a stream."""

import numpy as np

from hip.core import DeviceArray, LaunchConfig, Program, Stream, launch

SRC = """__global__ void total(const float* x, float* out, unsigned n) { float s = 0.0f;
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) s += x[i];
    atomicAdd(out, s); }"""
x = np.random.rand(1 << 22).astype(np.float32)
kernel = Program(SRC).compile(["total"]).get_kernel("total")
with Stream() as stream:
    dx, out = DeviceArray.from_numpy(x, stream=stream), DeviceArray.from_numpy(np.zeros(1, np.float32))
    start = stream.record()
    launch(kernel, LaunchConfig(grid=256, block=256, stream=stream), dx, out, x.size)
    end = stream.record()
got, want = out.to_numpy()[0], x.sum(dtype=np.float64)
assert abs(got - want) < 1e-4 * x.size, (got, want)
print(f"sum of {x.size}: {got:.1f} (NumPy {want:.1f}) in {end - start:.3f} ms")
