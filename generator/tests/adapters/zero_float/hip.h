/* HIP's priority setter takes a float weight last. */
#include <stddef.h>
typedef enum hipError_t { hipSuccess = 0, hipErrorInvalidValue = 1 } hipError_t;
typedef struct ihipStream_t* hipStream_t;
hipError_t hipStreamSetPriorityExt(hipStream_t stream, int priority, float weight);
