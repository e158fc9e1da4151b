"""SAXPY on every GPU at once with hip.core, a thread per device, each checked against NumPy."""

import threading

import numpy as np

from hip.core import Device, DeviceArray, LaunchConfig, Program, ProgramOptions, launch
from hip.hip import hipGetDeviceCount

SRC = """
template <typename T> __global__ void saxpy(T a, const T* x, T* y, size_t n) {
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}"""
n = 1 << 22
results: dict[int, bool] = {}


def work(device: int) -> None:
    dev = Device(device)
    dev.set_current()  # this thread's device: compile for it, allocate on it
    program = Program(SRC, "c++", ProgramOptions(arch=f"sm_{dev.arch}"))
    kernel = program.compile("cubin", name_expressions=("saxpy<float>",)).get_kernel("saxpy<float>")
    stream = dev.create_stream()
    x = np.full(n, device + 1, dtype=np.float32)
    y = np.arange(n, dtype=np.float32)
    dx, dy = DeviceArray.from_numpy(x, stream=stream), DeviceArray.from_numpy(y, stream=stream)
    launch(
        stream, LaunchConfig(grid=(n + 255) // 256, block=256), kernel, np.float32(2.0), dx, dy, np.uint64(n)
    )
    results[device] = bool(np.array_equal(dy.to_numpy(stream=stream), 2.0 * x + y))


err, count = hipGetDeviceCount()
if count == 0:
    raise SystemExit(f"no GPU to run on: hipGetDeviceCount -> {err.name}")
threads = [threading.Thread(target=work, args=(d,)) for d in range(count)]
for t in threads:
    t.start()
for t in threads:
    t.join()
assert len(results) == count and all(results.values()), results
print(f"saxpy on {count} devices at once, {n} elements each: all match NumPy")
