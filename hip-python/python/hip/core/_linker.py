"""`Linker` and `LinkerOptions` (cuda.core's) over hiprtc's linker (`hiprtcLinkCreate`,
`hiprtcLinkAddData`, `hiprtcLinkComplete`): on AMD it links LLVM bitcode (`ObjectCode`s of
code type "ltoir", as `Program.compile("ltoir")` makes them, bundles and archives of it) into
a code object; on NVIDIA hiprtc's linker is the driver's (`cuLink*`), which links PTX, cubins,
fatbins, objects and libraries. cuda.core calls that backend "driver" (it has no nvJitLink
here), and refuses the options the driver takes no part of, as cuda.core does."""

from __future__ import annotations

import dataclasses

from hip import _native, hiprtc

from ._module import ObjectCode
from ._utils.cuda_utils import Exit, check, check_or_create_options
from .typing import CompilerBackendType

#: hiprtc's input type of each code type a platform's linker takes.
_INPUTS = {
    "amd": {
        "ltoir": "HIPRTC_JIT_INPUT_LLVM_BITCODE",
        "fatbin": "HIPRTC_JIT_INPUT_LLVM_BUNDLED_BITCODE",
        "library": "HIPRTC_JIT_INPUT_LLVM_ARCHIVES_OF_BUNDLED_BITCODE",
    },
    "nvidia": {
        "ptx": "HIPRTC_JIT_INPUT_PTX",
        "cubin": "HIPRTC_JIT_INPUT_CUBIN",
        "fatbin": "HIPRTC_JIT_INPUT_FATBINARY",
        "object": "HIPRTC_JIT_INPUT_OBJECT",
        "library": "HIPRTC_JIT_INPUT_LIBRARY",
    },
}

#: Options the driver's linker has no part of (cuda.core raises for them without nvJitLink).
_DRIVER_REFUSES = ("time", "ptx", "ptxas_options", "split_compile", "split_compile_extended")


def _decide_nvjitlink_or_driver() -> bool:
    """True: links go through the driver's kind of linker (hiprtc's), as cuda.core answers
    where nvJitLink is not available."""
    return True


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

    def _check_driver_options(self) -> None:
        for name in _DRIVER_REFUSES:
            if getattr(self, name) not in (None, False):
                raise ValueError(f"{name} option is not supported by the driver API")


class Linker:
    """Links `ObjectCode`s into one (`link("cubin")`: a code object on AMD, a cubin on
    NVIDIA; `link("ptx")` on NVIDIA only)."""

    def __init__(self, *object_codes: ObjectCode, options: LinkerOptions | dict | None = None):
        if not object_codes:
            raise ValueError("At least one ObjectCode object must be provided")
        self._options = check_or_create_options(LinkerOptions, options, "Linker options")
        self._options._check_driver_options()
        self._state = check("hiprtcLinkCreate", hiprtc.hiprtcLinkCreate(0, None, None))
        self._info_log = self._error_log = None
        for code in object_codes:
            self._add(code)

    def _add(self, code: ObjectCode) -> None:
        if not isinstance(code, ObjectCode):
            raise TypeError(f"Linker takes ObjectCode objects, got {type(code).__name__}")
        kind = _INPUTS[_native.platform()].get(code.code_type)
        if kind is None:
            raise ValueError(f"Unknown code_type associated with ObjectCode: {code.code_type}")
        kind = getattr(hiprtc.hipJitInputType, kind)
        data = code.code
        if isinstance(data, bytes):
            name = str(code.name).encode()
            call = hiprtc.hiprtcLinkAddData(self._state, kind, data, len(data), name, 0, None, None)
            check("hiprtcLinkAddData", call)
        elif isinstance(data, str):
            check(
                "hiprtcLinkAddFile", hiprtc.hiprtcLinkAddFile(self._state, kind, data.encode(), 0, None, None)
            )
        else:
            raise TypeError(f"Expected bytes or str, but got {type(data).__name__}")

    def link(self, target_type) -> ObjectCode:
        """The linked code, as an `ObjectCode` of `target_type`."""
        target_type = str(target_type)
        if target_type not in ("cubin", "ptx"):
            raise ValueError(f"Unsupported target type: {target_type}")
        if target_type == "ptx" and _native.platform() != "nvidia":
            raise ValueError("Unsupported target type: ptx (an AMD linker makes code objects: use 'cubin')")
        if self._state is None:
            raise RuntimeError("the Linker is closed")
        address, size = check("hiprtcLinkComplete", hiprtc.hiprtcLinkComplete(self._state))
        code = _native.host_bytes(address, size)
        self._info_log, self._error_log = "", ""
        return ObjectCode._init(code, target_type, name=self._options.name)

    def get_error_log(self) -> str:
        """What the linker reported as errors (hiprtc's linker reports none through its API)."""
        return self._error_log or ""

    def get_info_log(self) -> str:
        return self._info_log or ""

    @property
    def handle(self):
        """hiprtc's link state."""
        return self._state

    def close(self) -> None:
        """Destroys the link state (and the linked code it held; `link`'s result is a copy)."""
        state, self._state = getattr(self, "_state", None), None
        if state is not None:
            hiprtc.hiprtcLinkDestroy(state)

    def __del__(self, _exit=Exit):  # `Exit` bound now: module globals are cleared at exit
        if not _exit.started:
            self.close()

    @classmethod
    def which_backend(cls) -> CompilerBackendType:
        return CompilerBackendType.DRIVER
