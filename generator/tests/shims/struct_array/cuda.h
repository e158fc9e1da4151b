/* CUDA's struct of the same layout: the array passes as it is (no member copy of an array). */
#include <stddef.h>
typedef enum cudaError_enum { CUDA_SUCCESS = 0, CUDA_ERROR_INVALID_VALUE = 1, CUDA_ERROR_NOT_SUPPORTED = 801, CUDA_ERROR_UNKNOWN = 999 } CUresult;
typedef struct CUextSemaphore_st* CUexternalSemaphore;
typedef struct CUstream_st* CUstream;
typedef struct CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS_st { unsigned long long value; unsigned int flags; } CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS;
CUresult cuSignalExternalSemaphoresAsync(const CUexternalSemaphore* extSemArray, const CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS* paramsArray, unsigned int numExtSems, CUstream stream);
