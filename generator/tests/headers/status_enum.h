/* hipgen-spec
# The library's status enum (`status`): a function returning it gives the member first;
# one returning a plain value gives `success_for_plain_returns` first, as hip-python's
# `(hipSuccess, text)`; a void function with outputs does not (see status_void_outputs).
status: {enum: stStatus_t, success_for_plain_returns: stSuccess}
*/

typedef enum stStatus_t { stSuccess = 0, stErrorInvalid = 1, stErrorMemory = 2 } stStatus_t;

stStatus_t stInit(unsigned flags);
stStatus_t stGetCount(int* count);
const char* stGetErrorName(stStatus_t status);
int stVersion(void);
void stGetLimits(int* low, int* high);
void stShutdown(void);
