/* HIP has no function for CUDA's (the table's HIP name is not in the header). */
#include <stddef.h>
typedef enum hipError_t { hipSuccess = 0, hipErrorInvalidValue = 1 } hipError_t;
hipError_t hipGetDeviceCount(int* count);
