/* HIP's query takes a struct by value that CUDA's lacks. */
#include <stddef.h>
typedef enum hipError_t { hipSuccess = 0, hipErrorInvalidValue = 1 } hipError_t;
typedef struct ihipGraph* hipGraph_t;
typedef struct hipGraphNode* hipGraphNode_t;
typedef struct hipGraphQuery { int depth; int flags; } hipGraphQuery;
hipError_t hipGraphGetNodesWhere(hipGraph_t graph, hipGraphNode_t* nodes, size_t* numNodes, hipGraphQuery query);
