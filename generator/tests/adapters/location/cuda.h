/* CUDA 13's takes a CUmemLocation (the spec's `locations`): a device's gives its id, the
   host's -1; and flags HIP lacks. */
#include <stddef.h>
typedef enum cudaError_enum { CUDA_SUCCESS = 0, CUDA_ERROR_NOT_SUPPORTED = 801 } CUresult;
typedef unsigned long long CUdeviceptr;
typedef struct CUstream_st* CUstream;
typedef enum CUmemLocationType_enum { CU_MEM_LOCATION_TYPE_INVALID = 0, CU_MEM_LOCATION_TYPE_DEVICE = 1, CU_MEM_LOCATION_TYPE_HOST = 2 } CUmemLocationType;
typedef struct CUmemLocation_st { CUmemLocationType type; int id; } CUmemLocation;
CUresult cuMemPrefetchAsync(CUdeviceptr devPtr, size_t count, CUmemLocation location, unsigned int flags, CUstream hStream);
