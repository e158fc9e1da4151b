/* hipFree takes a non-const pointer. */
#include <stddef.h>
typedef enum hipError_t { hipSuccess = 0, hipErrorInvalidValue = 1 } hipError_t;
hipError_t hipFree(void* ptr);
