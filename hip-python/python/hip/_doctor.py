"""Diagnostics: the libraries each module loads, from where, their versions, and how many of
the module's symbols they export. Exit status 1 when the library of a core module (hip,
hiprtc) cannot be loaded, or, with --strict, the library of any module."""

import argparse
import os
import platform
import sys
from importlib import metadata

from hip import _native, _select

CORE = ("hip", "hiprtc")
ENV_VARS = ("ROCM_PATH", "HIP_PLATFORM", "HIP_PYTHON_PARALLEL_COMPILE", "LD_LIBRARY_PATH")


def _version(module):
    """The runtime's own version report, or None."""
    try:
        if module == "hip":
            from hip import hip

            status, v = hip.hipRuntimeGetVersion()
            return f"hipRuntimeGetVersion: {v} ({status.name})"
        if module == "hiprtc":
            from hip import hiprtc

            status, major, minor = hiprtc.hiprtcVersion()
            return f"hiprtcVersion: {major}.{minor} ({status.name})"
    except RuntimeError as e:
        return f"version unavailable: {e.args[0].splitlines()[0]}"
    return None


def _devices():
    try:
        from hip import hip
    except ImportError:
        return "hip module not built"
    try:
        status, count = hip.hipGetDeviceCount()
    except RuntimeError:
        return "unknown (runtime not loaded)"
    return f"{count} ({status.name})"


def report(out=sys.stdout, strict=False):
    """Writes the report and returns the exit status."""

    def line(text=""):
        print(text, file=out)

    try:
        version = metadata.version("hip-python")
    except metadata.PackageNotFoundError:
        version = "not installed (source tree)"
    line(f"hip-python {version}")
    carried = ", ".join(r["release"] or "?" for r in _select.RELEASES)
    try:
        chosen = _select.chosen()
        line(f"bindings: ROCm {chosen['release']} ({chosen['reason']}); the wheel carries {carried}")
    except RuntimeError as e:
        line(f"bindings: none fits ({e}); the wheel carries {carried}")
        return 1
    line(f"python {platform.python_version()} ({sys.executable})")
    libc = "-".join(platform.libc_ver())
    line(f"system {platform.platform()} {platform.machine()} {libc}")
    line(f"platform: {_native.platform()} ({_native.platform_reason()})")
    try:
        import rocm_sdk  # noqa: F401

        line(f"rocm_sdk: installed ({getattr(rocm_sdk, '__version__', 'unknown version')})")
    except ImportError:
        line("rocm_sdk: not installed")
    for var in ENV_VARS + tuple(sorted(k for k in os.environ if k.startswith("HIP_PYTHON_LIB"))):
        line(f"  {var}={os.environ.get(var, '(unset)')}")
    line()
    unresolved = dict(_native.unresolved_symbols())
    totals = {name: len(symbols) for name, symbols in _native.symbols()}
    status = 0
    for module, library, loaded, where in _native.libraries():
        line(f"hip.{module}: library '{library}'")
        if not loaded:
            required = strict or module in CORE
            status = 1 if required else status
            line("  NOT LOADED" + ("" if required else " (optional: only needed to call its functions)"))
            for text in where.splitlines():
                line(f"  {text}")
            continue
        line(f"  loaded from {where}")
        version = _version(module)
        if version:
            line(f"  {version}")
        missing = unresolved.get(module, [])
        line(f"  symbols: {totals[module] - len(missing)}/{totals[module]} resolve")
        if missing:
            shown = ", ".join(missing[:8]) + (", ..." if len(missing) > 8 else "")
            line(f"  missing (calls raise HipLoadError): {shown}")
    line()
    line(f"GPUs: {_devices()}")
    line("status: " + ("OK" if status == 0 else "a library is missing (see above)"))
    return status


def main(argv):
    parser = argparse.ArgumentParser(prog="python -m hip", description=__doc__)
    parser.add_argument("command", choices=["doctor"], help="what to run")
    parser.add_argument("--strict", action="store_true", help="fail when any library is missing")
    args = parser.parse_args(argv)
    return report(strict=args.strict)
