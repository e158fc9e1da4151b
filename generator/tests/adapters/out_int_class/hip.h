/* hipMalloc returns the allocation as a pointer object. */
#include <stddef.h>
typedef enum hipError_t { hipSuccess = 0, hipErrorInvalidValue = 1 } hipError_t;
hipError_t hipMalloc(void** ptr, size_t size);
