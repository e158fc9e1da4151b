/* CUDA's takes none: the adapter passes 0.0. */
#include <stddef.h>
typedef enum cudaError_enum { CUDA_SUCCESS = 0, CUDA_ERROR_NOT_SUPPORTED = 801 } CUresult;
typedef struct CUstream_st* CUstream;
CUresult cuStreamSetPriority(CUstream hStream, int priority);
