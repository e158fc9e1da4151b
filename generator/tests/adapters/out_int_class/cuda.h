/* cuMemAlloc returns the allocation as a CUdeviceptr, an integer class of cuda-python. */
#include <stddef.h>
typedef enum cudaError_enum { CUDA_SUCCESS = 0, CUDA_ERROR_NOT_SUPPORTED = 801 } CUresult;
typedef unsigned long long CUdeviceptr;
CUresult cuMemAlloc(CUdeviceptr* dptr, size_t bytesize);
