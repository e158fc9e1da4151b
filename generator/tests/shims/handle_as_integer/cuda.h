/* CUDA's is a 64-bit integer: the handle passes as its address. */
#include <stddef.h>
typedef enum cudaError_enum { CUDA_SUCCESS = 0, CUDA_ERROR_INVALID_VALUE = 1, CUDA_ERROR_NOT_SUPPORTED = 801, CUDA_ERROR_UNKNOWN = 999 } CUresult;
typedef unsigned long long CUtexObject;
CUresult cuTexObjectDestroy(CUtexObject texObject);
