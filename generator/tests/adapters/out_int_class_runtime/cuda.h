/* The runtime's surface object is a 64-bit integer: cuda-python returns an instance of the
   runtime module's class cudaSurfaceObject_t. */
#include <stddef.h>
typedef enum cudaError { cudaSuccess = 0, cudaErrorNotSupported = 801 } cudaError_t;
typedef unsigned long long cudaSurfaceObject_t;
struct cudaResourceDesc { int resType; void* devPtr; };
cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t* pSurfObject, const struct cudaResourceDesc* pResDesc);
