/* cuda-python passes the mode in and returns the old one as a CUstreamCaptureMode member
   (`inouts`). */
#include <stddef.h>
typedef enum cudaError_enum { CUDA_SUCCESS = 0, CUDA_ERROR_NOT_SUPPORTED = 801 } CUresult;
typedef enum CUstreamCaptureMode_enum { CU_STREAM_CAPTURE_MODE_GLOBAL = 0, CU_STREAM_CAPTURE_MODE_THREAD_LOCAL = 1, CU_STREAM_CAPTURE_MODE_RELAXED = 2 } CUstreamCaptureMode;
CUresult cuThreadExchangeStreamCaptureMode(CUstreamCaptureMode* mode);
