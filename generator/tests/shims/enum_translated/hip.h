/* HIP's capture modes, numbered otherwise than CUDA's. */
#include <stddef.h>
typedef enum hipError_t { hipSuccess = 0, hipErrorInvalidValue = 1, hipErrorNotSupported = 801, hipErrorUnknown = 999 } hipError_t;
typedef struct ihipStream_t* hipStream_t;
typedef enum hipStreamCaptureMode { hipStreamCaptureModeGlobal = 0, hipStreamCaptureModeThreadLocal = 1, hipStreamCaptureModeRelaxed = 2 } hipStreamCaptureMode;
hipError_t hipStreamBeginCapture(hipStream_t stream, hipStreamCaptureMode mode);
