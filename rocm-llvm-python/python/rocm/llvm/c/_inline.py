"""The `static inline` functions of `llvm-c/Target.h`, which exist only in the header.

`LLVMInitializeAllTargets()` and friends call `LLVMInitialize<Target>Target()` for every
target LLVM was built with; `LLVMInitializeNativeTarget()` for the host's target. Here the
targets are those whose initialization functions the bindings have (from the header's
`Targets.def`, `AsmPrinters.def`, ...), and the native one is the host's architecture.
"""

import platform
import re

#: LLVM's name of the host architecture's target (`LLVM_NATIVE_TARGET`).
_NATIVE = {
    "x86_64": "X86",
    "amd64": "X86",
    "i386": "X86",
    "i686": "X86",
    "aarch64": "AArch64",
    "arm64": "AArch64",
    "ppc64le": "PowerPC",
    "ppc64": "PowerPC",
    "s390x": "SystemZ",
    "riscv64": "RISCV",
    "loongarch64": "LoongArch",
}


def _init_all(module, kind):
    """Calls LLVMInitialize<T><kind>() for every target T the bindings know; targets the
    loaded libLLVM was not built with (its symbol is missing) are passed over, as LLVM's own
    helper only names the targets of its build."""
    from rocm._packages import HipLoadError

    pattern = re.compile(rf"LLVMInitialize(\w+){kind}")
    for name in dir(module):
        m = pattern.fullmatch(name)
        if m and m.group(1) not in ("All", "Native"):
            try:
                getattr(module, name)()
            except HipLoadError:
                pass


def _native_name():
    return _NATIVE.get(platform.machine().lower())


def _init_native(module, kinds):
    target = _native_name()
    if target is None:
        return 1
    for kind in kinds:
        fn = getattr(module, f"LLVMInitialize{target}{kind}", None)
        if fn is None:
            return 1
        fn()
    return 0


def install(module):
    """Adds the helpers to `rocm.llvm.c.target` (modules re-exporting it see them too)."""

    def LLVMInitializeAllTargetInfos():
        """Initializes every target's TargetInfo."""
        _init_all(module, "TargetInfo")

    def LLVMInitializeAllTargets():
        """Initializes every target."""
        _init_all(module, "Target")

    def LLVMInitializeAllTargetMCs():
        """Initializes every target's machine-code layer."""
        _init_all(module, "TargetMC")

    def LLVMInitializeAllAsmPrinters():
        """Initializes every target's assembly printer."""
        _init_all(module, "AsmPrinter")

    def LLVMInitializeAllAsmParsers():
        """Initializes every target's assembly parser."""
        _init_all(module, "AsmParser")

    def LLVMInitializeAllDisassemblers():
        """Initializes every target's disassembler."""
        _init_all(module, "Disassembler")

    def LLVMInitializeNativeTarget():
        """Initializes the host's target; 0 on success, 1 when the host has none."""
        return _init_native(module, ("TargetInfo", "Target", "TargetMC"))

    def LLVMInitializeNativeAsmParser():
        """Initializes the host's assembly parser; 0 on success."""
        return _init_native(module, ("AsmParser",))

    def LLVMInitializeNativeAsmPrinter():
        """Initializes the host's assembly printer; 0 on success."""
        return _init_native(module, ("AsmPrinter",))

    def LLVMInitializeNativeDisassembler():
        """Initializes the host's disassembler; 0 on success."""
        return _init_native(module, ("Disassembler",))

    helpers = (
        LLVMInitializeAllTargetInfos,
        LLVMInitializeAllTargets,
        LLVMInitializeAllTargetMCs,
        LLVMInitializeAllAsmPrinters,
        LLVMInitializeAllAsmParsers,
        LLVMInitializeAllDisassemblers,
        LLVMInitializeNativeTarget,
        LLVMInitializeNativeAsmParser,
        LLVMInitializeNativeAsmPrinter,
        LLVMInitializeNativeDisassembler,
    )
    for fn in helpers:
        fn.__module__ = module.__name__
        setattr(module, fn.__name__, fn)
    # `from rocm.llvm.c.target import *` brings them too, as in rocm-llvm-python. A module whose
    # bindings are still to be chosen (rocm._select) adds them to its `__all__` when filled.
    if "__all__" in vars(module):
        exported = list(module.__all__)
        module.__all__ = exported + sorted({fn.__name__ for fn in helpers} - set(exported))
