/* hipgen-spec
# A version check against an interface major (`major_constant`, comgr's
# `AMD_COMGR_INTERFACE_VERSION_MAJOR`): `void f(size_t *major, size_t *minor)` must answer the
# header constant's value. The library serves NVIDIA as it is (`nvidia.same`).
constants:
  include: ['LIC_.*']
library:
  name: lic
  env: LIC_LIB
  sonames: [liblic.so.3]
  version: {symbol: licGetVersion, major_constant: LIC_INTERFACE_VERSION_MAJOR}
  nvidia: {same: true}
*/
#include <stddef.h>

#define LIC_INTERFACE_VERSION_MAJOR 3
#define LIC_INTERFACE_VERSION_MINOR 1

void licGetVersion(size_t* major, size_t* minor);
