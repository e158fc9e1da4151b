/* HIPIFY pairs hipDeviceAttributeC with the runtime's member only: as the two CUDA enums
   number the common members alike, it passes as the driver's member of that value. */
#include <stddef.h>
typedef enum cudaError_enum { CUDA_SUCCESS = 0, CUDA_ERROR_INVALID_VALUE = 1, CUDA_ERROR_NOT_SUPPORTED = 801, CUDA_ERROR_UNKNOWN = 999 } CUresult;
typedef int CUdevice;
typedef enum CUdevice_attribute_enum { CU_DEVICE_ATTRIBUTE_A = 1, CU_DEVICE_ATTRIBUTE_B = 2, CU_DEVICE_ATTRIBUTE_C = 3 } CUdevice_attribute;
enum cudaDeviceAttr { cudaDevAttrA = 1, cudaDevAttrB = 2, cudaDevAttrC = 3 };
CUresult cuDeviceGetAttribute(int* pi, CUdevice_attribute attrib, CUdevice dev);
