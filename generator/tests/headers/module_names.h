/* hipgen-spec
# Where the module is published and what its stub declares beyond the header:
# `python_module` (default `hip.<name>`), `bindings_module` (AMD's 10.0 layout alias),
# `reexports` (modules whose functions this one also exposes), `python_helpers` (functions
# the Python package adds, with their return type) and `python_submodules` (modules set as
# attributes). A package other than hip-python or rocm-llvm-python has no C level: no `.pxd`.
package: example-python
python_module: example.names
bindings_module: rocm.bindings.example_names
reexports: [example.base]
python_helpers: {mnHelper: int, mnDescribe: str}
python_submodules: {ext: example.names_ext}
*/

int mnCall(int x);
