/* The first takes another number of arguments (does not compile): the wrapper calls the
   second. */
#include <stddef.h>
typedef enum cudaError_enum { CUDA_SUCCESS = 0, CUDA_ERROR_INVALID_VALUE = 1, CUDA_ERROR_NOT_SUPPORTED = 801, CUDA_ERROR_UNKNOWN = 999 } CUresult;
typedef struct CUstream_st* CUstream;
CUresult cuStreamQueryWith(CUstream hStream, unsigned int flags, void* reserved);
CUresult cuStreamQuery(CUstream hStream);
