/* hipgen-spec
# `imports`: a library using another's types (its header includes the other's): their
# arguments and results convert through the imported module's type registry
# (`super::imports_base::TYPES`), the stub imports and re-exports them, the `.pxd` cimports
# the other's C level. `reexport_types`: an imported type re-exported although nothing here
# uses it (`hipsparse.hipError_t`).
imports: [imports_base]
reexport_types: [ibComplex]
*/
#include "imports_base.h"

typedef enum iuStatus_t { iuSuccess = 0, iuError = 1 } iuStatus_t;
typedef struct iuHandle* iuHandle_t;
typedef struct iuConfig { ibDataType_t type; ibStream_t stream; int batch; } iuConfig;

iuStatus_t iuSetStream(iuHandle_t handle, ibStream_t stream);
iuStatus_t iuGetStream(iuHandle_t handle, ibStream_t* stream);
iuStatus_t iuGemm(iuHandle_t handle, ibDataType_t type, ibDim3 dims, const iuConfig* config);
ibStatus_t iuLastStatus(void);
