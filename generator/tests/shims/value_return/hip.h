/* A function returning a value, not a status. */
#include <stddef.h>
typedef enum hipError_t { hipSuccess = 0, hipErrorInvalidValue = 1, hipErrorNotSupported = 801, hipErrorUnknown = 999 } hipError_t;
typedef struct ihipModuleSymbol_t* hipFunction_t;
const char* hipKernelNameRef(hipFunction_t f);
