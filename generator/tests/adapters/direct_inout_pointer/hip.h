/* A context swapped for the current one through a pointer to a handle. */
#include <stddef.h>
typedef enum hipError_t { hipSuccess = 0, hipErrorInvalidValue = 1 } hipError_t;
typedef struct ihipCtx_t* hipCtx_t;
hipError_t hipCtxExchangeCurrent(hipCtx_t* ctx);
