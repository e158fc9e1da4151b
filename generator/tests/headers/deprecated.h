/* hipgen-spec
# A function the header marks deprecated keeps its binding; its docstring says it is
# deprecated in the C API.
*/

/** @brief The old way. */
__attribute__((deprecated("use depNew instead"))) int depOld(int x);
int depNew(int x);
