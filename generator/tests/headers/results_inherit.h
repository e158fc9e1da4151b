/* hipgen-spec
# `results_inherit`: where no `results_depend` parameter says otherwise, a returned handle
# lives in the outermost handle its handle arguments live in (LLVM: what a function returns
# from a type, value or module ends with their context).
results_inherit: true
results_depend: ['riTypeIn\.ctx']
*/

typedef struct riContext* riContext_t;
typedef struct riType* riType_t;
typedef struct riValue* riValue_t;

riType_t riTypeIn(riContext_t ctx, int bits);
riValue_t riConstant(riType_t ty, long long value);
riType_t riTypeOf(riValue_t value);
riContext_t riGlobalContext(void);
