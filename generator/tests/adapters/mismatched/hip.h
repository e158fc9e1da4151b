/* HIP's function returns no node mask. */
#include <stddef.h>
typedef enum hipError_t { hipSuccess = 0, hipErrorInvalidValue = 1 } hipError_t;
typedef int hipDevice_t;
hipError_t hipDeviceGetLuid(char* luid, hipDevice_t device);
