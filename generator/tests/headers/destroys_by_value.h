/* hipgen-spec
# `destroys`: after a destroy function returns success (the status enum's success member),
# the handle object passed, and its copies, are refused as arguments (ValueError), so C is
# never handed a dangling handle. A destroy function returning no status always destroys.
# The handle passed by value is a typed handle, a `void *` handle typedef, or a plain
# `void *` (writable, or `const`).
status: {enum: dvStatus_t}
destroys: ['dv.*Destroy', 'dvFree.*']
*/

typedef enum dvStatus_t { dvSuccess = 0, dvError = 1 } dvStatus_t;
typedef struct dvStream* dvStream_t;
typedef void* dvHandle_t;

dvStatus_t dvStreamCreate(dvStream_t* stream);
dvStatus_t dvStreamDestroy(dvStream_t stream);
void dvHandleDestroy(dvHandle_t handle);
int dvFreeRaw(void* ptr, int flags);
int dvFreeConst(const void* ptr);
