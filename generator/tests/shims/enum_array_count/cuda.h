/* CUDA's options are numbered otherwise: the array converts element by element (hipgen::arr,
   numOptions naming it). */
#include <stddef.h>
typedef enum cudaError_enum { CUDA_SUCCESS = 0, CUDA_ERROR_INVALID_VALUE = 1, CUDA_ERROR_NOT_SUPPORTED = 801, CUDA_ERROR_UNKNOWN = 999 } CUresult;
typedef struct CUmod_st* CUmodule;
typedef enum CUjit_option_enum { CU_JIT_MAX_REGISTERS = 5, CU_JIT_THREADS_PER_BLOCK = 6 } CUjit_option;
CUresult cuModuleLoadDataEx(CUmodule* module, const void* image, unsigned int numOptions, CUjit_option* options, void** optionValues);
