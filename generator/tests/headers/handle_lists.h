/* hipgen-spec
# Arrays of handles C reads: `const T *` with a count (a list of handle objects, or a
# buffer), checked against the count; a non-const one paired with a count-named integer
# (`LLVMConstStruct(ConstantVals, Count, Packed)`) takes a list too, as does one the spec's
# `list_arrays` names; a non-const array without either stays writable (C may fill it, so a
# list is refused). `handle_pointers: pointer` makes `T *` an array rather than an output.
handle_pointers: pointer
list_arrays: ['hlGraph\.nodes']
counts:
  'hlLink\.progs': numProgs
*/
#include <stddef.h>

typedef struct hlNode* hlNode_t;
typedef struct hlProgram* hlProgram_t;

int hlLink(const hlProgram_t* progs, int numProgs);
int hlStruct(hlNode_t* values, unsigned count, int packed);
int hlGraph(hlNode_t* nodes, size_t total);
int hlFill(hlNode_t* nodes);
