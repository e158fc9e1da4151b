/* CUDA's struct has the same field names at other offsets: one struct passes as a copy, member
   by member (into_c before the call, from_c after). */
#include <stddef.h>
typedef enum cudaError_enum { CUDA_SUCCESS = 0, CUDA_ERROR_INVALID_VALUE = 1, CUDA_ERROR_NOT_SUPPORTED = 801, CUDA_ERROR_UNKNOWN = 999 } CUresult;
typedef struct cudaDeviceProp { char name[8]; double clockRate; int major; int minor; } cudaDeviceProp;
CUresult cudaGetDeviceProperties(cudaDeviceProp* prop, int device);
