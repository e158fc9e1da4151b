/* hipgen-spec
# `usage: out_string` with `size_param`: a `char *` buffer of that many bytes the binding
# allocates and C fills; returned as `bytes` up to the first NUL. The size stays an argument.
status: {enum: osgStatus_t}
params:
  osgGetName.name: {usage: out_string, size_param: len}
  osgGetPath.path: {usage: out_string, size_param: capacity}
*/
#include <stddef.h>

typedef enum osgStatus_t { osgSuccess = 0, osgError = 1 } osgStatus_t;

osgStatus_t osgGetName(char* name, int len, int device);
osgStatus_t osgGetPath(size_t capacity, char* path);
