# Types of `cuda.cuda`: the same module as `cuda.bindings.driver`.
from cuda.bindings.driver import *  # noqa: F403
