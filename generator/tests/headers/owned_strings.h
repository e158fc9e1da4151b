/* hipgen-spec
# `owned_strings`: non-const `char *` results of the functions named, returned or through a
# `char **` out parameter, are the caller's to free: copied into `bytes`, then handed to the
# library's free function. That free function, bound too, takes only a pointer it may free
# (one of the copies the bindings returned is a no-op; other Python memory a TypeError). A
# `const char *` result of the same functions is not freed.
owned_strings:
  - {free: osFreeString, functions: ['osDescribe.*', osGetMessage]}
params:
  osGetMessage.message: {usage: out}
  osFreeString.s: {usage: pointer}
*/

char* osDescribe(int code);
const char* osDescribeStatic(int code);
int osGetMessage(int code, char** message);
char* osNotOwned(int code);
void osFreeString(char* s);
