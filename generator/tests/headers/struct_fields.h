/* hipgen-spec
# Fields of every kind in a struct's type table and stub: numbers of each width, bool,
# enum, handle, `void *` and typed pointers, a nested named struct, an array of structs,
# int arrays (2-D too), a char array (text), anonymous struct and union members (their
# fields lifted into the parent at their offsets), a named union member, bitfields, and a
# flexible array member (left out: it lies past the struct's size). The struct is used only
# through a pointer, so no function refuses it.
*/
#include <stdbool.h>
#include <stdint.h>

typedef enum sfKind_t { sfKindA = 0, sfKindB = 1 } sfKind_t;
typedef struct sfStream* sfStream_t;
typedef struct sfPoint { int16_t x; int16_t y; } sfPoint;

typedef struct sfAll {
  int8_t i8; uint16_t u16; int64_t i64; float f; double d; bool on;
  sfKind_t kind;
  sfStream_t stream;
  void* data;
  const int* values;
  sfPoint origin;
  sfPoint corners[4];
  int grid[2][3];
  char name[32];
  struct { int lo; int hi; } range;
  struct { int width; int height; };
  union { int asInt; float asFloat; };
  union sfBits { uint32_t word; uint8_t bytes[4]; } bits;
  unsigned ready : 1;
  unsigned level : 3;
  int signedField : 4;
  uint32_t tail[];
} sfAll;

int sfInspect(const sfAll* all);
