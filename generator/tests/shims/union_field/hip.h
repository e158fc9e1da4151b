/* A struct holding a union, which a member copy carries as its bytes. */
#include <stddef.h>
typedef enum hipError_t { hipSuccess = 0, hipErrorInvalidValue = 1, hipErrorNotSupported = 801, hipErrorUnknown = 999 } hipError_t;
typedef struct hipResourceDesc { int resType; union { struct { void* devPtr; size_t sizeInBytes; } linear; int reserved[8]; } res; unsigned int flags; } hipResourceDesc;
typedef unsigned long long hipTextureObject_t;
hipError_t hipTexObjectCreate(hipTextureObject_t* pTexObject, const hipResourceDesc* pResDesc);
