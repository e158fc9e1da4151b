/* cuBLAS's operations: HIPSOLVER_OP_N stands for HIPBLAS_OP_N, which HIPIFY pairs with
   CUBLAS_OP_N (the spec's member_prefixes). */
#include <stddef.h>
typedef enum cudaError_enum { CUDA_SUCCESS = 0, CUDA_ERROR_INVALID_VALUE = 1, CUDA_ERROR_NOT_SUPPORTED = 801, CUDA_ERROR_UNKNOWN = 999 } CUresult;
typedef struct cusolverContext* cusolverHandle_t;
typedef enum { CUBLAS_OP_N = 0, CUBLAS_OP_T = 1 } cublasOperation_t;
CUresult cusolverTranspose(cusolverHandle_t handle, cublasOperation_t trans);
