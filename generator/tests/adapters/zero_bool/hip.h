/* HIP's stream query takes a bool last. */
#include <stddef.h>
#include <stdbool.h>
typedef enum hipError_t { hipSuccess = 0, hipErrorInvalidValue = 1 } hipError_t;
typedef struct ihipStream_t* hipStream_t;
hipError_t hipStreamQueryExt(hipStream_t stream, bool blocking);
