"""`Program` and `ProgramOptions` (cuda.core's): C++ compiled by hiprtc (NVRTC on NVIDIA) to
the GPU's code ("cubin": a code object on AMD) or, on AMD, LLVM bitcode ("ltoir")."""

from __future__ import annotations

import dataclasses

from hip import _native, hiprtc

from . import _ordinal
from ._linker import Linker, LinkerOptions
from ._module import ObjectCode
from ._utils.cuda_utils import CUDAError, NVRTCError, check, check_or_create_options


@dataclasses.dataclass
class ProgramOptions:
    """cuda.core's compiler options. `arch` is `sm_90` (or `90`, `compute_90`) on NVIDIA and
    `gfx90a` (or `sm_gfx90a`, as `f"sm_{Device().arch}"` spells it) on AMD; None: the current
    device's. Options hiprtc has no equivalent of raise `CUDAError` on AMD."""

    name: str | None = "default_program"
    arch: str | None = None
    relocatable_device_code: bool | None = None
    extensible_whole_program: bool | None = None
    debug: bool | None = None
    lineinfo: bool | None = None
    device_code_optimize: bool | None = None
    ptxas_options: str | list | tuple | None = None
    max_register_count: int | None = None
    ftz: bool | None = None
    prec_sqrt: bool | None = None
    prec_div: bool | None = None
    fma: bool | None = None
    use_fast_math: bool | None = None
    extra_device_vectorization: bool | None = None
    link_time_optimization: bool | None = None
    gen_opt_lto: bool | None = None
    define_macro: str | tuple | list | None = None
    undefine_macro: str | list | tuple | None = None
    include_path: str | list | tuple | None = None
    pre_include: str | list | tuple | None = None
    no_source_include: bool | None = None
    std: str | None = None
    builtin_move_forward: bool | None = None
    builtin_initializer_list: bool | None = None
    disable_warnings: bool | None = None
    restrict: bool | None = None
    device_as_default_execution_space: bool | None = None
    device_int128: bool | None = None
    device_float128: bool | None = None
    optimization_info: str | None = None
    no_display_error_number: bool | None = None
    diag_error: int | list | tuple | None = None
    diag_suppress: int | list | tuple | None = None
    diag_warn: int | list | tuple | None = None
    brief_diagnostics: bool | None = None
    time: str | None = None
    split_compile: int | None = None
    fdevice_syntax_only: bool | None = None
    minimal: bool | None = None
    no_cache: bool | None = None
    fdevice_time_trace: str | None = None
    frandom_seed: str | None = None
    ofast_compile: str | None = None
    pch: bool | None = None
    create_pch: str | None = None
    use_pch: str | None = None
    pch_dir: str | None = None
    pch_verbose: bool | None = None
    pch_messages: bool | None = None
    instantiate_templates_in_pch: bool | None = None
    extra_sources: list | tuple | None = None
    use_libdevice: bool | None = None
    numba_debug: bool | None = None

    def _target(self) -> str:
        """The architecture to compile for: `sm_90` on NVIDIA, `gfx90a` on AMD."""
        arch = self.arch
        if arch is None:
            arch = _ordinal.device(_ordinal.device_ordinal()).arch
        arch = str(arch)
        nvidia = _native.platform() == "nvidia"
        if not nvidia:
            return arch[3:] if arch.startswith("sm_") else arch
        if arch.isdigit():
            return f"sm_{arch}"
        return arch

    def as_bytes(self, backend: str = "nvrtc", target_type: str = "cubin") -> list[bytes]:
        """cuda.core's name of `as_flags`: the options as the compiler of this platform gets
        them (hiprtc's on AMD, NVRTC's on NVIDIA; `backend` names cuda.core's)."""
        return self.as_flags(str(target_type))

    def as_flags(self, target_type: str = "cubin") -> list[bytes]:
        """The compiler's options (hiprtc's on AMD, NVRTC's on NVIDIA)."""
        if _native.platform() == "nvidia":
            return [f.encode() for f in _nvrtc_flags(self, target_type)]
        return [f.encode() for f in _hiprtc_flags(self)]


def _many(value) -> list:
    if value is None:
        return []
    return list(value) if isinstance(value, (list, tuple)) else [value]


def _bool(flag: str, value) -> list[str]:
    return [] if value is None else [f"{flag}={'true' if value else 'false'}"]


def _macros(value) -> list[str]:
    out = []
    items = [value] if isinstance(value, (str, tuple)) else _many(value)
    for item in items:
        if isinstance(item, str):
            out.append(item)
        elif isinstance(item, tuple) and len(item) == 2:
            out.append(f"{item[0]}={item[1]}")
        else:
            raise RuntimeError(f"Expected define_macro str, tuple[str, str] or a list of them, got {item!r}")
    return out


def _nvrtc_flags(o: ProgramOptions, target_type: str) -> list[str]:
    arch = o._target()
    if target_type == "ptx" and arch.startswith("sm_"):
        arch = "compute_" + arch[3:]
    flags = [f"--gpu-architecture={arch}"]
    flags += _bool("--relocatable-device-code", o.relocatable_device_code)
    switches = {
        "--extensible-whole-program": o.extensible_whole_program,
        "--device-debug": o.debug,
        "--generate-line-info": o.lineinfo,
        "--use_fast_math": o.use_fast_math,
        "--extra-device-vectorization": o.extra_device_vectorization,
        "--dlink-time-opt": o.link_time_optimization,
        "--gen-opt-lto": o.gen_opt_lto,
        "--no-source-include": o.no_source_include,
        "--disable-warnings": o.disable_warnings,
        "--restrict": o.restrict,
        "--device-as-default-execution-space": o.device_as_default_execution_space,
        "--device-int128": o.device_int128,
        "--device-float128": o.device_float128,
        "--no-display-error-number": o.no_display_error_number,
        "--fdevice-syntax-only": o.fdevice_syntax_only,
        "--minimal": o.minimal,
        "--no-cache": o.no_cache,
        "--pch": o.pch,
        "--pch-verbose": o.pch_verbose,
        "--pch-messages": o.pch_messages,
        "--instantiate-templates-in-pch": o.instantiate_templates_in_pch,
    }
    flags += [name for name, on in switches.items() if on]
    if o.device_code_optimize:
        flags.append("--dopt=on")
    flags += [f"--ptxas-options={v}" for v in _many(o.ptxas_options)]
    if o.max_register_count is not None:
        flags.append(f"--maxrregcount={o.max_register_count}")
    for name, value in (
        ("--ftz", o.ftz),
        ("--prec-sqrt", o.prec_sqrt),
        ("--prec-div", o.prec_div),
        ("--fmad", o.fma),
    ):
        flags += _bool(name, value)
    flags += [f"--define-macro={m}" for m in _macros(o.define_macro)] if o.define_macro is not None else []
    flags += [f"--undefine-macro={m}" for m in _many(o.undefine_macro)]
    flags += [f"--include-path={p}" for p in _many(o.include_path)]
    flags += [f"--pre-include={p}" for p in _many(o.pre_include)]
    if o.std is not None:
        flags.append(f"--std={o.std}")
    flags += _bool("--builtin-move-forward", o.builtin_move_forward)
    flags += _bool("--builtin-initializer-list", o.builtin_initializer_list)
    for name, value in (
        ("--diag-error", o.diag_error),
        ("--diag-suppress", o.diag_suppress),
        ("--diag-warn", o.diag_warn),
    ):
        flags += [f"{name}={v}" for v in _many(value)]
    flags += _bool("--brief-diagnostics", o.brief_diagnostics)
    if o.optimization_info is not None:
        flags.append(f"--optimization-info={o.optimization_info}")
    if o.time is not None:
        flags.append(f"--time={o.time}")
    if o.split_compile is not None:
        flags.append(f"--split-compile={o.split_compile}")
    for name, value in (
        ("--fdevice-time-trace", o.fdevice_time_trace),
        ("--frandom-seed", o.frandom_seed),
        ("--Ofast-compile", o.ofast_compile),
        ("--create-pch", o.create_pch),
        ("--use-pch", o.use_pch),
        ("--pch-dir", o.pch_dir),
    ):
        if value is not None:
            flags.append(f"{name}={value}")
    return flags


#: ProgramOptions fields hiprtc (clang) has no equivalent of.
_NVRTC_ONLY = (
    "extensible_whole_program",
    "ptxas_options",
    "max_register_count",
    "extra_device_vectorization",
    "gen_opt_lto",
    "builtin_move_forward",
    "builtin_initializer_list",
    "device_as_default_execution_space",
    "optimization_info",
    "no_display_error_number",
    "diag_error",
    "diag_suppress",
    "diag_warn",
    "brief_diagnostics",
    "time",
    "split_compile",
    "fdevice_syntax_only",
    "minimal",
    "no_cache",
    "restrict",
    "device_int128",
    "device_float128",
    "fdevice_time_trace",
    "frandom_seed",
    "ofast_compile",
    "pch",
    "create_pch",
    "use_pch",
    "pch_dir",
    "pch_verbose",
    "pch_messages",
    "instantiate_templates_in_pch",
    "extra_sources",
    "use_libdevice",
    "numba_debug",
)


def _hiprtc_flags(o: ProgramOptions) -> list[str]:
    unsupported = [f for f in _NVRTC_ONLY if getattr(o, f) not in (None, False)]
    if unsupported:
        raise CUDAError(f"The following options are not supported by hiprtc on AMD: {', '.join(unsupported)}")
    flags = [f"--offload-arch={o._target()}"]
    if o.relocatable_device_code or o.link_time_optimization:
        flags.append("-fgpu-rdc")
    if o.debug:
        flags.append("-g")
    if o.lineinfo:
        flags.append("-gline-tables-only")
    if o.device_code_optimize is not None:
        flags.append("-O3" if o.device_code_optimize else "-O0")
    if o.use_fast_math:
        flags.append("-ffast-math")
    if o.fma is not None:
        flags.append("-ffp-contract=fast" if o.fma else "-ffp-contract=off")
    if o.ftz is not None:
        flags.append("-fgpu-flush-denormals-to-zero" if o.ftz else "-fno-gpu-flush-denormals-to-zero")
    if o.define_macro is not None:
        flags += [f"-D{m}" for m in _macros(o.define_macro)]
    flags += [f"-U{m}" for m in _many(o.undefine_macro)]
    flags += [f"-I{p}" for p in _many(o.include_path)]
    flags += [f"-include={p}" for p in _many(o.pre_include)]
    if o.no_source_include:
        flags.append("-nostdinc")
    if o.std is not None:
        flags.append(f"-std={o.std}")
    if o.disable_warnings:
        flags.append("-w")
    return flags


_SOURCE_TYPES = ("c++", "ptx", "nvvm")


def _can_load_generated_ptx() -> bool:
    """Whether PTX the compiler makes loads here: on NVIDIA (the driver JIT-compiles it), not
    on AMD."""
    return _native.platform() == "nvidia"


def _get_nvvm_module():
    """cuda.core's NVVM binding: HIP has no libNVVM (RuntimeError, as cuda.core raises where
    libNVVM is not found)."""
    raise RuntimeError("NVVM is not available: HIP has no libNVVM")


class Program:
    """Source compiled on demand: `Program(code, "c++", ProgramOptions(...)).compile("cubin")`."""

    def __init__(self, code, code_type: str, options: ProgramOptions | dict | None = None):
        code_type = str(code_type).lower()
        if code_type not in _SOURCE_TYPES:
            raise RuntimeError(f"Unsupported code_type={code_type!r} (supported_code_types={_SOURCE_TYPES})")
        if code_type == "nvvm" or (code_type == "ptx" and _native.platform() != "nvidia"):
            needs = "NVIDIA's linker" if code_type == "ptx" else "libNVVM"
            raise CUDAError(f"code_type={code_type!r} needs {needs}; hip.core compiles C++")
        if not isinstance(code, str):
            raise TypeError(f"Expected type str, but got {type(code).__name__}")
        self._code, self._code_type = code, code_type
        self._options = check_or_create_options(ProgramOptions, options, "Program options")
        self._handle = None
        if code_type == "ptx":
            return  # PTX is assembled by the driver's linker (hiprtc's, on NVIDIA) at compile()
        name = (self._options.name or "default_program").encode()
        self._handle = check(
            "hiprtcCreateProgram", hiprtc.hiprtcCreateProgram(code.encode(), name, 0, None, None)
        )

    @property
    def backend(self) -> str:
        if self._code_type == "ptx":
            return "driver"
        return "NVRTC" if _native.platform() == "nvidia" else "hiprtc"

    @property
    def handle(self):
        return self._handle

    def close(self) -> None:
        if self._handle is not None:
            hiprtc.hiprtcDestroyProgram(self._handle)
            self._handle = None

    def __del__(self):
        try:
            self.close()
        except Exception:  # noqa: BLE001 - interpreter shutdown
            pass

    def compile(self, target_type: str, name_expressions=(), logs=None) -> ObjectCode:
        """Compiles to `target_type` ("cubin": the GPU's code; "ptx" on NVIDIA; "ltoir": LLVM
        bitcode on AMD); NVRTCError (with the log) on failure."""
        target_type = str(target_type).lower()
        if self._code_type == "ptx":
            return self._assemble(target_type)
        nvidia = _native.platform() == "nvidia"
        allowed = ("ptx", "cubin") if nvidia else ("cubin", "ltoir")
        if target_type not in allowed:
            supported = ", ".join(allowed)
            raise ValueError(
                f'Unsupported target_type="{target_type}" for {self.backend} (supported: {supported})'
            )
        options = self._options
        if target_type == "ltoir" and not (options.relocatable_device_code or options.link_time_optimization):
            options = dataclasses.replace(options, relocatable_device_code=True)
        names = [n.encode() if isinstance(n, str) else bytes(n) for n in name_expressions]
        for n in names:
            check("hiprtcAddNameExpression", hiprtc.hiprtcAddNameExpression(self._handle, n))
        flags = options.as_flags(target_type)
        (status,) = hiprtc.hiprtcCompileProgram(self._handle, len(flags), flags)
        log = self._log()
        if logs is not None and hasattr(logs, "write") and log:
            logs.write(log)
        if int(status) != 0:
            raise NVRTCError(f"{status.name}: compilation failed, compilation log:\n\n{log}", status)
        data = self._output(target_type)
        mapping = {}
        for n in names:
            lowered = check("hiprtcGetLoweredName", hiprtc.hiprtcGetLoweredName(self._handle, n))
            mapping[n.decode()] = lowered if isinstance(lowered, bytes) else str(lowered).encode()
        return ObjectCode._init(data, target_type, name=self._options.name or "", symbol_mapping=mapping)

    def _assemble(self, target_type: str) -> ObjectCode:
        """PTX to a cubin, through the driver's linker (cuda.core's "driver" backend)."""
        if target_type != "cubin":
            raise ValueError(f'Unsupported target_type="{target_type}" for driver (supported: cubin)')
        o = self._options
        linker_options = LinkerOptions(
            name=o.name or "default_program", arch=o.arch, debug=o.debug, lineinfo=o.lineinfo
        )
        linker = Linker(ObjectCode.from_ptx(self._code.encode()), options=linker_options)
        try:
            return linker.link("cubin")
        finally:
            linker.close()

    def _output(self, target_type: str) -> bytes:
        if target_type == "ltoir":
            size = check("hiprtcGetBitcodeSize", hiprtc.hiprtcGetBitcodeSize(self._handle))
            out = bytearray(size)
            check("hiprtcGetBitcode", hiprtc.hiprtcGetBitcode(self._handle, out))
        else:
            size = check("hiprtcGetCodeSize", hiprtc.hiprtcGetCodeSize(self._handle))
            out = bytearray(size)
            check("hiprtcGetCode", hiprtc.hiprtcGetCode(self._handle, out))
        return bytes(out)

    def _log(self) -> str:
        size = check("hiprtcGetProgramLogSize", hiprtc.hiprtcGetProgramLogSize(self._handle))
        if size <= 1:
            return ""
        log = bytearray(size)
        check("hiprtcGetProgramLog", hiprtc.hiprtcGetProgramLog(self._handle, log))
        return log.rstrip(b"\0").decode(errors="replace")

    def __repr__(self):
        return f"<Program backend={self.backend!r}>"
