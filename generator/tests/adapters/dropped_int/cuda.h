/* cuEventRecordWithFlags's flags, which HIP lacks: only 0 (or None) is passed on. */
#include <stddef.h>
typedef enum cudaError_enum { CUDA_SUCCESS = 0, CUDA_ERROR_NOT_SUPPORTED = 801 } CUresult;
typedef struct CUevent_st* CUevent;
typedef struct CUstream_st* CUstream;
CUresult cuEventRecordWithFlags(CUevent hEvent, CUstream hStream, unsigned int flags);
