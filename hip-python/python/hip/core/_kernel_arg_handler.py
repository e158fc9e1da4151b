"""cuda.core's `ParamHolder`: the kernel arguments of one launch, packed by the runtime."""

from __future__ import annotations

from hip import _native


class ParamHolder:
    """`ParamHolder(args)`: `args` packed as `launch` packs them; `ptr` is the `void *[]`."""

    def __init__(self, args):
        self._args = _native.KernelArgs(*args)

    @property
    def ptr(self) -> int:
        return self._args.address
