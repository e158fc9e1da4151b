/* hipgen-spec
# Non-const pointers to numbers are outputs by default (`scalar_pointers: out`): C writes
# into storage the binding allocates, and the values join the result tuple; a `bool *` is
# read back as one byte. More than four results make a plain tuple, not a shared one.
status: {enum: osStatus_t}
*/
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum osStatus_t { osSuccess = 0, osError = 1 } osStatus_t;

osStatus_t osGetCount(int* count);
osStatus_t osGetInfo(int device, size_t* bytes, double* clock, bool* enabled, uint8_t* tier);
osStatus_t osGetMany(int* a, int* b, int* c, int* d, int* e);
