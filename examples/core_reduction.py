"""A sum reduction with hip.core: per-thread partial sums, one atomic each, timed with events
on a stream."""

import numpy as np

from hip.core import Device, DeviceArray, EventOptions, LaunchConfig, Program, ProgramOptions, launch

SRC = """extern "C" __global__ void total(const float* x, float* out, unsigned n) { float s = 0.0f;
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) s += x[i];
    atomicAdd(out, s); }"""
dev = Device()
dev.set_current()
kernel = Program(SRC, "c++", ProgramOptions(arch=f"sm_{dev.arch}")).compile("cubin").get_kernel("total")
x = np.random.rand(1 << 22).astype(np.float32)
stream = dev.create_stream()
dx, out = (
    DeviceArray.from_numpy(x, stream=stream),
    DeviceArray.from_numpy(np.zeros(1, np.float32), stream=stream),
)
timing = EventOptions(timing_enabled=True)
start = stream.record(options=timing)
launch(stream, LaunchConfig(grid=256, block=256), kernel, dx, out, np.uint32(x.size))
end = stream.record(options=timing)
end.sync()
got, want = out.to_numpy(stream=stream)[0], x.sum(dtype=np.float64)
assert abs(got - want) < 1e-4 * x.size, (got, want)
print(f"sum of {x.size}: {got:.1f} (NumPy {want:.1f}) in {end - start:.3f} ms")
