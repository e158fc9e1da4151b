/* hipgen-spec
# `success_for_void_outputs`: a void function with outputs puts the success member first too,
# as rocm-llvm-python's `amd_comgr_get_version` returns `(AMD_COMGR_STATUS_SUCCESS, major,
# minor)`. `unavailable`: the member the `.pxd`'s trampolines answer when the library or the
# symbol cannot be loaded (the status enum has no "not initialized" member).
status:
  enum: svStatus_t
  success_for_plain_returns: svSuccess
  success_for_void_outputs: true
  unavailable: svSystemError
*/
#include <stddef.h>

typedef enum svStatus_t { svSuccess = 0, svSystemError = 2, svInvalid = 4 } svStatus_t;

void svGetVersion(size_t* major, size_t* minor);
void svNoOutputs(int value);
svStatus_t svCheck(int value);
