/* The device as cuda-python's CUdevice class; the call made under the library's lock. */
#include <stddef.h>
typedef enum cudaError_enum { CUDA_SUCCESS = 0, CUDA_ERROR_NOT_SUPPORTED = 801 } CUresult;
typedef int CUdevice;
CUresult cuDeviceGet(CUdevice* device, int ordinal);
