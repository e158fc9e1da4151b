/* cuda-python passes the value itself (the spec's `attribute_values`): an integer goes
   in memory of the adapter's own, anything else as a pointer. */
#include <stddef.h>
typedef enum cudaError_enum { CUDA_SUCCESS = 0, CUDA_ERROR_NOT_SUPPORTED = 801 } CUresult;
typedef struct CUmemPoolHandle_st* CUmemoryPool;
typedef enum CUmemPool_attribute_enum { CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES = 1, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD = 4 } CUmemPool_attribute;
CUresult cuMemPoolSetAttribute(CUmemoryPool pool, CUmemPool_attribute attr, void* value);
