/* hipMemPoolGetAttribute writes the value through a void * (the spec's `written`). */
#include <stddef.h>
typedef enum hipError_t { hipSuccess = 0, hipErrorInvalidValue = 1 } hipError_t;
typedef struct ihipMemPoolHandle_t* hipMemPool_t;
typedef enum hipMemPoolAttr { hipMemPoolReuseFollowEventDependencies = 1, hipMemPoolAttrReleaseThreshold = 4 } hipMemPoolAttr;
hipError_t hipMemPoolGetAttribute(hipMemPool_t mem_pool, hipMemPoolAttr attr, void* value);
