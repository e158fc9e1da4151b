/* hipgen-spec
# Which declarations are bound: `functions`, `enums` and `records` filters (include regexes,
# anchored; exclude regexes win). The enums and records the bound functions use must pass
# them too (generating fails otherwise: "in no registry").
functions:
  include: ['flt.*']
  exclude: ['fltInternal.*']
enums:
  exclude: ['fltHidden_t']
records:
  include: ['fltPublic']
*/

typedef enum fltShown_t { fltShownA = 0 } fltShown_t;
typedef enum fltHidden_t { fltHiddenA = 0 } fltHidden_t;
typedef struct fltPublic { int a; } fltPublic;
typedef struct fltPrivate { int b; } fltPrivate;

int fltUse(fltShown_t shown, const fltPublic* pub);
int fltInternalDebug(int x);
int otherFunction(int x);
