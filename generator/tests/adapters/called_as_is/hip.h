/* HIP's functions, which cuda-python calls as they are. */
#include <stddef.h>
typedef enum hipError_t { hipSuccess = 0, hipErrorInvalidValue = 1 } hipError_t;
typedef struct ihipStream_t* hipStream_t;
hipError_t hipGetDeviceCount(int* count);
hipError_t hipStreamSynchronize(hipStream_t stream);
