/* CUDA's struct orders the fields otherwise; its union is laid out as HIP's. */
#include <stddef.h>
typedef enum cudaError_enum { CUDA_SUCCESS = 0, CUDA_ERROR_INVALID_VALUE = 1, CUDA_ERROR_NOT_SUPPORTED = 801, CUDA_ERROR_UNKNOWN = 999 } CUresult;
typedef struct CUDA_RESOURCE_DESC_st { unsigned int flags; int resType; union { struct { void* devPtr; size_t sizeInBytes; } linear; int reserved[8]; } res; } CUDA_RESOURCE_DESC;
typedef unsigned long long CUtexObject;
CUresult cuTexObjectCreate(CUtexObject* pTexObject, const CUDA_RESOURCE_DESC* pResDesc);
