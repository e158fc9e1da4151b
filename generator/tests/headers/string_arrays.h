/* hipgen-spec
# Arrays of strings (`const char **`, `const char *const *`): a list of `str`/`bytes` passed as
# a temporary C array (`rt::CStrArrayArg`). A count-named integer next to the list (`n`,
# `numOptions`, `count`, before or after) is paired with it and checked against the list's
# length; `counts` pairs one the rule does not (`sources: numHeaders`).
counts:
  'saCompile\.sources': numHeaders
*/

int saJoin(const char** parts);
int saOptions(int numOptions, const char** options);
int saFlags(const char* const* flags, int count);
int saCompile(const char** sources, const char** names, int numHeaders, int unrelated);
