/* hipMemRangeGetAttribute writes the value in data_size bytes. */
#include <stddef.h>
typedef enum hipError_t { hipSuccess = 0, hipErrorInvalidValue = 1 } hipError_t;
typedef enum hipMemRangeAttribute { hipMemRangeAttributeReadMostly = 1, hipMemRangeAttributeAccessedBy = 3 } hipMemRangeAttribute;
hipError_t hipMemRangeGetAttribute(void* data, size_t data_size, hipMemRangeAttribute attribute, const void* dev_ptr, size_t count);
