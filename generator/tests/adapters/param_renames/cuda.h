/* cuda-python spells the parameter `type` as `typename` (the spec's param_renames); the
   adapter exists for a count HIP lacks, which must be 0. */
#include <stddef.h>
typedef enum cudaError_enum { CUDA_SUCCESS = 0, CUDA_ERROR_NOT_SUPPORTED = 801 } CUresult;
typedef struct CUlinkState_st* CUlinkState;
typedef enum CUjitInputType_enum { CU_JIT_INPUT_CUBIN = 0, CU_JIT_INPUT_PTX = 1 } CUjitInputType;
CUresult cuLinkAddFile(CUlinkState state, CUjitInputType type, const char* path, unsigned int numOptions);
