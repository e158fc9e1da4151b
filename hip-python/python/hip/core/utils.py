"""cuda.core's `utils`: memory views of other libraries' arrays."""

from ._memoryview import StridedMemoryView, args_viewable_as_strided_memory

__all__ = ["StridedMemoryView", "args_viewable_as_strided_memory"]
