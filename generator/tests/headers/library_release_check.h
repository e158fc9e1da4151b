/* hipgen-spec
# The loader's spec (`library`): the environment variable that overrides the path, file
# names tried in order, the ROCm folders holding them (`rocm_dirs`), what provides the
# library on NVIDIA (a shim of ours, generated over a CUDA library whose names and wheels
# are listed), and the version check: `int f(int *version)` whose answer divided by
# `divisor` must be the headers' release major.
library:
  name: lrc
  env: LRC_LIBRARY_PATH
  sonames: [liblrc.so.1, liblrc.so]
  rocm_dirs: [lib, lib64]
  version: {symbol: lrcGetVersion, divisor: 10000000}
  nvidia:
    shim: liblrc_nvidia.so
    cuda:
      headers: [cuda_lrc.h]
      sonames: [libculrc.so.12]
      wheels: [nvidia.culrc]
      status: {unsupported: lrcErrorNotSupported, invalid: lrcErrorInvalid, unknown: lrcErrorUnknown}
*/

typedef enum lrcStatus_t { lrcSuccess = 0, lrcErrorInvalid = 1, lrcErrorNotSupported = 2, lrcErrorUnknown = 3 } lrcStatus_t;

lrcStatus_t lrcGetVersion(int* version);
