/* HIPIFY maps the runtime's and the driver's attribute queries to this function. */
#include <stddef.h>
typedef enum hipError_t { hipSuccess = 0, hipErrorInvalidValue = 1, hipErrorNotSupported = 801, hipErrorUnknown = 999 } hipError_t;
typedef enum hipDeviceAttribute_t { hipDeviceAttributeMaxThreadsPerBlock = 0 } hipDeviceAttribute_t;
hipError_t hipDeviceGetAttribute(int* pi, hipDeviceAttribute_t attr, int deviceId);
