/* hipHostMalloc, HIP's second name of hipHostAlloc, which HIPIFY does not name. */
#include <stddef.h>
typedef enum hipError_t { hipSuccess = 0, hipErrorInvalidValue = 1, hipErrorNotSupported = 801, hipErrorUnknown = 999 } hipError_t;
hipError_t hipHostMalloc(void** ptr, size_t size, unsigned int flags);
