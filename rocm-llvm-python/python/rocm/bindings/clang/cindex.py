"""AMD 10.0's name of `rocm.clang.cindex` (libclang's Python API), the same module object."""

import sys

import rocm.clang.cindex as _module

sys.modules[__name__] = _module
