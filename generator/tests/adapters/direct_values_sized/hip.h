/* hipMemRangeGetAttributes writes each attribute's value in as many bytes as its size. */
#include <stddef.h>
typedef enum hipError_t { hipSuccess = 0, hipErrorInvalidValue = 1 } hipError_t;
typedef enum hipMemRangeAttribute { hipMemRangeAttributeReadMostly = 1, hipMemRangeAttributeAccessedBy = 3 } hipMemRangeAttribute;
hipError_t hipMemRangeGetAttributes(void** data, size_t* data_sizes, hipMemRangeAttribute* attributes, size_t num_attributes, const void* dev_ptr, size_t count);
