/* hipEventRecord takes no flags. */
#include <stddef.h>
typedef enum hipError_t { hipSuccess = 0, hipErrorInvalidValue = 1 } hipError_t;
typedef struct ihipEvent_t* hipEvent_t;
typedef struct ihipStream_t* hipStream_t;
hipError_t hipEventRecord(hipEvent_t event, hipStream_t stream);
