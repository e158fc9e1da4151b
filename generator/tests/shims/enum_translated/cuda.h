/* CUDA's: the mode translates member by member through HIPIFY's pairs (to_cuda). */
#include <stddef.h>
typedef enum cudaError_enum { CUDA_SUCCESS = 0, CUDA_ERROR_INVALID_VALUE = 1, CUDA_ERROR_NOT_SUPPORTED = 801, CUDA_ERROR_UNKNOWN = 999 } CUresult;
typedef struct CUstream_st* CUstream;
typedef enum CUstreamCaptureMode_enum { CU_STREAM_CAPTURE_MODE_GLOBAL = 10, CU_STREAM_CAPTURE_MODE_THREAD_LOCAL = 11, CU_STREAM_CAPTURE_MODE_RELAXED = 12 } CUstreamCaptureMode;
CUresult cuStreamBeginCapture(CUstream hStream, CUstreamCaptureMode mode);
