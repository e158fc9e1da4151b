/* CU_LIMIT_PRINTF_FIFO_SIZE has no HIP member: its value (1), which no HIP member has, passes
   as CUDA's member (the cuda package gives such names CUDA's value). */
#include <stddef.h>
typedef enum cudaError_enum { CUDA_SUCCESS = 0, CUDA_ERROR_INVALID_VALUE = 1, CUDA_ERROR_NOT_SUPPORTED = 801, CUDA_ERROR_UNKNOWN = 999 } CUresult;
typedef enum CUlimit_enum { CU_LIMIT_STACK_SIZE = 0, CU_LIMIT_PRINTF_FIFO_SIZE = 1, CU_LIMIT_MALLOC_HEAP_SIZE = 2 } CUlimit;
CUresult cuCtxSetLimit(CUlimit limit, size_t value);
