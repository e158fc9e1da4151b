/* hipgen-spec
# A handle that is a struct of one integer passed by value (comgr's `amd_comgr_data_t`):
# mirrored as a `#[repr(C)]` struct, and marked destroyed by `destroys` like a pointer handle.
status: {enum: dsStatus_t}
destroys: [dsRelease]
*/
#include <stdint.h>

typedef enum dsStatus_t { dsSuccess = 0, dsError = 1 } dsStatus_t;
typedef struct dsData_s { uint64_t handle; } dsData_t;

dsStatus_t dsCreate(int kind, dsData_t* data);
dsStatus_t dsRelease(dsData_t data);
dsStatus_t dsGetSize(dsData_t data, uint64_t* size);
