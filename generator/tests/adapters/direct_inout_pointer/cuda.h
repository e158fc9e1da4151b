/* A handle passed in and returned (`inouts`, this fixture's own rule): the pointer value
   goes in, the one C writes comes back as cuda-python's CUcontext. */
#include <stddef.h>
typedef enum cudaError_enum { CUDA_SUCCESS = 0, CUDA_ERROR_NOT_SUPPORTED = 801 } CUresult;
typedef struct CUctx_st* CUcontext;
CUresult cuCtxExchangeCurrent(CUcontext* pctx);
