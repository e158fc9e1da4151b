/* hipgen-spec
# An enum as argument (an enum member or an integer, narrowed to the C type), as result
# (the member of that value), and its members in the type table and the stub.
*/

/** Colors of a light. */
typedef enum enumColor_t {
  enumColorRed = 1,
  enumColorGreen = 2,
  enumColorBlue = 4
} enumColor_t;

enumColor_t enumNext(enumColor_t color);
int enumMix(enumColor_t a, enumColor_t b);
