"""SAXPY with hip.core: compile, copy in, launch, copy out (AMD or NVIDIA platform)."""

import numpy as np

from hip.core import DeviceArray, LaunchConfig, Program, launch

SRC = """
template <typename T> __global__ void saxpy(T a, const T* x, T* y, size_t n) {
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}"""
n = 1 << 20
x, y = np.random.rand(n).astype(np.float32), np.random.rand(n).astype(np.float32)
kernel = Program(SRC).compile(["saxpy<float>"]).get_kernel("saxpy<float>")
dx, dy = DeviceArray.from_numpy(x), DeviceArray.from_numpy(y)
launch(kernel, LaunchConfig(grid=(n + 255) // 256, block=256), 2.0, dx, dy, n)
np.testing.assert_allclose(dy.to_numpy(), 2.0 * x + y, rtol=1e-6)
print(f"saxpy: {n} elements match NumPy")
