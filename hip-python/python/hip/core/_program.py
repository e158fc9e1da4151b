"""hiprtc programs, their code objects and kernels."""

from __future__ import annotations

from hip import hip, hiprtc

from . import _mangled
from ._device import Device
from ._errors import CompileError, check

#: Options that already name the target: then the device's is not added.
_TARGET_OPTIONS = ("--offload-arch", "-offload-arch", "--gpu-architecture", "-arch", "--amdgpu-target")


def _text(value) -> bytes:
    return value.encode() if isinstance(value, str) else bytes(value)


class Program:
    """HIP C++ source compiled with hiprtc, for `arch` (default: the current device's).

    `Program(src).compile(name_expressions=["saxpy<float>"]).get_kernel("saxpy<float>")`
    """

    def __init__(self, code, options=(), name: str = "program.hip", arch: str | None = None):
        self.code = _text(code)
        self.options = [_text(o) for o in options]
        self.name = _text(name)
        self.arch = arch

    def _target_options(self) -> list[bytes]:
        if any(o.split(b"=")[0].decode(errors="replace") in _TARGET_OPTIONS for o in self.options):
            return []
        arch = self.arch if self.arch is not None else Device().arch
        return [f"--offload-arch={arch}".encode()]

    def compile(self, name_expressions=()) -> ObjectCode:
        """Compiles; raises CompileError (with the log) on failure."""
        prog = check("hiprtcCreateProgram", hiprtc.hiprtcCreateProgram(self.code, self.name, 0, None, None))
        try:
            names = [_text(n) for n in name_expressions]
            for n in names:
                check("hiprtcAddNameExpression", hiprtc.hiprtcAddNameExpression(prog, n))
            options = self.options + self._target_options()
            (status,) = hiprtc.hiprtcCompileProgram(prog, len(options), options)
            if int(status) != 0:
                raise CompileError("hiprtcCompileProgram", status, _log(prog))
            size = check("hiprtcGetCodeSize", hiprtc.hiprtcGetCodeSize(prog))
            code = bytearray(size)
            check("hiprtcGetCode", hiprtc.hiprtcGetCode(prog, code))
            lowered = {}
            for n in names:
                low = check("hiprtcGetLoweredName", hiprtc.hiprtcGetLoweredName(prog, n))
                lowered[n.decode()] = low.decode() if isinstance(low, bytes) else str(low)
            return ObjectCode(bytes(code), lowered)
        finally:
            hiprtc.hiprtcDestroyProgram(prog)


def _log(prog) -> str:
    size = check("hiprtcGetProgramLogSize", hiprtc.hiprtcGetProgramLogSize(prog))
    log = bytearray(max(size, 1))
    check("hiprtcGetProgramLog", hiprtc.hiprtcGetProgramLog(prog, log))
    return log.rstrip(b"\0").decode(errors="replace")


class ObjectCode:
    """A compiled code object (`.code`, bytes) and the mangled name of each name expression
    (`.lowered_names`); loaded onto the current device when a kernel is first asked for."""

    def __init__(self, code: bytes, lowered_names: dict[str, str] | None = None):
        self.code = code
        self.lowered_names = dict(lowered_names or {})
        self._module = None

    @property
    def module(self):
        if self._module is None:
            self._module = check("hipModuleLoadData", hip.hipModuleLoadData(self.code))
        return self._module

    def get_kernel(self, name: str, param_types=None) -> Kernel:
        """Kernel `name` (a name expression given to compile, or the symbol itself).

        Its parameter types come from the mangled name; an `extern "C"` kernel has none, so
        give `param_types` (ctypes types, `"pointer"` for any pointer) or pass ctypes values
        and pointers when launching."""
        symbol = self.lowered_names.get(name, name)
        handle = check("hipModuleGetFunction", hip.hipModuleGetFunction(self.module, symbol.encode()))
        if param_types is None and symbol.startswith("_Z"):
            param_types = _mangled.parameter_types(symbol)
        return Kernel(handle, symbol, param_types, self)


class Kernel:
    """A kernel function; `param_types` is None where they are not known."""

    def __init__(self, handle, name: str, param_types, owner=None):
        self.handle, self.name, self._owner = handle, name, owner
        self.param_types = None if param_types is None else list(param_types)

    def __repr__(self):
        return f"<Kernel {self.name}>"
