/* A graph query taking a float, a bool and flags CUDA lacks, writing device addresses. */
#include <stdbool.h>
#include <stddef.h>
typedef enum hipError_t { hipSuccess = 0, hipErrorInvalidValue = 1 } hipError_t;
typedef struct ihipGraph* hipGraph_t;
typedef struct hipGraphNode* hipGraphNode_t;
typedef void* hipDeviceptr_t;
hipError_t hipGraphGetScaledAddresses(hipGraph_t graph, float scale, bool enable, hipDeviceptr_t* addresses, size_t* numAddresses, unsigned int flags);
