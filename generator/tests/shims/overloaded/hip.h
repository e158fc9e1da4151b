/* A HIP function whose CUDA counterpart C++ overloads. */
#include <stddef.h>
typedef enum hipError_t { hipSuccess = 0, hipErrorInvalidValue = 1, hipErrorNotSupported = 801, hipErrorUnknown = 999 } hipError_t;
hipError_t hipDeviceSynchronizeWith(int flags);
