/* cuMemFree takes the allocation as an integer address (a float is truncated). */
#include <stddef.h>
typedef enum cudaError_enum { CUDA_SUCCESS = 0, CUDA_ERROR_NOT_SUPPORTED = 801 } CUresult;
typedef unsigned long long CUdeviceptr;
CUresult cuMemFree(CUdeviceptr dptr);
