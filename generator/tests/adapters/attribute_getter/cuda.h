/* cuda-python returns the value: 8 bytes of the adapter's, as a cuuint64_t (no
   attribute_types for this enum). */
#include <stddef.h>
typedef enum cudaError_enum { CUDA_SUCCESS = 0, CUDA_ERROR_NOT_SUPPORTED = 801 } CUresult;
typedef struct CUmemPoolHandle_st* CUmemoryPool;
typedef enum CUmemPool_attribute_enum { CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES = 1, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD = 4 } CUmemPool_attribute;
CUresult cuMemPoolGetAttribute(CUmemoryPool pool, CUmemPool_attribute attr, void* value);
