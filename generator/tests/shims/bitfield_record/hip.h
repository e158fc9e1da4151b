/* A struct of bit fields: no member copy, no layout proof. */
#include <stddef.h>
typedef enum hipError_t { hipSuccess = 0, hipErrorInvalidValue = 1, hipErrorNotSupported = 801, hipErrorUnknown = 999 } hipError_t;
typedef struct hipDeviceArch_t { unsigned hasGlobalInt32Atomics : 1; unsigned hasDoubles : 1; unsigned reserved : 30; } hipDeviceArch_t;
hipError_t hipDeviceGetArch(hipDeviceArch_t* arch, int device);
