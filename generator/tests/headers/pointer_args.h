/* hipgen-spec
# What a pointer argument takes follows what it points at: a struct (an instance of that
# struct, or a buffer large enough; writable unless `const`), a number (a buffer of at least
# one; `const int *` is read, `int *` with `usage: pointer` written), or untyped memory
# (`void *`, `char *`: any pointer-like object, read-only buffers included).
status: {enum: ptrStatus_t}
params:
  ptrScale.values: {usage: pointer}
*/
#include <stddef.h>

typedef enum ptrStatus_t { ptrSuccess = 0, ptrError = 1 } ptrStatus_t;
typedef struct ptrVec { float x, y, z; } ptrVec;

ptrStatus_t ptrNormalize(ptrVec* v);
ptrStatus_t ptrLength(const ptrVec* v, float* length);
ptrStatus_t ptrSum(const int* values, size_t n, long* total);
ptrStatus_t ptrScale(double* values, size_t n, double factor);
ptrStatus_t ptrCopy(void* dst, const void* src, size_t bytes);
ptrStatus_t ptrFillText(char* text, const unsigned char* pattern);
