/* HIP's surface object is a handle, returned as one. */
#include <stddef.h>
typedef enum hipError_t { hipSuccess = 0, hipErrorInvalidValue = 1 } hipError_t;
typedef struct __hip_surface* hipSurfaceObject_t;
typedef struct hipResourceDesc { int resType; void* devPtr; } hipResourceDesc;
hipError_t hipCreateSurfaceObject(hipSurfaceObject_t* pSurfObject, const hipResourceDesc* pResDesc);
