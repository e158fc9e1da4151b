/* HIPIFY names hipblasScopy_v2 for cuBLAS's function; the plain name takes its candidates. */
#include <stddef.h>
typedef enum cudaError_enum { CUDA_SUCCESS = 0, CUDA_ERROR_INVALID_VALUE = 1, CUDA_ERROR_NOT_SUPPORTED = 801, CUDA_ERROR_UNKNOWN = 999 } CUresult;
typedef struct cublasContext* cublasHandle_t;
CUresult cublasScopy_v2(cublasHandle_t handle, int n, const float* x, int incx, float* y, int incy);
