"""Calls every generated function with arguments the binding must refuse before C runs.

Each call passes `0` for every parameter but one, which gets a probe no parameter there
takes: `object()` and `2**1100` (no parameter kind - number, enum, handle, pointer, buffer,
string, list, struct - accepts them), a handle destroyed through the bindings (every
parameter refuses it: C would get a dangling handle), and where the IR says a parameter
points at one struct or number of known size, a struct of another type and a 1-byte buffer
(C would read or write past its end). A call that returns means C ran on an argument the
binding should have refused; a process that dies is a crash the binding did not prevent.

Calls run in a child process; when one dies the parent names the function and goes on in a
new child after it. Without arguments, every module of the installed packages is probed:

    python tools/fuzz_types.py [module ...]          (exit status 1 on any finding)

With `--none`, every function is called with None for every parameter instead: C runs with
NULL pointers and zeros, and the functions whose C library then crashes are listed (a C
library dereferencing a NULL it was given, which no binding can tell from a valid call).
"""

import gzip
import importlib
import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

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
        if not n.startswith("__") and type(getattr(m, n, None)).__name__ == "builtin_function_or_method"
    )


def arity(f):
    """Parameter count from the text signature PyO3 writes."""
    sig = getattr(f, "__text_signature__", None)
    if sig is None:
        return None
    inner = sig.strip()[1:-1]
    params = [p for p in inner.split(",") if p.strip() and p.strip() not in ("$module", "/", "*")]
    return len(params)


def type_probes(n, typed=()):
    """(label, args) calls that must be refused while converting: a plain object and an int
    no C type holds in each position, one argument too many, and the `typed` (position,
    label, object) probes the IR gives."""
    for i in range(n):
        for label, bad in (("object()", object()), ("2**1100", 2**1100)):
            args = [0] * n
            args[i] = bad
            yield f"{label} at {i}", args
    for i, label, bad in typed:
        args = [0] * n
        args[i] = bad
        yield f"{label} at {i}", args
    yield "an extra argument", [0] * (n + 1)


def destroyed_handle():
    """A handle destroyed through the bindings (a hiprtc program, else an LLVM module)."""
    try:
        from hip import hiprtc

        status, prog = hiprtc.hiprtcCreateProgram(b"", b"x.hip", 0, None, None)
        if prog is not None and hiprtc.hiprtcDestroyProgram(prog)[0] == status:
            return prog
    except Exception:
        pass
    try:
        from rocm.llvm.c import core

        module = core.LLVMModuleCreateWithName(b"x")
        core.LLVMDisposeModule(module)
        return module
    except Exception:
        return None


def ir_library(module):
    """The IR of the library `module` binds (None for the cuda aliases: their parameters are
    HIP's, probed there)."""
    m = importlib.import_module(module)
    release = getattr(m, "__rocm_release__", None)
    if release is None or module.startswith("cuda."):
        return None
    name = module.rsplit(".", 1)[-1]
    if module.startswith("rocm.llvm.c."):
        name = f"llvm_{name}"
    path = REPO / "bindings" / f"rocm-{release}" / f"{name}.ir.json.gz"
    if not path.exists():
        return None
    return json.loads(gzip.decompress(path.read_bytes()))


SCALAR_SIZES = {"int", "float", "enum"}


def ir_probes(m, ir, dead):
    """{function: [(position, label, object)]}, in Python argument order: the destroyed
    handle `dead` for each pointer, handle or struct parameter (a number parameter takes a
    handle's address as hip-python does: C gets a number, not a handle), and for each
    parameter pointing at one struct a struct of another type and a 1-byte buffer, at one
    number wider than a byte a 1-byte buffer."""
    if ir is None:
        return {}
    classes = [getattr(m, r["name"], None) for r in ir["records"]]
    classes = [c for c in classes if isinstance(c, type)][:2]
    out = {}
    for f in ir["functions"]:
        probes, position = [], 0
        for p in f["params"]:
            if p["usage"] in ("out", "out_string"):
                continue
            ty = p["ty"]
            if dead is not None and ty["kind"] in ("pointer", "handle", "record"):
                probes.append((position, "a destroyed handle", dead))
            pointee = ty.get("pointee") if ty["kind"] == "pointer" else None
            if p["usage"] in ("pointer", "by_ref") and pointee is not None:
                if pointee["kind"] == "record" and getattr(m, pointee["name"], None) is not None:
                    other = next((c for c in classes if c.__name__ != pointee["name"]), None)
                    if other is not None:
                        probes.append((position, f"a {other.__name__} for a {pointee['name']} *", other()))
                    probes.append((position, "a 1-byte buffer for a struct", bytearray(1)))
                elif pointee["kind"] in SCALAR_SIZES and pointee.get("size", 0) > 1:
                    probes.append((position, "a 1-byte buffer for a number", bytearray(1)))
            position += 1
        if probes:
            out[f["name"]] = probes
    return out


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
    sized = ir_probes(m, ir_library(module), destroyed_handle()) if mode == "types" else {}
    for index in range(start, len(names)):
        name = names[index]
        f = getattr(m, name)
        n = arity(f) or 0
        print(json.dumps({"index": index, "name": name, "begin": True}), flush=True)
        accepted, calls = [], 0
        if mode == "types":
            probes = type_probes(n, [t for t in sized.get(name, ()) if t[0] < n])
        else:
            probes = [("None everywhere", [None] * n)]
        for label, args in probes:
            calls += 1
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
        print(
            json.dumps({"index": index, "name": name, "accepted": accepted, "arity": n, "calls": calls}),
            flush=True,
        )


def probe(module, mode):
    """(findings, functions probed, calls made) for one module, restarting the child after
    each crash."""
    try:
        total = len(functions(module))
    except ImportError as e:
        return [f"{module}: not importable ({e})"], 0, 0
    findings, start, calls = [], 0, 0
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
            calls += rec.get("calls", 0)
            if rec.get("accepted"):
                findings.append(f"{module}.{rec['name']}: accepted {', '.join(rec['accepted'])}")
        if out.returncode == 0:
            break
        if last is None:
            findings.append(f"{module}: child failed at start: {out.stderr[-500:]}")
            break
        findings.append(f"{module}.{last['name']}: process died (status {out.returncode})")
        start = last["index"] + 1
    return findings, total, calls


def main(argv):
    if argv[:1] == ["--child"]:
        child(argv[1], int(argv[2]), argv[3])
        return 0
    mode = "types"
    if argv[:1] == ["--none"]:
        mode, argv = "none", argv[1:]
    findings, probed, calls = [], 0, 0
    for module in argv or all_modules():
        found, total, n = probe(module, mode)
        findings += found
        probed += total
        calls += n
        print(f"{module}: {total} functions, {n} calls, {len(found)} findings", flush=True)
    print(f"{probed} functions probed, {calls} calls, {len(findings)} findings")
    for f in findings:
        print("  " + f)
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
