/* hipgen-spec
# `plain_results`: a single result is returned as itself and no result as None, instead of
# a tuple, as rocm-llvm-python's LLVM modules do (`LLVMInt32Type()` is the type); two or more
# results are still a tuple.
plain_results: true
*/

typedef struct prType* prType_t;

prType_t prInt32Type(void);
int prWidth(prType_t ty);
void prDump(prType_t ty);
int prSplit(prType_t ty, int* lo, int* hi);
