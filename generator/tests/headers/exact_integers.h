/* hipgen-spec
# `floats_as_integers: false`: integer parameters take `int` and `__index__` objects only
# (`rt::CIndex`), a float is a TypeError, as in Python's own integer APIs.
floats_as_integers: false
*/
#include <stddef.h>
#include <stdint.h>

int exactCopy(int n, size_t bytes, int8_t small, uint64_t big);
