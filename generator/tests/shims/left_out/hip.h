/* Functions the shim cannot export, each for a reason of its own. */
#include <stddef.h>
typedef enum hipError_t { hipSuccess = 0, hipErrorInvalidValue = 1, hipErrorNotSupported = 801, hipErrorUnknown = 999 } hipError_t;
void hipProfilerMark(int id);
hipError_t hipNoCudaCounterpart(int value);
hipError_t hipDeviceReset(void);
