/* hipDeviceGetUuid returns the struct it fills (the spec's `usage: out`). */
#include <stddef.h>
typedef enum hipError_t { hipSuccess = 0, hipErrorInvalidValue = 1 } hipError_t;
typedef int hipDevice_t;
typedef struct hipUUID_t { char bytes[16]; } hipUUID;
hipError_t hipDeviceGetUuid(hipUUID* uuid, hipDevice_t device);
