"""`Context` and `ContextOptions` (cuda.core's). HIP keeps one primary context per device and
no green contexts: neither can be made here."""

from __future__ import annotations

import dataclasses

from ._utils.cuda_utils import CUDAError


class Context:
    def __new__(cls, *args, **kwargs):
        raise RuntimeError(
            "Context objects cannot be instantiated directly. Please use Device or Stream APIs."
        )


@dataclasses.dataclass
class ContextOptions:
    resources: tuple = ()

    def __post_init__(self):
        raise CUDAError("HIP has no green contexts: ContextOptions cannot be used")
