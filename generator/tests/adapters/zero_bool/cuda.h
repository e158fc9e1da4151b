/* CUDA's takes none: the adapter passes false. */
#include <stddef.h>
typedef enum cudaError_enum { CUDA_SUCCESS = 0, CUDA_ERROR_NOT_SUPPORTED = 801 } CUresult;
typedef struct CUstream_st* CUstream;
CUresult cuStreamQuery(CUstream hStream);
