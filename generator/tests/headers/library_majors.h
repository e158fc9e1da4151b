/* hipgen-spec
# File names carrying the library's major version (`{major}`, written once per version of
# `majors`, newest first, where the first such name stands: LLVM's `libLLVM.so.{major}.1`),
# and a version function recorded for the choice among bindings of several versions, not
# checked (`triple`: `void f(unsigned *major, unsigned *minor, unsigned *patch)`). On NVIDIA
# an NVIDIA library from a wheel provides it.
library:
  name: lmj
  env: LMJ_LIB
  sonames: [liblmj.so, 'liblmj.so.{major}.1', 'liblmj-{major}.so', liblmj-last.so]
  majors: [21, 19]
  version: {symbol: lmjGetVersion, triple: true}
  nvidia: {sonames: [liblmj_nv.so.2], wheel: nvidia.lmj}
*/

void lmjGetVersion(unsigned* major, unsigned* minor, unsigned* patch);
