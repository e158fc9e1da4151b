/* cuMemHostAlloc's void ** output: cuda-python returns the address as an int. */
#include <stddef.h>
typedef enum cudaError_enum { CUDA_SUCCESS = 0, CUDA_ERROR_NOT_SUPPORTED = 801 } CUresult;
CUresult cuMemHostAlloc(void** pp, size_t bytesize, unsigned int Flags);
