/* CUDA's header adds an inline C++ overload of the exported function: the wrapper names the
   exported one's type (decltype cannot pick one). */
#include <stddef.h>
typedef enum cudaError_enum { CUDA_SUCCESS = 0, CUDA_ERROR_INVALID_VALUE = 1, CUDA_ERROR_NOT_SUPPORTED = 801, CUDA_ERROR_UNKNOWN = 999 } CUresult;
CUresult cuCtxSynchronizeWith(int flags);
#ifdef __cplusplus
static inline CUresult cuCtxSynchronizeWith(long flags, int extra) { return cuCtxSynchronizeWith((int)flags + extra); }
#endif
