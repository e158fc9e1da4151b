/* hipSOLVER's operation enum: members HIPIFY names only under hipBLAS's prefix. */
#include <stddef.h>
typedef enum hipError_t { hipSuccess = 0, hipErrorInvalidValue = 1, hipErrorNotSupported = 801, hipErrorUnknown = 999 } hipError_t;
typedef struct hipsolverHandle* hipsolverHandle_t;
typedef enum hipsolverOperation_t { HIPSOLVER_OP_N = 111, HIPSOLVER_OP_T = 112 } hipsolverOperation_t;
typedef enum hipblasOperation_t { HIPBLAS_OP_N = 111, HIPBLAS_OP_T = 112 } hipblasOperation_t;
hipError_t hipsolverTranspose(hipsolverHandle_t handle, hipsolverOperation_t trans);
