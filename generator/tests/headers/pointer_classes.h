/* hipgen-spec
# `pointer_classes`: names bound to `Pointer` beyond the header's `void *` typedefs (typedefs
# the IR does not model, such as arrays: hiprand's `hiprandDirectionVectors32_t`).
pointer_classes: [pcDirections_t]
*/

typedef unsigned int pcDirections_t[32];
typedef void* pcState_t;

int pcGetDirections(const unsigned int* vectors, int n);
