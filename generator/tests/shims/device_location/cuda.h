/* CUDA 13's takes a location struct (and flags, NULL by the spec's null_args): the device
   becomes HIP's hipMemLocation (spec's device_location), copied member by member. */
#include <stddef.h>
typedef enum cudaError_enum { CUDA_SUCCESS = 0, CUDA_ERROR_INVALID_VALUE = 1, CUDA_ERROR_NOT_SUPPORTED = 801, CUDA_ERROR_UNKNOWN = 999 } CUresult;
typedef struct CUstream_st* CUstream;
enum cudaMemLocationType { cudaMemLocationTypeInvalid = 0, cudaMemLocationTypeDevice = 1, cudaMemLocationTypeHost = 2 };
struct cudaMemLocation { enum cudaMemLocationType type; int id; };
CUresult cudaMemPrefetchAsync(const void* devPtr, size_t count, struct cudaMemLocation location, unsigned int flags, CUstream stream);
