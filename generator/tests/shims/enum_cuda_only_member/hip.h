/* HIP's enum lacks a member CUDA has. */
#include <stddef.h>
typedef enum hipError_t { hipSuccess = 0, hipErrorInvalidValue = 1, hipErrorNotSupported = 801, hipErrorUnknown = 999 } hipError_t;
typedef enum hipLimit_t { hipLimitStackSize = 0, hipLimitMallocHeapSize = 2 } hipLimit_t;
hipError_t hipDeviceSetLimit(hipLimit_t limit, size_t value);
