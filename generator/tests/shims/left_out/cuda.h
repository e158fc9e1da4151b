/* No return status, no HIPIFY entry, a CUDA function of another
   arity (does not compile). */
#include <stddef.h>
typedef enum cudaError_enum { CUDA_SUCCESS = 0, CUDA_ERROR_INVALID_VALUE = 1, CUDA_ERROR_NOT_SUPPORTED = 801, CUDA_ERROR_UNKNOWN = 999 } CUresult;
void cuProfilerMark(int id);
CUresult cuDevicePrimaryCtxReset(int dev);
