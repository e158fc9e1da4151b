/* hipgen-spec
# `void *` typedefs: opaque handles by default (`vpHandle_t`: passed by value it refuses
# structs, arrays and buffers), memory where `memory_typedefs` says so (`vpDeviceptr_t`: any
# pointer-like object). Both are Python aliases of `Pointer`; results are `Pointer`s.
memory_typedefs: [vpDeviceptr_t]
*/
#include <stddef.h>

typedef void* vpHandle_t;
typedef void* vpDeviceptr_t;

int vpCreate(vpHandle_t* handle);
int vpUse(vpHandle_t handle, vpDeviceptr_t mem, size_t bytes);
vpDeviceptr_t vpBase(vpHandle_t handle);
vpHandle_t vpCurrent(void);
