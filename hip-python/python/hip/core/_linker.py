"""`Linker` and `LinkerOptions` (cuda.core's). Not built yet over hiprtc's linker: making a
`Linker` raises `CUDAError` saying so; the options record is cuda.core's."""

from __future__ import annotations

import dataclasses

from ._utils.cuda_utils import CUDAError


@dataclasses.dataclass
class LinkerOptions:
    name: str | None = "<default linker>"
    arch: str | None = None
    max_register_count: int | None = None
    time: bool | None = None
    verbose: bool | None = None
    link_time_optimization: bool | None = None
    ptx: bool | None = None
    optimization_level: int | None = None
    debug: bool | None = None
    lineinfo: bool | None = None
    ftz: bool | None = None
    prec_div: bool | None = None
    prec_sqrt: bool | None = None
    fma: bool | None = None
    kernels_used: str | list | tuple | None = None
    variables_used: str | list | tuple | None = None
    optimize_unused_variables: bool | None = None
    ptxas_options: str | list | tuple | None = None
    split_compile: int | None = None
    split_compile_extended: int | None = None
    no_cache: bool | None = None


class Linker:
    def __init__(self, *object_codes, options: LinkerOptions | dict | None = None):
        raise CUDAError("hip.core has no Linker yet (hiprtc's linker is not built into it)")
