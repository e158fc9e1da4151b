/* cuda-python returns the struct: the adapter makes HIP's class, which HIP's function
   takes as untyped memory C writes. */
#include <stddef.h>
typedef enum cudaError_enum { CUDA_SUCCESS = 0, CUDA_ERROR_NOT_SUPPORTED = 801 } CUresult;
typedef int CUdevice;
typedef struct CUdevprop_st { int maxThreadsPerBlock; int sharedMemPerBlock; } CUdevprop;
CUresult cuDeviceGetProperties(CUdevprop* prop, CUdevice dev);
