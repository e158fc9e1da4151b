/* The spec's same_as gives it hipHostAlloc's CUDA candidates. */
#include <stddef.h>
typedef enum cudaError_enum { CUDA_SUCCESS = 0, CUDA_ERROR_INVALID_VALUE = 1, CUDA_ERROR_NOT_SUPPORTED = 801, CUDA_ERROR_UNKNOWN = 999 } CUresult;
CUresult cuMemHostAlloc(void** pp, size_t bytesize, unsigned int Flags);
