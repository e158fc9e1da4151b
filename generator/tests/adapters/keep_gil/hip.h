/* hipCtxGetDevice never blocks: the spec keeps the GIL around it. */
#include <stddef.h>
typedef enum hipError_t { hipSuccess = 0, hipErrorInvalidValue = 1 } hipError_t;
typedef int hipDevice_t;
hipError_t hipCtxGetDevice(hipDevice_t* device);
