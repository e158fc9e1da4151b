/* hipgen-spec
# Function pointers: a typedef of one is a handle class (a callback address), as argument,
# result and struct field; a function pointer spelled in place is a plain address.
*/

typedef void (*cbHostFn_t)(void* userData);
typedef int (*cbCompare_t)(const void* a, const void* b);
typedef struct cbHooks { cbHostFn_t onDone; cbCompare_t compare; void (*raw)(int); } cbHooks;

int cbLaunchHost(cbHostFn_t fn, void* userData);
int cbSort(void* base, int n, cbCompare_t compare);
cbHostFn_t cbGetHandler(void);
int cbRegister(void (*handler)(int code), const cbHooks* hooks);
