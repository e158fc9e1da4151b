/* hipgen-spec
# A struct C fills: a non-const struct pointer is an argument by default (see
# pointer_args); `usage: out` makes it a result, an instance of the struct class the binding
# allocates and passes by address. A `T **` out parameter of a struct returns an instance
# over the struct C points at.
status: {enum: ostStatus_t}
params:
  ostGetProps.props: {usage: out}
*/

typedef enum ostStatus_t { ostSuccess = 0, ostError = 1 } ostStatus_t;
typedef struct ostProps { int major; int minor; double clock; } ostProps;

ostStatus_t ostGetProps(ostProps* props, int device);
ostStatus_t ostGetDefault(ostProps** props);
