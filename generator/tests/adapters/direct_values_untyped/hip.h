/* hipDrvPointerGetAttributes writes one value per attribute, each where data points. */
#include <stddef.h>
typedef enum hipError_t { hipSuccess = 0, hipErrorInvalidValue = 1 } hipError_t;
typedef void* hipDeviceptr_t;
typedef enum hipPointer_attribute { HIP_POINTER_ATTRIBUTE_CONTEXT = 1, HIP_POINTER_ATTRIBUTE_DEVICE_ORDINAL = 9 } hipPointer_attribute;
hipError_t hipDrvPointerGetAttributes(unsigned int numAttributes, hipPointer_attribute* attributes, void** data, hipDeviceptr_t ptr);
