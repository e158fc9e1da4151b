"""cuda.core's `utils`: memory views of other libraries' arrays, and managed memory's batch
calls."""

from ._managed import discard_batch, discard_prefetch_batch, prefetch_batch
from ._memoryview import StridedMemoryView, args_viewable_as_strided_memory

__all__ = [
    "StridedMemoryView",
    "args_viewable_as_strided_memory",
    "discard_batch",
    "discard_prefetch_batch",
    "prefetch_batch",
]
