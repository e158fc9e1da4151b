/* hipgen-spec
# Plain numbers in and out: int, float, double and bool arguments and results, and a
# function with no argument and no result.
*/
#include <stdbool.h>

int scalarAdd(int a, int b);
float scalarScale(float x, float factor);
double scalarTwice(double x);
bool scalarNegate(bool flag);
void scalarReset(void);
