/* HIP's flush takes a scope enum last. */
#include <stddef.h>
typedef enum hipError_t { hipSuccess = 0, hipErrorInvalidValue = 1 } hipError_t;
typedef enum hipFlushScope { hipFlushScopeDevice = 0, hipFlushScopeSystem = 1 } hipFlushScope;
hipError_t hipFlushWritesExt(unsigned int flags, hipFlushScope scope);
