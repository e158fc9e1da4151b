/* HIPIFY maps cuStreamCreate to hipStreamCreate; the spec's hip_functions to the one taking
   flags, as CUDA's does. */
#include <stddef.h>
typedef enum hipError_t { hipSuccess = 0, hipErrorInvalidValue = 1 } hipError_t;
typedef struct ihipStream_t* hipStream_t;
hipError_t hipStreamCreate(hipStream_t* stream);
hipError_t hipStreamCreateWithFlags(hipStream_t* stream, unsigned int flags);
