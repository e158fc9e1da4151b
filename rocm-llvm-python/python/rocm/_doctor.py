"""Diagnostics of rocm-llvm-python: which library each group of modules loads, from where,
its version, and how many of the modules' symbols it exports. Exit status 1 when a library
of the build cannot be loaded."""

import argparse
import os
import platform
import sys
from importlib import metadata

from rocm import _packages, _select

ENV_VARS = ("ROCM_PATH", "ROCM_PYTHON_LIBAMD_COMGR", "ROCM_PYTHON_LIBLLVM", "LD_LIBRARY_PATH")


def _version(library):
    """The library's own version report, or None."""
    try:
        if library == "amd_comgr":
            from rocm.amd_comgr import amd_comgr

            _, major, minor = amd_comgr.amd_comgr_get_version()
            return f"amd_comgr_get_version: interface {major}.{minor}"
        if library == "LLVM":
            from rocm.llvm.c import core

            major, minor, patch = core.LLVMGetVersion()
            return f"LLVMGetVersion: {major}.{minor}.{patch}"
    except (RuntimeError, TypeError) as e:
        return f"version unavailable: {str(e).splitlines()[0]}"
    return None


def _rows():
    """(module, library, loaded, where, symbols, missing) of each module in use: the chosen
    bindings' of each library the wheel carries several versions of, `_native`'s of the rest."""
    served = _select.in_use()
    elsewhere = set().union(*(m for m in served.values() if m))
    rows = []
    for ext, modules in served.items():
        totals = dict(ext.symbols())
        unresolved = dict(ext.unresolved_symbols())
        for module, library, loaded, where in ext.libraries():
            mine = module in modules if modules is not None else module not in elsewhere
            # A module of a header alone (rocm.amd_comgr.amdhsa: no function, no library).
            if mine and (loaded or totals[module]):
                rows.append((module, library, loaded, where, totals[module], unresolved.get(module, [])))
    return rows


def report(out=sys.stdout):
    """Writes the report and returns the exit status."""

    def line(text=""):
        print(text, file=out)

    try:
        version = metadata.version("rocm-llvm-python")
    except metadata.PackageNotFoundError:
        version = "not installed (source tree)"
    line(f"rocm-llvm-python {version}, bindings generated for ROCm {_packages.ROCM_VERSION_NAME}")
    line(f"python {platform.python_version()} ({sys.executable})")
    line(f"system {platform.platform()} {platform.machine()} {'-'.join(platform.libc_ver())}")
    for var in ENV_VARS:
        line(f"  {var}={os.environ.get(var, '(unset)')}")
    line()
    groups = {}
    for module, library, loaded, where, symbols, missing in _rows():
        groups.setdefault(library, []).append((module, loaded, where, symbols, missing))
    chosen = {entry["library"]: family for family, entry in _select.FAMILIES.items()}
    status = 0
    for library, modules in groups.items():
        names = [m for m, *_ in modules]
        line(f"library '{library}': {len(names)} module(s): {', '.join(names)}")
        if library in chosen:
            version, _, why = _select.choose(chosen[library])
            carried = ", ".join(str(v["version"]) for v in _select.FAMILIES[chosen[library]]["versions"])
            of = f"ROCm {version['release']}'s; carried: {carried}"
            line(f"  bindings: version {version['version']} ({of}): {why}")
        _, loaded, where, _, _ = modules[0]
        if not loaded:
            status = 1
            line("  NOT LOADED")
            for text in where.splitlines():
                line(f"  {text}")
            continue
        line(f"  loaded from {where}")
        version = _version(library)
        if version:
            line(f"  {version}")
        total = sum(len(symbols) for *_, symbols, _ in modules)
        missing = [s for *_, gone in modules for s in gone]
        line(f"  symbols: {total - len(missing)}/{total} resolve")
        if missing:
            shown = ", ".join(missing[:8]) + (", ..." if len(missing) > 8 else "")
            line(f"  missing (calls raise HipLoadError): {shown}")
    line()
    line("status: " + ("OK" if status == 0 else "a library is missing (see above)"))
    return status


def main(argv):
    parser = argparse.ArgumentParser(prog="python -m rocm", description=__doc__)
    parser.add_argument("command", choices=["doctor"], help="what to run")
    parser.parse_args(argv)
    return report()
