/* hipgen-spec
# `field_defaults`: the values a struct's keyword constructor starts from, per field (HIP's
# `hipDeviceProp_t` fields, `dim3`'s 1s), named by the struct's name or a typedef of it.
field_defaults:
  fdDim3: {x: 1, y: 1, z: 1}
  fdConfig_t: {retries: 3}
*/
#include <stdint.h>

typedef struct fdDim3 { uint32_t x, y, z; } fdDim3;
typedef struct fdConfig { int retries; int timeout; } fdConfig_t;

int fdLaunch(fdDim3 grid, const fdConfig_t* config);
