/* hipGetDeviceProperties fills a struct the caller gives. */
#include <stddef.h>
typedef enum hipError_t { hipSuccess = 0, hipErrorInvalidValue = 1 } hipError_t;
typedef struct hipDeviceProp_t { char name[256]; int maxThreadsPerBlock; } hipDeviceProp_t;
hipError_t hipGetDeviceProperties(hipDeviceProp_t* prop, int deviceId);
