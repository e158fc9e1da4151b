/* An array of structs, counted (numExtSems) and named so (paramsArray). */
#include <stddef.h>
typedef enum hipError_t { hipSuccess = 0, hipErrorInvalidValue = 1, hipErrorNotSupported = 801, hipErrorUnknown = 999 } hipError_t;
typedef struct ihipExtSem* hipExternalSemaphore_t;
typedef struct ihipStream_t* hipStream_t;
typedef struct hipExternalSemaphoreSignalParams { unsigned long long value; unsigned int flags; } hipExternalSemaphoreSignalParams;
hipError_t hipSignalExternalSemaphoresAsync(const hipExternalSemaphore_t* extSemArray, const hipExternalSemaphoreSignalParams* paramsArray, unsigned int numExtSems, hipStream_t stream);
