/* hipgen-spec
# Enum members of every sign and width: negative members make a signed enum, a member past
# `INT_MAX` an unsigned one (`valHigh`), a member past 32 bits an 8-byte one (the `.pxd`
# types it as `uint64_t` or `int64_t` with an anonymous enum of its members, and narrowing
# an argument checks that width).
*/

typedef enum valSigned_t { valNegative = -2, valMinusOne = -1, valZero = 0, valPositive = 5 } valSigned_t;
typedef enum valUnsigned_t { valLow = 0, valHigh = 0xFFFFFFFFu } valUnsigned_t;
typedef enum valWide_t { valSmall = 1, valHuge = 0x100000000LL } valWide_t;
typedef enum valWideNegative_t { valWideMin = -0x100000000LL, valWideOne = 1 } valWideNegative_t;

valSigned_t valFlip(valSigned_t v);
valUnsigned_t valMax(valUnsigned_t v);
valWide_t valWiden(valWide_t v, valWideNegative_t w);
