/* CUDA's struct of the same size: passes only as the same bytes. */
#include <stddef.h>
typedef enum cudaError_enum { CUDA_SUCCESS = 0, CUDA_ERROR_INVALID_VALUE = 1, CUDA_ERROR_NOT_SUPPORTED = 801, CUDA_ERROR_UNKNOWN = 999 } CUresult;
typedef struct CUdevArch_st { unsigned int bits; } CUdevArch;
CUresult cuDeviceGetArch(CUdevArch* arch, int dev);
