# Types of `cuda.cudart`: the same module as `cuda.bindings.runtime`.
from cuda.bindings.runtime import *  # noqa: F403
