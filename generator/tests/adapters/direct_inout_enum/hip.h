/* hipThreadExchangeStreamCaptureMode swaps the thread's mode (a call that keeps the GIL). */
#include <stddef.h>
typedef enum hipError_t { hipSuccess = 0, hipErrorInvalidValue = 1 } hipError_t;
typedef enum hipStreamCaptureMode { hipStreamCaptureModeGlobal = 0, hipStreamCaptureModeThreadLocal = 1, hipStreamCaptureModeRelaxed = 2 } hipStreamCaptureMode;
hipError_t hipThreadExchangeStreamCaptureMode(hipStreamCaptureMode* mode);
