/* HIP's functions: a handle output, an integer output, a size and a pointer. */
#include <stddef.h>
typedef enum hipError_t { hipSuccess = 0, hipErrorInvalidValue = 1, hipErrorNotSupported = 801, hipErrorUnknown = 999 } hipError_t;
typedef struct ihipStream_t* hipStream_t;
hipError_t hipStreamCreate(hipStream_t* stream);
hipError_t hipGetDeviceCount(int* count);
hipError_t hipMalloc(void** ptr, size_t size);
