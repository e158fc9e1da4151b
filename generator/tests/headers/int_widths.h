/* hipgen-spec
# Every integer width and signedness, as arguments (range-checked into the C type: a value
# that does not fit is an OverflowError, a float is truncated as hip-python does) and as
# results. `char` is a number here, not text.
*/
#include <stddef.h>
#include <stdint.h>

int8_t widthI8(int8_t v);
uint8_t widthU8(uint8_t v);
int16_t widthI16(int16_t v);
uint16_t widthU16(uint16_t v);
int32_t widthI32(int32_t v);
uint32_t widthU32(uint32_t v);
int64_t widthI64(int64_t v);
uint64_t widthU64(uint64_t v);
size_t widthSize(size_t v);
long widthLong(long v);
unsigned long long widthULongLong(unsigned long long v);
char widthChar(char c, signed char s, unsigned char u);
