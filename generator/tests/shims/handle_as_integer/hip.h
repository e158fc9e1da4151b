/* HIP's texture object is a handle. */
#include <stddef.h>
typedef enum hipError_t { hipSuccess = 0, hipErrorInvalidValue = 1, hipErrorNotSupported = 801, hipErrorUnknown = 999 } hipError_t;
typedef struct __hip_texture* hipTextureObject_t;
hipError_t hipTexObjectDestroy(hipTextureObject_t texObject);
