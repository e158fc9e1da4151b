"""`cuda.core.experimental`: the names cuda.core 0.x programs import, with 0.x's `system`
(`system.driver_version`, `num_devices`, `devices`) and `utils`."""

import warnings as _warnings

from cuda.core import *  # noqa: F403
from cuda.core import utils  # noqa: F401
from cuda.core.graph import Graph, GraphBuilder, GraphCompleteOptions, GraphDebugPrintOptions  # noqa: F401
from cuda.core.utils import StridedMemoryView, args_viewable_as_strided_memory  # noqa: F401

from . import _system

system = _system.System()

_warnings.warn(
    "cuda.core.experimental is deprecated: import from cuda.core",
    DeprecationWarning,
    stacklevel=2,
)
