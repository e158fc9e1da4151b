/* CUDA's result converts to HIP's (the type's zero where CUDA lacks the function). */
#include <stddef.h>
typedef enum cudaError_enum { CUDA_SUCCESS = 0, CUDA_ERROR_INVALID_VALUE = 1, CUDA_ERROR_NOT_SUPPORTED = 801, CUDA_ERROR_UNKNOWN = 999 } CUresult;
typedef struct CUfunc_st* CUfunction;
const char* cuFuncNameRef(CUfunction f);
