/* Same inputs and outputs as HIP's (names aside): the CUDA names are HIP's objects, no
   adapter. */
#include <stddef.h>
typedef enum cudaError_enum { CUDA_SUCCESS = 0, CUDA_ERROR_NOT_SUPPORTED = 801 } CUresult;
typedef struct CUstream_st* CUstream;
CUresult cuDeviceGetCount(int* count);
CUresult cuStreamSynchronize(CUstream hStream);
