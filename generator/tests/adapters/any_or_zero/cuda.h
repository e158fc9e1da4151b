/* CUtexObject is a 64-bit integer class (None is 0) where HIP takes a handle; the
   description is an output the adapter makes. */
#include <stddef.h>
typedef enum cudaError_enum { CUDA_SUCCESS = 0, CUDA_ERROR_NOT_SUPPORTED = 801 } CUresult;
typedef unsigned long long CUtexObject;
typedef struct CUDA_RESOURCE_DESC_st { int resType; unsigned int flags; } CUDA_RESOURCE_DESC;
CUresult cuTexObjectGetResourceDesc(CUDA_RESOURCE_DESC* pResDesc, CUtexObject texObject);
