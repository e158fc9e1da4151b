/* CUDA 13's cuCtxCreate takes a CUctxCreateParams * second: the spec's null_args passes NULL
   there, before HIPIFY's own candidate. */
#include <stddef.h>
typedef enum cudaError_enum { CUDA_SUCCESS = 0, CUDA_ERROR_INVALID_VALUE = 1, CUDA_ERROR_NOT_SUPPORTED = 801, CUDA_ERROR_UNKNOWN = 999 } CUresult;
typedef struct CUctx_st* CUcontext;
typedef int CUdevice;
typedef struct CUctxCreateParams_st { int numExecAffinityParams; } CUctxCreateParams;
CUresult cuCtxCreate(CUcontext* pctx, CUctxCreateParams* ctxCreateParams, unsigned int flags, CUdevice dev);
