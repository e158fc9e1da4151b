/* HIP's prefetch takes a device ordinal. */
#include <stddef.h>
typedef enum hipError_t { hipSuccess = 0, hipErrorInvalidValue = 1, hipErrorNotSupported = 801, hipErrorUnknown = 999 } hipError_t;
typedef struct ihipStream_t* hipStream_t;
typedef enum hipMemLocationType { hipMemLocationTypeInvalid = 0, hipMemLocationTypeDevice = 1, hipMemLocationTypeHost = 2 } hipMemLocationType;
typedef struct hipMemLocation { hipMemLocationType type; int id; } hipMemLocation;
hipError_t hipMemPrefetchAsync(const void* dev_ptr, size_t count, int device, hipStream_t stream);
hipError_t hipMemLocationUnused(hipMemLocation* location);
