/* hipgen-spec
# `constants`: macros matching `include` (and not `exclude`) become module constants:
# integers, expressions of other constants, hex, negative and string literals; a cast is
# read through (`CST_POINTER` is 1, as hip-python's `HIP_LAUNCH_PARAM_BUFFER_POINTER`).
# Anonymous enum members are constants too (the same filter). Char literals and
# function-like macros are not.
constants:
  include: ['CST_.*']
  exclude: ['CST_INTERNAL_.*']
*/

#define CST_VERSION_MAJOR 6
#define CST_VERSION_MINOR 2
#define CST_VERSION (CST_VERSION_MAJOR * 100 + CST_VERSION_MINOR)
#define CST_FLAGS (1 << 4 | 0x3)
#define CST_MASK 0xFFFFFFFFu
#define CST_NEGATIVE (-42)
#define CST_BIG 0x7FFFFFFFFFFFFFFFLL
#define CST_CHAR 'A'
#define CST_NAME "constants"
#define CST_POINTER ((void*)0x01)
#define CST_SQUARE(x) ((x) * (x))
#define CST_INTERNAL_LIMIT 99
#define OTHER_VALUE 5

enum { CST_ANON_A = 3, CST_ANON_B, OTHER_ANON = 9 };

int cstVersion(void);
