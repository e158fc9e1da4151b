/* hipgen-spec
# A library others import (`imports_user` uses its types, as hipBLAS uses HIP's
# `hipStream_t`): it binds its own types and functions as any library.
status: {enum: ibStatus_t}
*/
#include <stdint.h>

typedef enum ibStatus_t { ibSuccess = 0, ibError = 1 } ibStatus_t;
typedef enum ibDataType_t { ibFloat = 0, ibDouble = 1 } ibDataType_t;
typedef struct ibStream* ibStream_t;
typedef struct ibDim3 { uint32_t x, y, z; } ibDim3;
typedef struct ibComplex { float re, im; } ibComplex;

ibStatus_t ibStreamCreate(ibStream_t* stream);
