/* cuda-python takes the options and their values as lists (the spec's `lists`): a list of
   integers, a list of pointers; the module comes back as cuda-python's CUmodule. */
#include <stddef.h>
typedef enum cudaError_enum { CUDA_SUCCESS = 0, CUDA_ERROR_NOT_SUPPORTED = 801 } CUresult;
typedef struct CUmod_st* CUmodule;
typedef enum CUjit_option_enum { CU_JIT_MAX_REGISTERS = 0, CU_JIT_THREADS_PER_BLOCK = 1 } CUjit_option;
CUresult cuModuleLoadDataEx(CUmodule* module, const void* image, unsigned int numOptions, CUjit_option* options, void** optionValues);
