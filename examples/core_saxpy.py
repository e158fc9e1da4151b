"""SAXPY with hip.core, written as cuda.core programs are: compile, copy in, launch on a
stream, copy out (AMD or NVIDIA platform)."""

import numpy as np

from hip.core import Device, DeviceArray, LaunchConfig, Program, ProgramOptions, launch

SRC = """
template <typename T> __global__ void saxpy(T a, const T* x, T* y, size_t n) {
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}"""
dev = Device()
dev.set_current()
stream = dev.create_stream()
program = Program(SRC, code_type="c++", options=ProgramOptions(std="c++17", arch=f"sm_{dev.arch}"))
kernel = program.compile("cubin", name_expressions=("saxpy<float>",)).get_kernel("saxpy<float>")
n = 1 << 20
x, y = np.random.rand(n).astype(np.float32), np.random.rand(n).astype(np.float32)
dx, dy = DeviceArray.from_numpy(x, stream=stream), DeviceArray.from_numpy(y, stream=stream)
launch(stream, LaunchConfig(grid=(n + 255) // 256, block=256), kernel, np.float32(2.0), dx, dy, np.uint64(n))
np.testing.assert_allclose(dy.to_numpy(stream=stream), 2.0 * x + y, rtol=1e-6)
print(f"saxpy: {n} elements match NumPy")
