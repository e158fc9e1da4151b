/* hipPointerGetAttribute writes the value through a void *. */
#include <stddef.h>
typedef enum hipError_t { hipSuccess = 0, hipErrorInvalidValue = 1 } hipError_t;
typedef void* hipDeviceptr_t;
typedef enum hipPointer_attribute { HIP_POINTER_ATTRIBUTE_CONTEXT = 1, HIP_POINTER_ATTRIBUTE_MEMORY_TYPE = 2, HIP_POINTER_ATTRIBUTE_DEVICE_POINTER = 3, HIP_POINTER_ATTRIBUTE_IS_MANAGED = 8, HIP_POINTER_ATTRIBUTE_DEVICE_ORDINAL = 9 } hipPointer_attribute;
hipError_t hipPointerGetAttribute(void* data, hipPointer_attribute attribute, hipDeviceptr_t ptr);
