/* CUDA has no such pointer: the adapter passes NULL (a Python 0) as HIP's. */
#include <stddef.h>
typedef enum cudaError_enum { CUDA_SUCCESS = 0, CUDA_ERROR_NOT_SUPPORTED = 801 } CUresult;
typedef struct CUevent_st* CUevent;
CUresult cuEventSynchronize(CUevent hEvent);
