/* hipgen-spec
# A union type of its own: a type-table record whose fields share offset 0, passed by
# pointer (a union by value has no mirror). Union members of every kind of field.
*/
#include <stdint.h>

typedef struct unPair { int32_t a; int32_t b; } unPair;
typedef union unValue {
  int64_t i;
  double d;
  unPair pair;
  char text[8];
  void* ptr;
} unValue;

int unStore(const unValue* value);
int unLoad(unValue* value, int slot);
