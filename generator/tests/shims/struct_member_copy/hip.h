/* HIP's properties struct, laid out otherwise than CUDA's. */
#include <stddef.h>
typedef enum hipError_t { hipSuccess = 0, hipErrorInvalidValue = 1, hipErrorNotSupported = 801, hipErrorUnknown = 999 } hipError_t;
typedef struct hipDeviceProp_t { int major; char name[8]; double clockRate; } hipDeviceProp_t;
hipError_t hipGetDeviceProperties(hipDeviceProp_t* prop, int deviceId);
