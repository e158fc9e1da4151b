/* A direct call would have to make that struct (no zero of it): the plan says why in
   `mismatched`, and the CUDA name is HIP's function. */
#include <stddef.h>
typedef enum cudaError_enum { CUDA_SUCCESS = 0, CUDA_ERROR_NOT_SUPPORTED = 801 } CUresult;
typedef struct CUgraph_st* CUgraph;
typedef struct CUgraphNode_st* CUgraphNode;
CUresult cuGraphGetNodesWhere(CUgraph hGraph, CUgraphNode* nodes, size_t* numNodes);
