/* No flags: the adapter passes 0 as HIP's. */
#include <stddef.h>
typedef enum cudaError_enum { CUDA_SUCCESS = 0, CUDA_ERROR_NOT_SUPPORTED = 801 } CUresult;
CUresult cuMemAllocHost(void** pp, size_t bytesize);
