/* HIP's texture object is a handle; the resource description a struct the caller gives. */
#include <stddef.h>
typedef enum hipError_t { hipSuccess = 0, hipErrorInvalidValue = 1 } hipError_t;
typedef struct __hip_texture* hipTextureObject_t;
typedef struct HIP_RESOURCE_DESC_st { int resType; unsigned int flags; } HIP_RESOURCE_DESC;
hipError_t hipTexObjectGetResourceDesc(HIP_RESOURCE_DESC* pResDesc, hipTextureObject_t texObject);
