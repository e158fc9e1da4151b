"""The CUDA runtime API in cuda-python's idiom: memory, copies, streams and events.

Each step prints its status, so the script shows what the runtime answers, GPU or not.
"""

import numpy as np
from cuda import cudart

n = 1024
host = np.arange(n, dtype=np.float32)
back = np.zeros_like(host)

err, count = cudart.cudaGetDeviceCount()
print("cudaGetDeviceCount:", int(err), count)
(err,) = cudart.cudaSetDevice(0)
print("cudaSetDevice:", int(err))
err, dptr = cudart.cudaMalloc(host.nbytes)
print("cudaMalloc:", int(err))
err, stream = cudart.cudaStreamCreate()
print("cudaStreamCreate:", int(err))
err, start = cudart.cudaEventCreate()
print("cudaEventCreate:", int(err))
err, stop = cudart.cudaEventCreate()
(err,) = cudart.cudaEventRecord(start, stream)
print("cudaEventRecord:", int(err))
(err,) = cudart.cudaMemcpyAsync(dptr, host, host.nbytes, cudart.cudaMemcpyKind.cudaMemcpyHostToDevice, stream)
print("cudaMemcpyAsync:", int(err))
(err,) = cudart.cudaMemcpyAsync(back, dptr, host.nbytes, cudart.cudaMemcpyKind.cudaMemcpyDeviceToHost, stream)
print("cudaMemcpyAsync:", int(err))
(err,) = cudart.cudaEventRecord(stop, stream)
(err,) = cudart.cudaStreamSynchronize(stream)
print("cudaStreamSynchronize:", int(err))
err, ms = cudart.cudaEventElapsedTime(start, stop)
print("cudaEventElapsedTime:", int(err))
print("round trip equal:", bool(np.array_equal(host, back)))
(err,) = cudart.cudaFree(dptr)
print("cudaFree:", int(err))
(err,) = cudart.cudaStreamDestroy(stream)
print("cudaStreamDestroy:", int(err))
print("cudaErrorNoDevice is:", int(cudart.cudaError_t.cudaErrorNoDevice))
print("last error:", cudart.cudaGetErrorName(cudart.cudaError_t.cudaErrorNoDevice)[1])
