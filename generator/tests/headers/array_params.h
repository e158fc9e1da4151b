/* hipgen-spec
# Array parameters are pointers in C (`const uint8_t key[32]`, `float out[]`): a const one is
# a typed buffer of its element, read-only. A non-const one would be an output of one
# element, as any `T *` (`scalar_pointers: out`), so the spec makes it a writable buffer
# (`usage: pointer`), as it does an array of enums a count names.
params:
  apHash.digest: {usage: pointer}
  apFill.out: {usage: pointer}
  apSetModes.modes: {usage: pointer}
*/
#include <stdint.h>

typedef enum apMode_t { apModeA = 1, apModeB = 2 } apMode_t;

int apHash(const uint8_t key[32], uint8_t digest[16]);
int apFill(float out[], int n);
int apSetModes(apMode_t* modes, int numModes);
