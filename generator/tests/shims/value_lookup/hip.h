/* A string per enum value: a lookup. */
#include <stddef.h>
typedef enum hipError_t { hipSuccess = 0, hipErrorInvalidValue = 1, hipErrorNotSupported = 801, hipErrorUnknown = 999 } hipError_t;
const char* hipGetErrorString(hipError_t hipError);
