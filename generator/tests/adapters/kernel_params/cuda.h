/* kernelParams in any of cuda-python's forms (None, an address, values and types). */
#include <stddef.h>
typedef enum cudaError_enum { CUDA_SUCCESS = 0, CUDA_ERROR_NOT_SUPPORTED = 801 } CUresult;
typedef struct CUfunc_st* CUfunction;
typedef struct CUstream_st* CUstream;
CUresult cuLaunchCooperativeKernel(CUfunction f, unsigned int gridDimX, unsigned int gridDimY,
    unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY, unsigned int blockDimZ,
    unsigned int sharedMemBytes, CUstream hStream, void** kernelParams);
