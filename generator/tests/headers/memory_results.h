/* hipgen-spec
# `memory_results`: a `char *` result that points at memory, not at a NUL-terminated string
# (`LLVMGetBufferStart`), returned as a host-memory `DeviceArray` the caller sizes.
memory_results: ['mrBufferStart']
*/
#include <stddef.h>

typedef struct mrBuffer* mrBuffer_t;

const char* mrBufferStart(mrBuffer_t buf);
size_t mrBufferSize(mrBuffer_t buf);
const char* mrBufferName(mrBuffer_t buf);
