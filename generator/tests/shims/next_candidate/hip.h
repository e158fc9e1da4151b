/* One HIP function HIPIFY maps two CUDA functions to. */
#include <stddef.h>
typedef enum hipError_t { hipSuccess = 0, hipErrorInvalidValue = 1, hipErrorNotSupported = 801, hipErrorUnknown = 999 } hipError_t;
typedef struct ihipStream_t* hipStream_t;
hipError_t hipStreamQuery(hipStream_t stream);
