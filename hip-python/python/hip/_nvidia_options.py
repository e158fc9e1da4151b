"""hiprtc options on the NVIDIA platform, where hiprtc is NVRTC.

HIP code asks hiprtc for an AMD target (`--offload-arch=gfx90a`); on NVIDIA the same
program compiles through NVRTC, which takes `--gpu-architecture=sm_90`. Options naming an
NVIDIA architecture through `--offload-arch` are translated, AMD targets are dropped with a
warning (NVRTC then compiles for its default virtual architecture, which any newer GPU
runs), and everything else passes through. On AMD nothing changes.
"""

import functools
import warnings

from hip import _native


class OffloadArchWarning(UserWarning):
    """An AMD target option was dropped on the NVIDIA platform."""


def translate(options):
    """NVRTC options for hiprtc `options` (bytes or str), and those dropped."""
    out, dropped = [], []
    for opt in options:
        text = opt.decode() if isinstance(opt, (bytes, bytearray)) else str(opt)
        name, eq, value = text.partition("=")
        if name in ("--offload-arch", "-offload-arch", "--amdgpu-target") and eq:
            if value.startswith(("sm_", "compute_")):
                out.append(f"--gpu-architecture={value}".encode())
            else:
                dropped.append(text)
            continue
        out.append(text.encode())
    return out, dropped


def compile_program(native):
    """Wraps hiprtcCompileProgram so that, on NVIDIA, its options are translated."""

    @functools.wraps(native)
    def hiprtcCompileProgram(prog, numOptions, options):
        if _native.platform() != "nvidia" or not options:
            return native(prog, numOptions, options)
        translated, dropped = translate(list(options)[: int(numOptions)])
        if dropped:
            warnings.warn(
                f"hiprtcCompileProgram on NVIDIA: dropped AMD target options {dropped}",
                OffloadArchWarning,
                stacklevel=2,
            )
        return native(prog, len(translated), translated or None)

    return hiprtcCompileProgram
