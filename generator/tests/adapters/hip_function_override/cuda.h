/* cuStreamCreate takes flags; its stream is returned as cuda-python's class CUstream. */
#include <stddef.h>
typedef enum cudaError_enum { CUDA_SUCCESS = 0, CUDA_ERROR_NOT_SUPPORTED = 801 } CUresult;
typedef struct CUstream_st* CUstream;
CUresult cuStreamCreate(CUstream* phStream, unsigned int Flags);
