/* The count goes in and out (`inouts`), so the C function is called: a float, a bool, 0 for
   HIP's flags; the address written comes back as a CUdeviceptr, the count as an int. */
#include <stddef.h>
typedef enum cudaError_enum { CUDA_SUCCESS = 0, CUDA_ERROR_NOT_SUPPORTED = 801 } CUresult;
typedef struct CUgraph_st* CUgraph;
typedef struct CUgraphNode_st* CUgraphNode;
typedef unsigned long long CUdeviceptr;
CUresult cuGraphGetScaledAddresses(CUgraph hGraph, float scale, int enable, CUdeviceptr* addresses, size_t* numAddresses);
