/* hipHostMalloc returns the host allocation as a pointer object. */
#include <stddef.h>
typedef enum hipError_t { hipSuccess = 0, hipErrorInvalidValue = 1 } hipError_t;
hipError_t hipHostMalloc(void** ptr, size_t size, unsigned int flags);
