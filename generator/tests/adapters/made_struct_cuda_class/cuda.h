/* The table names CUdevprop as HIP's struct, with HIP's field names: the adapter makes
   cuda-python's class (checked to be a subclass of HIP's, whose layout the call writes). */
#include <stddef.h>
typedef enum cudaError_enum { CUDA_SUCCESS = 0, CUDA_ERROR_NOT_SUPPORTED = 801 } CUresult;
typedef int CUdevice;
typedef struct CUdevprop_st { char name[256]; int maxThreadsPerBlock; } CUdevprop;
CUresult cuDeviceGetProperties(CUdevprop* prop, CUdevice dev);
