/* CUDA 13's returns edge data HIP lacks: as many zeroed CUgraphEdgeData as the count says
   (what CUDA reports for plain edges, the only ones HIP makes). */
#include <stddef.h>
typedef enum cudaError_enum { CUDA_SUCCESS = 0, CUDA_ERROR_NOT_SUPPORTED = 801 } CUresult;
typedef struct CUgraph_st* CUgraph;
typedef struct CUgraphNode_st* CUgraphNode;
typedef struct CUgraphEdgeData_st { unsigned char from_port; unsigned char to_port; unsigned char type; } CUgraphEdgeData;
CUresult cuGraphGetEdges(CUgraph hGraph, CUgraphNode* from, CUgraphNode* to, CUgraphEdgeData* edgeData, size_t* numEdges);
