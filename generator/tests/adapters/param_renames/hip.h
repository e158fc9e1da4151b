/* hipLinkAddFile (its JIT options left out of the fixture). */
#include <stddef.h>
typedef enum hipError_t { hipSuccess = 0, hipErrorInvalidValue = 1 } hipError_t;
typedef struct ihiprtcLinkState* hipLinkState_t;
typedef enum hipJitInputType { hipJitInputCubin = 0, hipJitInputPtx = 1 } hipJitInputType;
hipError_t hipLinkAddFile(hipLinkState_t state, hipJitInputType type, const char* path);
