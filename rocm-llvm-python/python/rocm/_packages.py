"""Binds the native modules `rocm._native` published in `sys.modules` to their packages.

`rocm` is a namespace package, as in AMD's packages, so that `rocm.bindings` (hip-python's
aliases) and `rocm.llvm` can come from different wheels. The extension publishes every
generated module in `sys.modules`, and a module found there is imported without its package:
`import rocm.llvm.c.target` after `rocm.amd_comgr` would skip rocm.llvm.c's own additions (the
static-inline helpers). So the first package imported imports the others (`import_all`).
"""

import sys

from rocm import _native, _select

# The modules of libraries the wheel carries several versions of wait for their first use.
_select.install()

#: A library or symbol could not be loaded (the same error type as hip-python's).
HipLoadError = _native.HipLoadError

#: The ROCm release the bindings were generated from (as rocm-llvm-python: 6.4.3 is 60400003).
ROCM_VERSION_NAME = _native.ROCM_RELEASE
ROCM_VERSION_TUPLE = tuple(int(p) for p in ROCM_VERSION_NAME.split("."))
ROCM_VERSION = ROCM_VERSION_TUPLE[0] * 10_000_000 + ROCM_VERSION_TUPLE[1] * 100_000 + ROCM_VERSION_TUPLE[2]
__version__ = _native.__version__

#: The packages whose modules the extension publishes.
PACKAGES = ("rocm.amd_comgr", "rocm.llvm.c", "rocm.llvm.config")


def get_include() -> str:
    """The folder holding the packages' Cython declarations (`rocm/llvm/c/ccore.pxd`,
    `rocm/amd_comgr/camd_comgr.pxd`), for a build's include path
    (`cythonize(..., include_path=[rocm.llvm.get_include()])`); Cython finds them on `sys.path`
    too (docs/cython.md)."""
    import os

    return os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def attach(package: str) -> list:
    """Sets each published `<package>.<name>` module as attribute of the package; the names."""
    parent = sys.modules[package]
    prefix = package + "."
    found = []
    for name, module in list(sys.modules.items()):
        if (
            name.startswith(prefix)
            and "." not in name[len(prefix) :]
            and not hasattr(parent, name[len(prefix) :])
        ):
            setattr(parent, name[len(prefix) :], module)
            found.append(name[len(prefix) :])
    return sorted(found)


def import_all():
    """Imports every package of the extension's modules (each once; a package being imported
    is in `sys.modules` already, so the recursion stops there)."""
    import importlib

    for package in PACKAGES:
        if package not in sys.modules:
            importlib.import_module(package)
