/* Flags HIP lacks, after the count (which therefore has no default): only 0 is passed
   on, anything else answers CUDA_ERROR_NOT_SUPPORTED. */
#include <stddef.h>
typedef enum cudaError_enum { CUDA_SUCCESS = 0, CUDA_ERROR_NOT_SUPPORTED = 801 } CUresult;
typedef struct CUgraph_st* CUgraph;
typedef struct CUgraphNode_st* CUgraphNode;
CUresult cuGraphGetRootNodes(CUgraph hGraph, CUgraphNode* rootNodes, size_t* numRootNodes, unsigned int flags);
