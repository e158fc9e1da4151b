/* HIP's profiler start takes a tag, a string; hipHostMalloc takes flags. */
#include <stddef.h>
typedef enum hipError_t { hipSuccess = 0, hipErrorInvalidValue = 1 } hipError_t;
hipError_t hipProfilerStartTagged(const char* tag);
hipError_t hipHostMalloc(void** ptr, size_t size, unsigned int flags);
