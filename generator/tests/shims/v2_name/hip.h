/* hipBLAS's plain name. */
#include <stddef.h>
typedef enum hipError_t { hipSuccess = 0, hipErrorInvalidValue = 1, hipErrorNotSupported = 801, hipErrorUnknown = 999 } hipError_t;
typedef struct hipblasContext* hipblasHandle_t;
hipError_t hipblasScopy(hipblasHandle_t handle, int n, const float* x, int incx, float* y, int incy);
