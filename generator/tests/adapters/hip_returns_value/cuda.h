/* CUDA's returns a status and the name: the CUDA name is HIP's function as it is (in no
   list of the plan). */
#include <stddef.h>
typedef enum cudaError_enum { CUDA_SUCCESS = 0, CUDA_ERROR_NOT_SUPPORTED = 801 } CUresult;
CUresult cuGetErrorName(CUresult error, const char** pStr);
