/* CUDA's has none: the adapter passes the null stream (a Python 0) as HIP's. */
#include <stddef.h>
typedef enum cudaError_enum { CUDA_SUCCESS = 0, CUDA_ERROR_NOT_SUPPORTED = 801 } CUresult;
CUresult cuMemcpyPeerSync(void* dst, int dstDevice, const void* src, int srcDevice, size_t ByteCount);
