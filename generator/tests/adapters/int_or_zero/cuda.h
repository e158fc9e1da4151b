/* CUDA 12's cuMemPrefetchAsync: CUdevice, an integer class (None is 0), and CUdeviceptr, an
   integer address where HIP takes a const pointer. */
#include <stddef.h>
typedef enum cudaError_enum { CUDA_SUCCESS = 0, CUDA_ERROR_NOT_SUPPORTED = 801 } CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef struct CUstream_st* CUstream;
CUresult cuMemPrefetchAsync(CUdeviceptr devPtr, size_t count, CUdevice dstDevice, CUstream hStream);
