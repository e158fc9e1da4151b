/* hipgen-spec
# `scalar_pointers: pointer`: non-const pointers to numbers, enums and pointers are
# caller-provided buffers, not outputs, as the math libraries take them (`float *result`,
# `int *info`, batched `void *A[]`).
scalar_pointers: pointer
*/

typedef enum spMode_t { spModeA = 0, spModeB = 1 } spMode_t;

int spDot(int n, const float* x, const float* y, float* result);
int spInfo(int* info, spMode_t* modes);
int spBatched(void** arrays, int batchCount);
