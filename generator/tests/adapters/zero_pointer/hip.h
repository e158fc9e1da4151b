/* HIP's event record takes a reserved pointer last. */
#include <stddef.h>
typedef enum hipError_t { hipSuccess = 0, hipErrorInvalidValue = 1 } hipError_t;
typedef struct ihipEvent_t* hipEvent_t;
hipError_t hipEventSynchronizeExt(hipEvent_t event, void* reserved);
