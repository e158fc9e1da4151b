/* hipgen-spec
# `counts` in the call form `Fn(arg)`: an array of handles C fills, as many as the library's
# count function answers for the same arguments (`LLVMGetParams.Params: LLVMCountParams(Fn)`);
# a buffer holding fewer is refused before C writes past it.
counts:
  'cqGetParams\.params': cqCountParams(fn)
  'cqGetOperands\.ops': cqCountOperands(fn, index)
params:
  cqGetParams.params: {usage: pointer}
  cqGetOperands.ops: {usage: pointer}
*/

typedef struct cqValue* cqValue_t;

unsigned cqCountParams(cqValue_t fn);
void cqGetParams(cqValue_t fn, cqValue_t* params);
unsigned cqCountOperands(cqValue_t fn, const char* index);
void cqGetOperands(cqValue_t fn, const char* index, cqValue_t* ops);
