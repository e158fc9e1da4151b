/* hipgen-spec
# `sizes`: a buffer C reads or writes a known size of refuses a smaller Python buffer before
# C runs. The size is another argument's value (`bytes`), the value an in/out `size_t *`
# points at (`size`, usage pointer), or what a size function answers for the same leading
# arguments (`sbGetLogSize()`), asked with the GIL released as the call is.
status: {enum: sbStatus_t}
sizes:
  'sbCopyOut\.dst': bytes
  'sbReadItem\.item': size
  'sbGetLog\.log': sbGetLogSize()
params:
  sbReadItem.size: {usage: pointer}
*/
#include <stddef.h>

typedef enum sbStatus_t { sbSuccess = 0, sbError = 1 } sbStatus_t;
typedef struct sbProgram* sbProgram_t;

sbStatus_t sbCopyOut(void* dst, size_t bytes);
sbStatus_t sbReadItem(int index, size_t* size, char* item);
sbStatus_t sbGetLogSize(sbProgram_t prog, size_t* size);
sbStatus_t sbGetLog(sbProgram_t prog, char* log);
