/* CUDA's struct has a field HIP's lacks (reshaped): the adapter converts cuda-python's
   struct to HIP's before the call. */
#include <stddef.h>
typedef enum cudaError_enum { CUDA_SUCCESS = 0, CUDA_ERROR_NOT_SUPPORTED = 801 } CUresult;
typedef struct CUmemPoolHandle_st* CUmemoryPool;
typedef struct CUmemPoolProps_st { int allocType; int handleTypes; unsigned short usage; } CUmemPoolProps;
CUresult cuMemPoolCreate(CUmemoryPool* pool, const CUmemPoolProps* poolProps);
