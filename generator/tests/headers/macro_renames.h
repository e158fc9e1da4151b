/* hipgen-spec
# `#define api versioned` renames (HIP's `#define hipGetDeviceProperties
# hipGetDevicePropertiesR0600`): the function's API name is the macro's and its symbol the
# declaration's; a struct renamed the same way is bound under the API name with the
# versioned name as alias.
*/

#define mrGetProps mrGetPropsR0600
#define mrProps_t mrProps_tR0600

typedef struct mrProps_tR0600 { int major; int minor; } mrProps_tR0600;

int mrGetPropsR0600(mrProps_t* props, int device);
