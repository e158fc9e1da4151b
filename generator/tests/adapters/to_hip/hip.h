/* hipMemPoolCreate reads HIP's struct of pool properties. */
#include <stddef.h>
typedef enum hipError_t { hipSuccess = 0, hipErrorInvalidValue = 1 } hipError_t;
typedef struct ihipMemPoolHandle_t* hipMemPool_t;
typedef struct hipMemPoolProps { int allocType; int handleTypes; } hipMemPoolProps;
hipError_t hipMemPoolCreate(hipMemPool_t* mem_pool, const hipMemPoolProps* pool_props);
