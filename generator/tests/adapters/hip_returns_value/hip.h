/* hipGetErrorName returns the name, not a status. */
#include <stddef.h>
typedef enum hipError_t { hipSuccess = 0, hipErrorInvalidValue = 1 } hipError_t;
const char* hipGetErrorName(hipError_t hip_error);
