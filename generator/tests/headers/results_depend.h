/* hipgen-spec
# `results_depend`: the handles a function returns live in the handle argument named (an
# LLVM module in its context): destroying that one ends them (`rt::life::depends_on`).
destroys: [rdContextDestroy]
results_depend: ['rdModuleCreate\.ctx', 'rdModuleClone\.ctx']
*/

typedef struct rdContext* rdContext_t;
typedef struct rdModule* rdModule_t;

rdContext_t rdContextCreate(void);
void rdContextDestroy(rdContext_t ctx);
rdModule_t rdModuleCreate(rdContext_t ctx, const char* name);
int rdModuleClone(rdContext_t ctx, rdModule_t src, rdModule_t* out);
