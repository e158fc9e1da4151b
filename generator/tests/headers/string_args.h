/* hipgen-spec
# Strings: `const char *` arguments take `str`, `bytes` or anything pointer-like
# (`rt::CStrArg`); a `const char *` result is copied into `bytes` (None for NULL).
*/

int strLength(const char* text);
int strCompare(const char* a, const char* b);
const char* strGreeting(void);
const char* strFind(const char* haystack, const char* needle);
