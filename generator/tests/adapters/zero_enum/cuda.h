/* CUDA's takes no scope: the adapter passes 0, HIP's first member. */
#include <stddef.h>
typedef enum cudaError_enum { CUDA_SUCCESS = 0, CUDA_ERROR_NOT_SUPPORTED = 801 } CUresult;
CUresult cuFlushGPUDirectRDMAWrites(unsigned int flags);
