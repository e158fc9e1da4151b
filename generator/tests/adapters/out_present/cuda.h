/* cuDeviceGetUuid's struct output: HIP's struct presented as cuda-python's class CUuuid. */
#include <stddef.h>
typedef enum cudaError_enum { CUDA_SUCCESS = 0, CUDA_ERROR_NOT_SUPPORTED = 801 } CUresult;
typedef int CUdevice;
typedef struct CUuuid_st { char bytes[16]; } CUuuid;
CUresult cuDeviceGetUuid(CUuuid* uuid, CUdevice dev);
