# Types of `cuda.nvrtc`: the same module as `cuda.bindings.nvrtc`.
from cuda.bindings.nvrtc import *  # noqa: F403
