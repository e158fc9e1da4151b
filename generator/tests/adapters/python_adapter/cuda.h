/* CUDA's profiler start takes no tag: a string has no zero a native adapter could pass, so
   the plan's adapter is left to the Python one (listed in the plan, not rendered). The
   native adapter beside it (no flags, 0 passed) keeps the module's `make` typed: a module
   whose adapters are all Python's renders a `make` that does not compile. */
#include <stddef.h>
typedef enum cudaError_enum { CUDA_SUCCESS = 0, CUDA_ERROR_NOT_SUPPORTED = 801 } CUresult;
CUresult cuProfilerStart(void);
CUresult cuMemAllocHost(void** pp, size_t bytesize);
