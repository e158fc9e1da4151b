/* hipgen-spec
# What the generator must leave out, each recorded with its reason (`skipped.txt`, as
# `hipgen generate` writes it into the IR file): a variadic function, a `static inline`
# function the library does not export, and functions of a type hipgen cannot bind
# (`long double`, a vector). What else the header declares is bound.
*/

typedef float skFloat4 __attribute__((ext_vector_type(4)));

int skPrintf(const char* fmt, ...);
static inline int skHelper(int x) { return x + 1; }
long double skPrecise(long double x);
int skVector(skFloat4 v);
int skKept(int x);
