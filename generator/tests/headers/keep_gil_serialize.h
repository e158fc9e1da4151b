/* hipgen-spec
# `keep_gil`: calls that never block keep the GIL held around C. `serialize`: calls the
# library cannot run from two threads at once take its lock with the GIL released; where
# a buffer's size is asked of the library (`sizes: ...()`), that query runs under the lock
# too. `library.parallel_from`: from which release of the library (its version function's
# major) the lock is no longer taken.
keep_gil: [kgErrorName, kgVersion]
serialize: ['kgCompile.*', kgGetCode]
sizes:
  'kgGetCode\.code': kgGetCodeSize()
library:
  name: keep_gil_serialize
  env: KEEP_GIL_SERIALIZE_LIB
  sonames: [libkeep_gil_serialize.so]
  parallel_from: {symbol: kgLibVersion, major: 7}
*/
#include <stddef.h>

typedef struct kgProgram* kgProgram_t;

const char* kgErrorName(int code);
int kgVersion(void);
int kgLibVersion(int* major, int* minor);
int kgCompile(kgProgram_t prog, int numOptions, const char** options);
int kgCompileFast(kgProgram_t prog);
int kgGetCodeSize(kgProgram_t prog, size_t* size);
int kgGetCode(kgProgram_t prog, char* code);
int kgWait(kgProgram_t prog);
