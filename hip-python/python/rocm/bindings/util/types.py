"""AMD 10.0's name of `hip._util.types` (`Pointer`, `CStr`, `DeviceArray`, `ListOf*`), the same
module object."""

import sys

import hip._util.types as _module

sys.modules[__name__] = _module
