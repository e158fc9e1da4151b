/* cuda-bindings 12's cuMemPrefetchAsync takes a CUdevice. */
#include <stddef.h>
typedef enum cudaError_enum { CUDA_SUCCESS = 0, CUDA_ERROR_NOT_SUPPORTED = 801 } CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef struct CUstream_st* CUstream;
CUresult cuMemPrefetchAsync(CUdeviceptr devPtr, size_t count, CUdevice dstDevice, CUstream hStream);
