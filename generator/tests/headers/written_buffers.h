/* hipgen-spec
# `written`: untyped pointers C writes through refuse read-only buffers (`bytes`) with a
# TypeError (`rt::PtrArgWritten`); every other `void *` takes them (`rt::PtrArgMut`), as
# hip-python's users pass `bytes(n)`.
written: ['wbRead\.dst', 'wbDecode\..*']
*/
#include <stddef.h>

int wbRead(void* dst, size_t bytes);
int wbPeek(void* dst, size_t bytes);
int wbDecode(char* out, void* scratch, const void* input);
