/* CUDA's of the same signatures: each argument passes as it is, the status translates by
   HIPIFY's member pairs. */
#include <stddef.h>
typedef enum cudaError_enum { CUDA_SUCCESS = 0, CUDA_ERROR_INVALID_VALUE = 1, CUDA_ERROR_NOT_SUPPORTED = 801, CUDA_ERROR_UNKNOWN = 999 } CUresult;
typedef struct CUstream_st* CUstream;
typedef unsigned long long CUdeviceptr;
CUresult cuStreamCreate(CUstream* phStream);
CUresult cuDeviceGetCount(int* count);
CUresult cuMemAlloc(CUdeviceptr* dptr, size_t bytesize);
