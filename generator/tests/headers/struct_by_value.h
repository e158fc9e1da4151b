/* hipgen-spec
# Structs by value: an argument takes an instance of the struct class and passes a
# `#[repr(C)]` mirror of it (size asserted at compile time); a result is copied into a new
# instance. A mirror holds nested structs, arrays (of arrays) and, for an anonymous union, a
# `#[repr(C)]` union at the members' offset, so the calling convention sees C's layout.
*/
#include <stdint.h>

typedef struct bvDim3 { uint32_t x, y, z; } bvDim3;
typedef struct bvRange { bvDim3 lo; bvDim3 hi; float weights[2][3]; } bvRange;
typedef struct bvVariant { int kind; union { int i; double d; }; } bvVariant;

int bvLaunch(bvDim3 grid, bvDim3 block, int shared);
bvDim3 bvDefaultDim(void);
bvRange bvClamp(bvRange range, bvDim3 limit);
double bvValue(bvVariant v);
