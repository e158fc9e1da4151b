/* hipDeviceGet is serialized by the spec (the library's lock around the call). */
#include <stddef.h>
typedef enum hipError_t { hipSuccess = 0, hipErrorInvalidValue = 1 } hipError_t;
typedef int hipDevice_t;
hipError_t hipDeviceGet(hipDevice_t* device, int ordinal);
