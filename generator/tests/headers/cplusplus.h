/* hipgen-spec
# `language: c++`: the header is parsed as C++17 (`extern "C"` functions, C++ default
# arguments and `bool` without a header). `constructors`: C++ constructors the header gives
# a struct (read as C the IR has none), declared in the `.pxd` for C++ code that builds
# the struct by value (HIP's `dim3(x, y, z)`, each field defaulting to the value given).
language: c++
constructors: {cppDim3: 1}
*/
#include <stdint.h>

extern "C" {
typedef struct cppDim3 { uint32_t x; uint32_t y; uint32_t z; } cppDim3;
typedef enum cppFlag_t { cppFlagNone = 0, cppFlagSync = 1 } cppFlag_t;

int cppLaunch(cppDim3 grid, cppDim3 block, bool sync = false);
cppFlag_t cppDefaultFlag(void);
}
