/* CUDA 13's cuCtxCreate takes a CUctxCreateParams * (an input, the spec's `inputs`) HIP
   lacks: only None (or 0) is passed on, anything else answers CUDA_ERROR_NOT_SUPPORTED. */
#include <stddef.h>
typedef enum cudaError_enum { CUDA_SUCCESS = 0, CUDA_ERROR_NOT_SUPPORTED = 801 } CUresult;
typedef struct CUctx_st* CUcontext;
typedef int CUdevice;
typedef struct CUctxCreateParams_st { int numExecAffinityParams; } CUctxCreateParams;
CUresult cuCtxCreate(CUcontext* pctx, CUctxCreateParams* ctxCreateParams, unsigned int flags, CUdevice dev);
