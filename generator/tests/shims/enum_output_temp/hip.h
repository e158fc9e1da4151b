/* An enum output, numbered otherwise than CUDA's. */
#include <stddef.h>
typedef enum hipError_t { hipSuccess = 0, hipErrorInvalidValue = 1, hipErrorNotSupported = 801, hipErrorUnknown = 999 } hipError_t;
typedef struct ihipStream_t* hipStream_t;
typedef enum hipStreamCaptureStatus { hipStreamCaptureStatusNone = 0, hipStreamCaptureStatusActive = 1 } hipStreamCaptureStatus;
hipError_t hipStreamIsCapturing(hipStream_t stream, hipStreamCaptureStatus* pCaptureStatus);
