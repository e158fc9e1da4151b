"""Calls every generated function with one argument of a type no parameter takes.

Each call passes `0` for every parameter but one, which gets `object()`: no parameter kind
(number, enum, handle, pointer, buffer, string, list, struct) accepts a plain object, so every
call must raise before C is called. A call that returns means C ran on an argument the
binding should have refused; a process that dies is a crash the binding did not prevent.

Calls run in a child process; when one dies the parent names the function and goes on in a
new child after it. Without arguments, every module of the installed packages is probed:

    python tools/fuzz_types.py [module ...]          (exit status 1 on any finding)

With `--none`, every function is called with None for every parameter instead: C runs with
NULL pointers and zeros, and the functions whose C library then crashes are listed (a C
library dereferencing a NULL it was given, which no binding can tell from a valid call).
"""

import importlib
import json
import subprocess
import sys

MODULES = [
    "hip.hip",
    "hip.hiprtc",
    "hip.hipblas",
    "hip.hipsparse",
    "hip.rccl",
    "hip.hiprand",
    "hip.hipfft",
    "hip.hipsolver",
    "hip.roctx",
    "cuda.bindings.driver",
    "cuda.bindings.runtime",
    "cuda.bindings.nvrtc",
    "rocm.amd_comgr.amd_comgr",
]


def all_modules():
    """MODULES and every module of the LLVM C API package."""
    out = list(MODULES)
    try:
        llvm = importlib.import_module("rocm.llvm.c")
    except ImportError:
        return out
    for name in sorted(dir(llvm)):
        if type(getattr(llvm, name)).__name__ == "module" and not name.startswith("_") and name != "rocm":
            out.append(f"rocm.llvm.c.{name}")
    return out


def functions(module):
    """The module's generated functions (native builtins), by name."""
    m = importlib.import_module(module)
    return sorted(
        n
        for n in dir(m)
        if not n.startswith("__") and type(getattr(m, n)).__name__ == "builtin_function_or_method"
    )


def arity(f):
    """Parameter count from the text signature PyO3 writes."""
    sig = getattr(f, "__text_signature__", None)
    if sig is None:
        return None
    inner = sig.strip()[1:-1]
    params = [p for p in inner.split(",") if p.strip() and p.strip() not in ("$module", "/", "*")]
    return len(params)


def type_probes(n):
    """(label, args) calls that must be refused while converting: a plain object and an int
    no C type holds, in each position, and one argument too many."""
    for i in range(n):
        for label, bad in (("object()", object()), ("2**1100", 2**1100)):
            args = [0] * n
            args[i] = bad
            yield f"{label} at {i}", args
    yield "an extra argument", [0] * (n + 1)


def _not_supported(result):
    """Whether a CUDA function's result is cuda-python's "not supported" status (what an
    adapter answers for a non-null CUDA-only input, without calling C)."""
    if not isinstance(result, tuple) or not result:
        return False
    from cuda.bindings import driver, runtime

    status = result[0]
    return type(status) in (driver.CUresult, runtime.cudaError_t) and status in (
        driver.CUresult.CUDA_ERROR_NOT_SUPPORTED,
        runtime.cudaError_t.cudaErrorNotSupported,
    )


def child(module, start, mode):
    """Probes the functions of `module` from index `start`, printing one line per function.
    `mode` is `types` (calls that must fail before C) or `none` (None everywhere: C runs)."""
    m = importlib.import_module(module)
    names = functions(module)
    for index in range(start, len(names)):
        name = names[index]
        f = getattr(m, name)
        n = arity(f) or 0
        print(json.dumps({"index": index, "name": name, "begin": True}), flush=True)
        accepted = []
        probes = type_probes(n) if mode == "types" else [("None everywhere", [None] * n)]
        for label, args in probes:
            try:
                result = f(*args)
            except (TypeError, ValueError, OverflowError):
                continue  # refused while converting, before C
            except BaseException as e:
                # Converted, then failed elsewhere (a library that does not load): the
                # argument would have reached C.
                accepted.append(f"{label} ({type(e).__name__})")
                continue
            if module.startswith("cuda.") and _not_supported(result):
                continue  # a CUDA-only input HIP has no parameter for: answered, C not called
            accepted.append(label)
        if mode == "none":
            accepted = []  # None is a NULL pointer or 0: C may well take it
        print(json.dumps({"index": index, "name": name, "accepted": accepted, "arity": n}), flush=True)


def probe(module, mode):
    """(findings, functions probed) for one module, restarting the child after each crash."""
    try:
        total = len(functions(module))
    except ImportError as e:
        return [f"{module}: not importable ({e})"], 0
    findings, start = [], 0
    while start < total:
        out = subprocess.run(
            [sys.executable, __file__, "--child", module, str(start), mode],
            capture_output=True,
            text=True,
            timeout=600,
        )
        last = None
        for line in out.stdout.splitlines():
            rec = json.loads(line)
            last = rec
            if rec.get("accepted"):
                findings.append(f"{module}.{rec['name']}: accepted {', '.join(rec['accepted'])}")
        if out.returncode == 0:
            break
        if last is None:
            findings.append(f"{module}: child failed at start: {out.stderr[-500:]}")
            break
        findings.append(f"{module}.{last['name']}: process died (status {out.returncode})")
        start = last["index"] + 1
    return findings, total


def main(argv):
    if argv[:1] == ["--child"]:
        child(argv[1], int(argv[2]), argv[3])
        return 0
    mode = "types"
    if argv[:1] == ["--none"]:
        mode, argv = "none", argv[1:]
    findings, probed = [], 0
    for module in argv or all_modules():
        found, total = probe(module, mode)
        findings += found
        probed += total
        print(f"{module}: {total} functions, {len(found)} findings", flush=True)
    print(f"{probed} functions probed, {len(findings)} findings")
    for f in findings:
        print("  " + f)
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
