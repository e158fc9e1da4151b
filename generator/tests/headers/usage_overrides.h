/* hipgen-spec
# `params` rules override what the C type says, first matching key in file order winning:
# `usage: pointer` on a handle passed by value takes any pointer-like object, `usage: in`
# on a pointer passes it as an address, `usage: string` reads a non-const `char *` as a
# string argument, `usage: by_ref` passes a handle by reference (C may write it back) without
# destroying it.
params:
  uoUse\.stream: {usage: pointer}
  uoUse\.raw: {usage: in}
  uoLabel\.label: {usage: string}
  uoRetain\.stream: {usage: by_ref}
  'uo.*\.other': {usage: pointer}
*/

typedef struct uoStream* uoStream_t;

int uoUse(uoStream_t stream, void* raw, int* other);
int uoLabel(char* label);
int uoRetain(uoStream_t* stream);
