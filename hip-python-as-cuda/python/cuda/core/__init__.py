"""`cuda.core` on HIP: NVIDIA's Pythonic CUDA layer, served by hip-python's `hip.core` (the
same objects: `cuda.core.Device is hip.core.Device`). Its modules are hip.core's under
cuda.core's names (`cuda.core.graph`, `cuda.core.utils`, `cuda.core.system`,
`cuda.core._utils.cuda_utils`), so programs and their helpers import what they import on
NVIDIA's. `cuda.core.experimental` keeps the names 0.x programs import.
"""

import importlib as _importlib
import pkgutil as _pkgutil
import sys as _sys

import hip.core as _core
from hip.core import *  # noqa: F403 - cuda.core's names are hip.core's
from hip.core import __all__, __version__  # noqa: F401


def _alias_modules() -> None:
    """Each hip.core module also as `cuda.core.<name>` (the same module object)."""
    for info in _pkgutil.walk_packages(_core.__path__, _core.__name__ + "."):
        if info.name.startswith(_core.__name__ + ".experimental"):
            continue
        module = _importlib.import_module(info.name)
        alias = "cuda.core." + info.name[len(_core.__name__) + 1 :]
        _sys.modules.setdefault(alias, module)
        parent, _, child = alias.rpartition(".")
        if parent == __name__:
            globals().setdefault(child, module)


_alias_modules()


def _bindings_module(name: str):
    """`cuda_utils.driver`, `.runtime`, `.nvrtc`: cuda.core's helpers name the CUDA bindings
    they call; these are ours, imported on first use (importing them loads the extension)."""
    if name in ("driver", "runtime", "nvrtc"):
        return _importlib.import_module(f"cuda.bindings.{name}")
    raise AttributeError(f"module 'cuda.core._utils.cuda_utils' has no attribute {name!r}")


# Set by the cuda package: hip-python imports nothing of it.
_sys.modules["cuda.core._utils.cuda_utils"].__getattr__ = _bindings_module
# cuda.core's `_memory` and `graph` are packages; the names its tests import from their
# modules are in hip.core's modules below.
_memory = _sys.modules["cuda.core._memory"]
for _name, _module in {
    "_memory._legacy": _memory,
    "_memory._managed_buffer": _core._managed,
    "_memory._managed_location": _core._managed,
    "_memory._graph_memory_resource": _core._graph_memory,
    "graph._graph_node": _core._graph_definition,
    "graph._graph_definition": _core._graph_definition,
}.items():
    _sys.modules.setdefault(f"cuda.core.{_name}", _module)
    _package, _, _child = _name.partition(".")
    setattr(_sys.modules[f"cuda.core.{_package}"], _child, _module)
