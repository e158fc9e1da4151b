/* One HIP attribute enum for CUDA's two (the driver's and the runtime's). */
#include <stddef.h>
typedef enum hipError_t { hipSuccess = 0, hipErrorInvalidValue = 1, hipErrorNotSupported = 801, hipErrorUnknown = 999 } hipError_t;
typedef enum hipDeviceAttribute_t { hipDeviceAttributeA = 0, hipDeviceAttributeB = 1, hipDeviceAttributeC = 2 } hipDeviceAttribute_t;
hipError_t hipDeviceGetAttribute(int* pi, hipDeviceAttribute_t attr, int deviceId);
