/* The spec's prefer tries the driver's first, though the table lists the runtime's first. */
#include <stddef.h>
typedef enum cudaError_enum { CUDA_SUCCESS = 0, CUDA_ERROR_INVALID_VALUE = 1, CUDA_ERROR_NOT_SUPPORTED = 801, CUDA_ERROR_UNKNOWN = 999 } CUresult;
typedef int CUdevice;
typedef enum CUdevice_attribute_enum { CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 1 } CUdevice_attribute;
enum cudaDeviceAttr { cudaDevAttrMaxThreadsPerBlock = 1 };
CUresult cudaDeviceGetAttribute(int* value, enum cudaDeviceAttr attr, int device);
CUresult cuDeviceGetAttribute(int* pi, CUdevice_attribute attrib, CUdevice dev);
