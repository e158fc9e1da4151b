/* No HIP function: a stub answering CUDA_ERROR_NOT_SUPPORTED, None for each output. */
#include <stddef.h>
typedef enum cudaError_enum { CUDA_SUCCESS = 0, CUDA_ERROR_NOT_SUPPORTED = 801 } CUresult;
typedef int CUdevice;
CUresult cuDeviceGetLuid(char* luid, unsigned int* deviceNodeMask, CUdevice dev);
CUresult cuProfilerInitialize(const char* configFile, const char* outputFile, int outputMode);
