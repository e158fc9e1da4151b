/* hipgen-spec
# `void **` outputs: a pointer C allocates. With `size_param` (hipMalloc's `size`) it is a
# `DeviceArray` of that many bytes; without, a `Pointer`.
status: {enum: odStatus_t}
params:
  odMalloc.ptr: {usage: out, size_param: size}
*/
#include <stddef.h>

typedef enum odStatus_t { odSuccess = 0, odError = 1 } odStatus_t;

odStatus_t odMalloc(void** ptr, size_t size);
odStatus_t odGetBase(void** base, int device);
