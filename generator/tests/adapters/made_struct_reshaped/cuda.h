/* The table names CUdevprop as HIP's struct, which lacks a field of CUDA's (reshaped):
   the adapter makes HIP's struct and presents it in CUDA's layout. */
#include <stddef.h>
typedef enum cudaError_enum { CUDA_SUCCESS = 0, CUDA_ERROR_NOT_SUPPORTED = 801 } CUresult;
typedef int CUdevice;
typedef struct CUdevprop_st { char name[256]; int maxThreadsPerBlock; int clockRate; } CUdevprop;
CUresult cuDeviceGetProperties(CUdevprop* prop, CUdevice dev);
