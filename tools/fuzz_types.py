"""Calls every generated function with arguments the binding must refuse before C runs.

Each call passes a neutral value (`0`, or a default struct where C takes a struct by value) for
every parameter but the probed ones (count and sized: a live handle of its kind where one can
be made here, so that C would really use the probe). The probe classes (`CLASSES`):

  types         `object()` and `2**1100` at each parameter (no parameter kind takes them), one
                argument too many, and where the IR says a parameter points at one struct or
                number of known size, a struct of another type and a 1-byte buffer.
  foreign-dead  a handle destroyed through the bindings at every pointer, handle or struct
                parameter (C would get a dangling handle).
  handle        at each handle parameter (a handle by value or by reference, a void* handle
                typedef, a struct whose only field is `handle`): a struct of ours, a live handle
                of another kind (of another library, and of the same library where one can be
                made here) and a 256-byte buffer of 0xAB.
  count         where a list parameter has a count parameter: a list of 1 element with the count
                1000 or -1 (and, where one count sizes two lists, one of them empty).
  sized         an output buffer of 16 bytes where its size parameter says 1000, or its sizing
                function (hiprtcGetCodeSize for hiprtcGetCode) says more, with a real object.
  dead          for each library, the handles it can create here, destroyed through the
                bindings (functions the IR marks `destroys`), at every parameter of their kind
                of every function of that library: the destroyers themselves destroy twice.
  lifetime      LLVM objects whose owner was disposed: a module, function and type of a
                disposed context, a function of a disposed module.

A call that returns means C ran on an argument the binding should have refused (accepted); a
process that dies is a crash the binding did not prevent. Every probe must be refused with
TypeError, ValueError or OverflowError. Findings `ALLOWED` names (each with its reason) are
listed apart and do not fail the run.

Modules run in child processes, many modules to a child; when one dies the parent names the
probe and goes on in a new child from the next one. Without module arguments, every module of
the installed packages is probed, for every release the hip-python wheel carries (each in its
own children, `HIP_PYTHON_ROCM_RELEASE` set), the cuda adapters included:

    python tools/fuzz_types.py [--json FILE] [--release R] [module ...]  (exit 1 on any finding)

`--anchor` runs the same probes against AMD's hip-python in the running interpreter (its
modules have the same functions and positional arguments), with the IR of `--release`
(default 6.4.3) for the parameter kinds; `--ir-functions` probes only the functions the IR
names (what `--anchor` probes), for comparing both (tools/fuzz_anchor.py). HIPGEN_FUZZ_LOADER
(a JSON list) prefixes each child's command: another root's dynamic loader, as there.

With `--none`, every function is called with None for every parameter instead: C runs with
NULL pointers and zeros, and the functions whose C library then crashes are listed (a C
library dereferencing a NULL it was given, which no binding can tell from a valid call).
"""

from __future__ import annotations

import argparse
import ctypes
import gzip
import importlib
import importlib.util
import inspect
import json
import mmap
import os
import re
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

CLASSES = ["types", "foreign-dead", "handle", "count", "sized", "dead", "lifetime", "none"]
NONE = CLASSES.index("none")

#: Findings that are no binding's to prevent, each with its reason: (class, function regex,
#: label regex) -> reason. They are listed apart and do not fail the run. Empty: every probe
#: class passes values no valid call passes, so a binding can always tell them apart.
ALLOWED: dict[tuple[str, str, str], str] = {}

#: ROCm 5 ships hiprtc inside libamdhip64 (the bindings of later releases look for libhiprtc).
ROCM5_HIPRTC = "libamdhip64.so.5"

SCALAR_SIZES = {"int", "float", "enum"}
KERNEL = b'extern "C" __global__ void k(float *x){ x[0] = 1; }'
BROKEN = b'extern "C" __global__ void k(){ undefined_name; }'
ARCH = b"--offload-arch=gfx90a"
GARBAGE = bytes([0xAB]) * 256

#: Seconds without a probe's end before a child counts as hung (the slowest setup, compiling
#: three hiprtc programs, takes about 0.5 s).
HANG_S = 5
HEADER = 512  # child position: module, probe, class, label length, state (int32 each), label
CALLING, REFUSED, ACCEPTED = 1, 2, 3  # the state: in the call, or back from it (counted)
LABEL_MAX = HEADER - 20


# --- what runs where --------------------------------------------------------------------------


def _manifest_module():
    """tools/manifest.py, which reads the releases' manifests."""
    spec = importlib.util.spec_from_file_location("manifest", REPO / "tools" / "manifest.py")
    manifest = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(manifest)
    return manifest


def cuda_modules():
    """The cuda package's modules (`cuda.bindings.driver`), from the default release's manifest."""
    manifest = _manifest_module()
    return [m["module"] for m in manifest.alias_modules(manifest.load(), "hip-python-as-cuda")]


def release_modules(release):
    """hip-python's module names (`hipblas`) of `release`'s checked-in bindings (its manifest)."""
    manifest = _manifest_module()
    folder = REPO / "bindings" / f"rocm-{release}"
    if not (folder / "manifest.json").exists():
        folder = None  # a release not checked in: the default's libraries
    return [
        m["python_module"].split(".", 1)[1]
        for lib in manifest.libraries(manifest.load(folder), "hip-python")
        for m in lib["modules"]
    ]


def anchor_modules():
    """The modules of the installed hip-python that carries no release catalog (AMD's): each
    binding module beside its Cython loader (`hip.hipblas` beside `hip.chipblas`)."""
    import pkgutil

    import hip

    names = {m.name for m in pkgutil.iter_modules(hip.__path__)}
    return sorted(n for n in names if not n.startswith(("_", "c")) and f"c{n}" in names)


def carried_releases():
    """[(release, hip module names)] of the installed hip-python (its `_releases.json`)."""
    try:
        from hip import _select
    except ImportError:
        return []
    return [
        (r["release"], list(r.get("modules") or release_modules(r["release"])))
        for r in _select.RELEASES
        if r["release"]
    ]


def has_functions(m):
    return any(type(getattr(m, n, None)).__name__ == "builtin_function_or_method" for n in dir(m))


def rocm_modules():
    """The generated modules of rocm-llvm-python (comgr, the LLVM C API, llvm-config) as its
    extension publishes them in sys.modules."""
    try:
        importlib.import_module("rocm.llvm.c")
    except ImportError:
        return []
    return sorted(
        n
        for n, m in list(sys.modules.items())
        if n.startswith(("rocm.llvm.", "rocm.amd_comgr.")) and m is not None and has_functions(m)
    )


def hiprtc_env():
    """HIP_PYTHON_LIBHIPRTC for the children where hiprtc is only found inside ROCm 5's
    libamdhip64 (as on Debian bookworm): else no program can be made to probe with."""
    if os.environ.get("HIP_PYTHON_LIBHIPRTC"):
        return {}
    for name in ("libhiprtc.so", "libhiprtc.so.7", "libhiprtc.so.6", "libhiprtc.so.5"):
        try:
            ctypes.CDLL(name)
            return {}
        except OSError:
            pass
    try:
        inside = hasattr(ctypes.CDLL(ROCM5_HIPRTC), "hiprtcCreateProgram")
        return {"HIP_PYTHON_LIBHIPRTC": ROCM5_HIPRTC} if inside else {}
    except OSError:
        return {}


def plan(args):
    """The jobs: [{name, env, modules}], each run in a chain of children (a new one after
    each crash), two or more jobs at a time."""
    wanted = set(args.modules)
    keep = (lambda ms: [m for m in ms if m in wanted]) if wanted else (lambda ms: ms)
    if args.anchor:
        # A job per module: AMD's crash often, and each crash costs a new child.
        return [
            {"name": "AMD hip-python", "env": {}, "modules": [m]}
            for m in keep([f"hip.{n}" for n in anchor_modules()])
        ]
    # Not HIP_PYTHON_ROCM_RELEASE: the tests set it for themselves (tests/conftest.py).
    pinned = args.release or os.environ.get("HIPGEN_IN_ROOT")
    releases = carried_releases()
    if pinned:
        releases = [(r, ms) for r, ms in releases if r == pinned or r.startswith(pinned + ".")] or [
            (pinned, release_modules(pinned))
        ]
    extra = hiprtc_env()
    jobs = []
    for release, hip in releases:
        env = dict(extra)
        if not os.environ.get("HIPGEN_IN_ROOT"):
            env["HIP_PYTHON_ROCM_RELEASE"] = release
        modules = keep([f"hip.{n}" for n in hip] + cuda_modules())
        jobs.append({"name": f"ROCm {release}", "env": env, "modules": modules})
    jobs.append({"name": "rocm-llvm-python", "env": extra, "modules": keep(rocm_modules())})
    placed = {m for j in jobs for m in j["modules"]}
    rest = [m for m in args.modules if m not in placed]
    if rest:
        jobs.append({"name": "other", "env": extra, "modules": rest})
    return [j for j in jobs if j["modules"]]


# --- the IR -----------------------------------------------------------------------------------


def bindings_dirs(release):
    """Where the IR of `release` is: the checked-in bindings, else the generator's output
    (tools/test.sh builds rocm-llvm-python from target/bindings/rocm-5.2.3)."""
    dirs = [REPO / "bindings" / f"rocm-{release}", REPO / "target" / "bindings" / f"rocm-{release}"]
    if os.environ.get("HIPGEN_BINDINGS"):
        dirs.insert(0, Path(os.environ["HIPGEN_BINDINGS"]))
    return [d for d in dirs if d.is_dir()]


_IR: dict = {}


def load_ir(release, name):
    """The IR hipgen wrote for `name` (`hip`, `llvm_core`...) of `release`, or None."""
    key = (release, name)
    if key not in _IR:
        _IR[key] = None
        for d in bindings_dirs(release):
            path = d / f"{name}.ir.json.gz"
            if path.exists():
                _IR[key] = json.loads(gzip.decompress(path.read_bytes()))
                break
    return _IR[key]


def ir_name(module):
    """The IR file of a module: hip.hipblas -> hipblas, rocm.llvm.c.core -> llvm_core,
    rocm.llvm.c.transforms.passbuilder -> llvm_transforms_passbuilder."""
    if module.startswith("hip."):
        return module[4:]
    if module.startswith("rocm.amd_comgr."):
        return "amd_comgr"
    if module.startswith("rocm.llvm."):
        rest = module[len("rocm.llvm.") :]
        return "llvm_" + (rest[2:] if rest.startswith("c.") else rest).replace(".", "_")
    return None


def library_of(name):
    """The library an IR file belongs to (every llvm_* file is LLVM's)."""
    return "llvm" if name.startswith("llvm_") else name


def record_handles(ir):
    """Structs that are handles: their only field is `handle` (amd_comgr_data_t, hsa_agent_t)."""
    records = ir.get("records", [])
    return {r["name"] for r in records if [f["name"] for f in r.get("fields", [])] == ["handle"]}


def opaque_pointers(ir):
    """The void* typedefs that are handles (the IR's `opaque_pointers`: the generator leaves
    the list out where it is empty)."""
    return set(ir.get("opaque_pointers", []))


class Library:
    """One library's IR files with their modules, and what the probes need to know of it."""

    def __init__(self, name, parts):
        self.name = name
        self.parts = parts  # [(python module, ir)]
        self.opaque, self.records, self.functions = set(), set(), {}
        self.destroyed = None
        for module, ir in parts:
            self.opaque |= opaque_pointers(ir)
            self.records |= record_handles(ir)
            for f in ir["functions"]:
                self.functions[f["name"]] = (module, f)

    def kind(self, p):
        """The handle kind a parameter takes (a handle's or struct's name, a void* typedef),
        or None."""
        ty, usage = p["ty"], p["usage"]
        if usage in ("out", "out_string"):
            return None
        if ty["kind"] == "handle" and usage == "in":
            return ty.get("name")
        pointee = ty.get("pointee") or {}
        if usage == "by_ref" and ty["kind"] == "pointer" and pointee.get("kind") == "handle":
            return pointee.get("name")
        bare = p["spelling"].replace("const ", "").strip()
        if bare in self.opaque:
            return bare
        if ty["kind"] == "record" and usage == "in" and ty.get("name") in self.records:
            return ty["name"]
        return None

    def destroyers(self, kind):
        """(module, function) of each function marked `destroys` taking just a `kind`."""
        out = []
        for module, f in self.functions.values():
            ins = [p for p in f["params"] if p["usage"] not in ("out", "out_string")]
            if f.get("destroys") and len(ins) == 1 and self.kind(ins[0]) == kind:
                out.append((module, f["name"]))
        return out

    def creators(self, kind):
        """(module, function) of each creating function without arguments that gives a `kind`."""
        out = []
        for module, f in self.functions.values():
            if any(p["usage"] not in ("out", "out_string") for p in f["params"]):
                continue
            ret = f.get("ret") or {}
            outs = [
                name
                for p in f["params"]
                if p["usage"] == "out"
                for name in (
                    (p["ty"].get("pointee") or {}).get("name"),
                    p["spelling"].replace("const ", "")[:-2],
                )
            ]
            gives = (ret.get("kind") == "handle" and ret.get("name") == kind) or kind in outs
            if gives and re.search("(?i)create", f["name"]):
                out.append((module, f["name"]))
        return out


# --- calling ------------------------------------------------------------------------------------


def signature_names(f):
    """The Python parameter names of a function (PyO3's text signature, Cython's or Python's)."""
    sig = getattr(f, "__text_signature__", None)
    if sig:
        inner = sig.strip()[1:-1]
        params = [p.strip() for p in inner.split(",")]
        return [p.split("=")[0] for p in params if p and p not in ("$module", "/", "*")]
    try:
        params = inspect.signature(f).parameters.values()
    except (TypeError, ValueError):
        return None
    return [p.name for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]


def arity(f):
    names = signature_names(f)
    return None if names is None else len(names)


def positions(fir, f):
    """{IR parameter name: Python position}: by name where the names match (a parameter the
    binding takes from another has none), else by order where the counts match, else None."""
    ins = [p["name"] for p in fir["params"] if p["usage"] not in ("out", "out_string")]
    names = signature_names(f)
    if names is None:
        return {n: i for i, n in enumerate(ins)}
    bare = [n.rstrip("_") for n in names]
    if set(bare) <= set(ins):
        return {n: bare.index(n) for n in ins if n in bare}
    return {n: i for i, n in enumerate(ins)} if len(ins) == len(names) else None


def status_ok(result):
    """Whether a call succeeded: a status of 0 first, or no status (an object, None)."""
    status = result[0] if isinstance(result, tuple) and result else result
    value = getattr(status, "value", status) if isinstance(result, tuple) or isinstance(status, int) else None
    return not isinstance(value, int) or value == 0


def made(result):
    """The object a creating call gave (its result, or the first output after the status)."""
    if not isinstance(result, tuple):
        return result
    if not result or not status_ok(result):
        return None
    rest = [r for r in result[1:] if r is not None and not isinstance(r, int)]
    return rest[0] if rest else None


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


# --- the objects probes are made of ---------------------------------------------------------------


class World:
    """The objects of a child's probes, made once each and on first use: live and destroyed
    handles of each kind, hiprtc programs with outputs larger than a probe's buffer, LLVM
    objects outliving their owner."""

    def __init__(self, anchor, release):
        self.anchor, self.release = anchor, release
        self.libs, self._live, self._dead, self._memo = {}, {}, {}, {}
        self.notes = []

    def memo(self, key, make, note=None):
        """make()'s object, made once; None where it fails (noted as `note`: topic, library,
        subject)."""
        if key not in self._memo:
            try:
                self._memo[key] = make()
            except Exception as e:  # a library that does not load here, a missing symbol
                if note is not None:
                    first = (str(e).splitlines() or [""])[0]
                    self.note(*note, f"{type(e).__name__}: {first[:70]}")
                self._memo[key] = None
        return self._memo[key]

    def note(self, topic, lib, subject, reason):
        """Something a probe class could not cover here, and why."""
        self.notes.append([topic, lib, subject, reason])

    # Libraries ----------------------------------------------------------------------------

    def hip_release(self):
        if self.anchor:
            return self.release
        return getattr(importlib.import_module("hip.hip"), "__rocm_release__", None)

    def library(self, name):
        """The Library `name` (`hip`, `hiprtc`, `llvm`, `amd_comgr`...), None without IR."""
        if name not in self.libs:
            parts = []
            if name in ("llvm", "amd_comgr"):
                for module in rocm_modules():
                    ir = load_ir(getattr(sys.modules[module], "__rocm_release__", None), ir_name(module))
                    if ir is not None and library_of(ir_name(module)) == name:
                        parts.append((module, ir))
            else:
                ir = load_ir(self.hip_release(), name)
                if ir is not None:
                    parts.append((f"hip.{name}", ir))
            self.libs[name] = Library(name, parts) if parts else None
        return self.libs[name]

    def function(self, module, name):
        return getattr(importlib.import_module(module), name)

    # hiprtc ---------------------------------------------------------------------------------

    def program(self, src=KERNEL, options=None):
        """A hiprtc program of `src`, compiled with `options` where given."""
        from hip import hiprtc

        prog = made(hiprtc.hiprtcCreateProgram(src, b"k.hip", 0, None, None))
        if prog is not None and options is not None:
            hiprtc.hiprtcCompileProgram(prog, len(options), options)
        return prog

    def programs(self):
        """Programs whose code, log and bitcode are larger than a probe's buffer."""
        return [
            p
            for p in (
                self.memo("compiled", lambda: self.program(options=[ARCH]), ("sized", "hiprtc", "compiling")),
                self.memo("failed", lambda: self.program(BROKEN, [ARCH]), ("sized", "hiprtc", "compiling")),
                self.memo(
                    "rdc",
                    lambda: self.program(options=[ARCH, b"-fgpu-rdc"]),
                    ("sized", "hiprtc", "-fgpu-rdc"),
                ),
            )
            if p is not None
        ]

    # LLVM ------------------------------------------------------------------------------------

    def llvm(self, name="core"):
        return importlib.import_module(f"rocm.llvm.c.{name}")

    def context(self):
        return self.memo("LLVM context", lambda: self.llvm().LLVMContextCreate())

    def i32(self):
        return self.memo("LLVM i32", lambda: self.llvm().LLVMInt32TypeInContext(self.context()))

    def function_in(self, module, ctx):
        core = self.llvm()
        fty = core.LLVMFunctionType(core.LLVMVoidTypeInContext(ctx), [], 0, 0)
        return core.LLVMAddFunction(module, b"f", fty), fty

    def orphans(self):
        """{kind: [(label, object)]}: LLVM objects whose owner was disposed."""

        def make():
            core = self.llvm()
            ctx = core.LLVMContextCreate()
            module = core.LLVMModuleCreateWithNameInContext(b"o", ctx)
            fn, fty = self.function_in(module, ctx)
            core.LLVMContextDispose(ctx)
            other = core.LLVMModuleCreateWithNameInContext(b"d", self.context())
            fn2, _ = self.function_in(other, self.context())
            core.LLVMDisposeModule(other)
            return {
                "LLVMOpaqueModule": [("a module of a disposed context", module)],
                "LLVMOpaqueValue": [
                    ("a function of a disposed context", fn),
                    ("a function of a disposed module", fn2),
                ],
                "LLVMOpaqueType": [("a type of a disposed context", fty)],
            }

        return self.memo("LLVM orphans", make) or {}

    # comgr --------------------------------------------------------------------------------------

    def comgr(self):
        return importlib.import_module("rocm.amd_comgr.amd_comgr")

    def comgr_data(self, kind="SOURCE", content=b"x" * 1000):
        cg = self.comgr()
        kind = getattr(cg.amd_comgr_data_kind_t, f"AMD_COMGR_DATA_KIND_{kind}")
        data = made(cg.amd_comgr_create_data(kind))
        cg.amd_comgr_set_data(data, len(content), content)
        cg.amd_comgr_set_data_name(data, b"n" * 100)
        return data

    def comgr_action_info(self):
        cg = self.comgr()
        info = made(cg.amd_comgr_create_action_info())
        cg.amd_comgr_action_info_set_isa_name(info, b"amdgcn-amd-amdhsa--gfx90a")
        cg.amd_comgr_action_info_set_working_directory_path(info, b"/" + b"w" * 100)
        cg.amd_comgr_action_info_set_option_list(info, [b"-O" * 50], 1)
        return info

    def comgr_metadata(self):
        from hip import hiprtc

        prog = self.programs()[0]
        size = hiprtc.hiprtcGetCodeSize(prog)[-1]
        code = bytearray(size)
        hiprtc.hiprtcGetCode(prog, code)
        return made(self.comgr().amd_comgr_get_data_metadata(self.comgr_data("EXECUTABLE", bytes(code))))

    # HSA ----------------------------------------------------------------------------------------

    def hsa_signal(self):
        """An HSA signal, where hsa_init works (it needs a GPU's driver)."""
        hsa = importlib.import_module("hip.hsa")
        status = hsa.hsa_init()
        if not status_ok(status):
            raise RuntimeError(f"hsa_init answers {status[0]!r}")
        return made(hsa.hsa_signal_create(1, 0, None))

    # Handles by kind -----------------------------------------------------------------------------

    def made_here(self):
        """{kind: make()}: the handles made by hand (the creators that take arguments)."""
        core = lambda name="core": self.llvm(name)  # noqa: E731
        cg = self.comgr
        return {
            "_hiprtcProgram": lambda: self.program(),
            "ihiprtcLinkState": lambda: made(
                importlib.import_module("hip.hiprtc").hiprtcLinkCreate(0, None, None)
            ),
            "LLVMOpaqueContext": lambda: core().LLVMContextCreate(),
            "LLVMOpaqueModule": lambda: core().LLVMModuleCreateWithNameInContext(b"m", self.context()),
            "LLVMOpaqueBuilder": lambda: core().LLVMCreateBuilderInContext(self.context()),
            "LLVMOpaqueMemoryBuffer": lambda: core().LLVMCreateMemoryBufferWithMemoryRangeCopy(
                b"abc", 3, b"b"
            ),
            "LLVMOpaquePassManager": lambda: core().LLVMCreatePassManager(),
            "LLVMOpaqueModuleProvider": lambda: core().LLVMCreateModuleProviderForExistingModule(
                core().LLVMModuleCreateWithNameInContext(b"p", self.context())
            ),
            "LLVMOpaqueType": self.i32,
            "LLVMOpaqueValue": lambda: core().LLVMConstInt(self.i32(), 7, 0),
            "LLVMOpaqueTargetData": lambda: core("target").LLVMCreateTargetData(b"e"),
            "LLVMOpaqueDIBuilder": lambda: core("debuginfo").LLVMCreateDIBuilder(
                core().LLVMModuleCreateWithNameInContext(b"g", self.context())
            ),
            "LLVMOpaqueMetadata": lambda: core("debuginfo").LLVMTemporaryMDNode(self.context(), None, 0),
            "LLVMOpaqueGenericValue": lambda: core("executionengine").LLVMCreateGenericValueOfInt(
                self.i32(), 1, 0
            ),
            "LLVMOpaqueTargetMachineOptions": lambda: core("targetmachine").LLVMCreateTargetMachineOptions(),
            "LLVMOpaquePassBuilderOptions": lambda: importlib.import_module(
                "rocm.llvm.c.transforms.passbuilder"
            ).LLVMCreatePassBuilderOptions(),
            "LLVMOpaqueOperandBundle": lambda: core().LLVMCreateOperandBundle(b"t", 1, None, 0),
            "amd_comgr_data_s": self.comgr_data,
            "amd_comgr_data_set_s": lambda: made(cg().amd_comgr_create_data_set()),
            "amd_comgr_action_info_s": self.comgr_action_info,
            "amd_comgr_metadata_node_s": self.comgr_metadata,
            "hsa_signal_s": self.hsa_signal,
        }

    def make(self, kind, lib):
        """A new handle of `kind` of library `lib` (by hand, else by a creating function
        without arguments), or None."""
        by_hand = self.made_here().get(kind)
        if by_hand is not None:
            return by_hand()
        library = self.library(lib)
        for module, name in library.creators(kind) if library else ():
            obj = made(self.function(module, name)())
            if obj is not None:
                return obj
        return None

    def live(self, kind, lib):
        """A live handle of `kind` (one per kind, kept for the child's life), or None."""
        if kind not in self._live:
            self._live[kind] = self.memo(("live", kind), lambda: self.make(kind, lib))
        return self._live[kind]

    def dead(self, kind, lib):
        """(handle, destroyer) of `kind`, destroyed through the bindings, or None."""
        if kind not in self._dead:
            self._dead[kind] = self.memo(
                ("dead", kind), lambda: self._destroy(kind, lib), ("dead", lib, kind)
            )
        return self._dead[kind]

    def _destroy(self, kind, lib):
        library = self.library(lib)
        destroyers = library.destroyers(kind) if library else []
        if not destroyers:
            return None
        obj = self.make(kind, lib)
        if obj is None:
            self.note("dead", lib, kind, "no way to make one here")
            return None
        for module, name in destroyers:
            by_ref = any(p["usage"] == "by_ref" for p in library.functions[name][1]["params"])
            if status_ok(self.function(module, name)(self.ref(obj) if by_ref else obj)):
                self.note("dead", lib, kind, "covered")
                return obj, name
        self.note("dead", lib, kind, "its destroyer fails here")
        return None

    def ref(self, obj):
        """What a destroyer taking its handle by reference is given: the handle (AMD's
        hip-python wants a pointer to it, `createRef()`)."""
        return obj.createRef() if self.anchor else obj

    def struct(self):
        """A struct of ours (hip.hip.hipDeviceProp_t)."""
        return self.memo("struct", lambda: importlib.import_module("hip.hip").hipDeviceProp_t())

    def foreign(self, kind):
        """(label, handle) of a kind of another library than `kind`'s."""
        if kind != "_hiprtcProgram":
            prog = self.live("_hiprtcProgram", "hiprtc")
            if prog is not None:
                return "a hiprtc program", prog
        info = self.live("csrsv2Info", "hipsparse")
        if info is not None and kind != "csrsv2Info":
            return "a hipSPARSE csrsv2Info", info
        if not self.anchor:
            module = self.memo("foreign LLVM module", lambda: self.llvm().LLVMModuleCreateWithName(b"x"))
            if module is not None and kind != "LLVMOpaqueModule":
                return "an LLVM module", module
        return None

    def sibling(self, kind, lib):
        """(label, handle) of another kind of the same library, where one can be made here."""
        library = self.library(lib)
        if library is None:
            return None
        if library.destroyed is None:
            # The kinds the library destroys (those it makes), in a fixed order.
            found = {
                library.kind(p)
                for _, f in library.functions.values()
                if f.get("destroys")
                for p in f["params"]
            }
            library.destroyed = sorted(found - {None})
        for other in library.destroyed:
            obj = self.live(other, lib) if other != kind else None
            if obj is not None:
                return f"a {other}", obj
        return None


def destroyed_handle(world):
    """A handle destroyed through the bindings (a hiprtc program, else an LLVM module)."""
    try:
        from hip import hiprtc

        status, prog = hiprtc.hiprtcCreateProgram(b"int x;", b"x.hip", 0, None, None)
        if prog is not None and hiprtc.hiprtcDestroyProgram(world.ref(prog))[0] == status:
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


# --- the probes ------------------------------------------------------------------------------------


class Target:
    """One function to probe: its Python callable, arity, IR (where known) and library."""

    def __init__(self, m, name, fir, lib):
        self.name, self.f, self.fir, self.lib = name, getattr(m, name), fir, lib
        self.n = arity(self.f) or 0
        self.pos = positions(fir, self.f) if fir is not None else None
        if self.pos is not None and any(i >= self.n for i in self.pos.values()):
            self.pos = None

    def params(self):
        """(IR parameter, Python position) of each parameter Python passes."""
        if self.pos is None:
            return []
        return [(p, self.pos[p["name"]]) for p in self.fir["params"] if p["name"] in self.pos]

    def fill(self, m, world=None, library=None):
        """Neutral arguments: 0, a default struct for a struct by value; with `world`, live
        handles where they can be made."""
        args = [0] * self.n
        for p, i in self.params():
            ty = p["ty"]
            if ty["kind"] == "record" and p["usage"] == "in":
                cls = getattr(m, ty.get("name") or "", None)
                cls = cls or getattr(m, p["spelling"].replace("const ", ""), None)
                if isinstance(cls, type):
                    try:
                        args[i] = cls()
                    except Exception:
                        pass
            if world is not None and library is not None:
                kind = library.kind(p)
                obj = world.live(kind, self.lib) if kind else None
                if obj is not None:
                    args[i] = obj
        return args


def at(args, i, value):
    out = list(args)
    out[i] = value
    return out


def types_probes(m, t, records):
    """object() and 2**1100 at each position, the typed IR probes, one argument too many."""
    base = t.fill(m)
    for i in range(t.n):
        yield f"object() at {i}", at(base, i, object())
        yield f"2**1100 at {i}", at(base, i, 2**1100)
    for p, i in t.params():
        ty = p["ty"]
        pointee = ty.get("pointee") if ty["kind"] == "pointer" else None
        if p["usage"] not in ("pointer", "by_ref") or pointee is None:
            continue
        if pointee["kind"] == "record" and getattr(m, pointee.get("name") or "", None) is not None:
            other = next((c for c in records if c.__name__ != pointee["name"]), None)
            if other is not None:
                yield f"a {other.__name__} for a {pointee['name']} * at {i}", at(base, i, other())
            yield f"a 1-byte buffer for a struct at {i}", at(base, i, bytearray(1))
        elif pointee["kind"] in SCALAR_SIZES and pointee.get("size", 0) > 1:
            yield f"a 1-byte buffer for a number at {i}", at(base, i, bytearray(1))
    yield "an extra argument", base + [0]


def foreign_dead_probes(m, t, dead):
    if dead is None:
        return
    base = t.fill(m)
    for p, i in t.params():
        if p["ty"]["kind"] in ("pointer", "handle", "record"):
            yield f"a destroyed handle at {i} ({p['name']})", at(base, i, dead)


def handle_probes(m, t, world, library):
    base = t.fill(m)
    for p, i in t.params():
        kind = library.kind(p)
        if kind is None:
            continue
        where = f"at {i} ({p['name']}: {kind})"
        struct = world.struct()
        if struct is not None:
            yield f"a {type(struct).__name__} {where}", at(base, i, struct)
        for other in (world.foreign(kind), world.sibling(kind, t.lib)):
            if other is not None:
                yield f"{other[0]} {where}", at(base, i, other[1])
        yield f"a 256-byte 0xAB buffer {where}", at(base, i, bytearray(GARBAGE))


def count_pairs(t):
    """{count parameter: [list parameters]}: the IR's `count` (the generator's rule and the
    spec's `counts`, written once there)."""
    by_name = {p["name"]: p for p in t.fir["params"]}
    out = {}
    for p in t.fir["params"]:
        count = p.get("count")
        if count in by_name:
            out.setdefault(count, []).append(p)
    return out


def element(p, world, lib):
    """One valid element of a list parameter."""
    if p["usage"] == "string_array":
        return b"-O1"
    pointee = p["ty"].get("pointee") or {}
    if pointee.get("kind") == "handle":
        return world.live(pointee.get("name"), lib)
    return 0


def count_probes(m, t, world, library):
    pairs = count_pairs(t)
    if not pairs:
        return
    base = t.fill(m, world, library)
    for count, lists in pairs.items():
        if count not in t.pos or any(q["name"] not in t.pos for q in lists):
            world.note("count", t.lib, f"{t.name}.{count}", "not a Python parameter")
            continue
        args = list(base)
        for q in lists:
            args[t.pos[q["name"]]] = [element(q, world, t.lib)]
        names = "/".join(q["name"] for q in lists)
        for n in (1000, -1):
            yield f"{names} of 1 element, {count}={n}", at(args, t.pos[count], n)
        if len(lists) > 1:
            for q in lists:
                yield f"{q['name']} empty, {count}=1", at(at(args, t.pos[count], 1), t.pos[q["name"]], [])


def sized_by(sized):
    """The IR's `sized_by` as {"param": name} or {"function": name} (it writes `name()` for a
    function)."""
    if isinstance(sized, str):
        return {"function": sized[:-2]} if sized.endswith("()") else {"param": sized}
    return sized


def sized_params(t):
    """[(buffer parameter, {"param"|"function": name})]: the IR's `sized_by` (the spec's
    `sizes`)."""
    out = []
    for p in t.fir["params"]:
        sized = sized_by(p.get("sized_by"))
        if sized is not None:
            out.append((p, sized))
    return out


def sizing_function(m, t, name, world):
    """The callable of a sizing function: in the module, else in the library's own module."""
    f = getattr(m, name, None)
    if f is None and world.library(t.lib) is not None:
        module = world.library(t.lib).functions.get(name, (None,))[0]
        f = getattr(importlib.import_module(module), name, None) if module else None
    return f


def sized_probes(m, t, world, library):
    buffers = sized_params(t)
    for p, sized in buffers:
        if p["name"] not in t.pos:
            continue
        out = t.pos[p["name"]]
        base = t.fill(m, world, library)
        for q, other in buffers:  # the other buffers of the same size: large enough
            if q is not p and other == sized and q["name"] in t.pos:
                base[t.pos[q["name"]]] = bytearray(4096)
        if "param" in sized:
            size = next((q for q in t.fir["params"] if q["name"] == sized["param"]), None)
            if size is None or size["name"] not in t.pos:
                continue
            ty = size["ty"]
            n = 1000
            if ty["kind"] == "pointer":
                width = (ty.get("pointee") or {}).get("size", 8)
                n = (ctypes.c_uint32 if width == 4 else ctypes.c_size_t)(1000)
            args = at(at(base, t.pos[size["name"]], n), out, bytearray(16))
            yield f"{p['name']} of 16 bytes, {size['name']}=1000", args
            continue
        sizer = sizing_function(m, t, sized["function"], world)
        if sizer is None:
            continue
        k = arity(sizer) or 0
        takes_program = any(library.kind(q) == "_hiprtcProgram" for q, _ in t.params())
        candidates = world.programs() if takes_program else [None]
        for obj in candidates:
            args = list(base)
            if obj is not None:
                for q, i in t.params():
                    if library.kind(q) == "_hiprtcProgram":
                        args[i] = obj
            try:
                answer = sizer(*args[:k])
            except Exception:
                continue
            size = answer[-1] if isinstance(answer, tuple) else answer
            if status_ok(answer) and isinstance(size, int) and size > 16:
                label = f"{p['name']} of 16 bytes, {sized['function']} says {size}"
                yield label, at(args, out, bytearray(16))
                break
        else:
            world.note("sized", t.lib, f"{t.name}.{p['name']}", "no object here has more than 16 bytes of it")


def dead_probes(m, t, world, library):
    base = t.fill(m)
    for p, i in t.params():
        kind = library.kind(p)
        dead = world.dead(kind, t.lib) if kind else None
        if dead is None:
            continue
        obj, destroyer = dead
        twice = " (destroyed twice)" if t.fir.get("destroys") else ""
        yield f"a {kind} destroyed by {destroyer} at {i} ({p['name']}){twice}", at(base, i, obj)


def lifetime_probes(m, t, world, library):
    if t.lib != "llvm":
        return
    base = t.fill(m)
    for p, i in t.params():
        for label, obj in world.orphans().get(library.kind(p) or "", []):
            yield f"{label} at {i} ({p['name']})", at(base, i, obj)


# --- the child ---------------------------------------------------------------------------------------


def module_targets(module, m, spec, world):
    """[Target] of a module: its generated functions (the IR's, with --ir-functions), each
    with its IR where the IR has it, and the module's structs for the types probes."""
    cuda = module.startswith("cuda.")
    fns, lib, records = {}, None, []
    if cuda:
        cuda_ir = load_ir(world.hip_release(), "cuda")
        same = set().union(*(set(a.get("same", [])) for a in cuda_ir["apis"])) if cuda_ir else set()
        for entry in cuda_ir["modules"] if cuda_ir else []:
            library = world.library(entry["module"])
            for n in entry["names"]:
                if n["kind"] == "function" and n["cuda"] in same and library is not None:
                    f = library.functions.get(n["hip"])
                    if f is not None:
                        fns[n["cuda"]] = (dict(f[1], name=n["cuda"], hip_name=n["hip"]), entry["module"])
    else:
        name = ir_name(module)
        release = world.release if world.anchor else getattr(m, "__rocm_release__", None)
        ir = load_ir(release, name) if name else None
        if ir is not None:
            lib = library_of(name)
            fns = {f["name"]: (f, lib) for f in ir["functions"]}
            records = [getattr(m, r["name"], None) for r in ir["records"]]
            records = [c for c in records if isinstance(c, type)][:2]
    if spec["ir_functions"]:
        names = sorted(n for n in fns if callable(getattr(m, n, None)))
    else:
        names = sorted(
            n
            for n in dir(m)
            if not n.startswith("__")
            and (
                type(getattr(m, n, None)).__name__ == "builtin_function_or_method"
                or (
                    cuda
                    and inspect.isfunction(getattr(m, n))
                    # cuda._nvrtc's are in driver and runtime too: probed once, in nvrtc.
                    and getattr(m, n).__module__
                    in (module, "cuda._nvrtc" if module.endswith("nvrtc") else module)
                )
            )
        )
    # cuda-python's stubs of CUDA-only functions answer "not supported" to any arguments
    # without calling anything.
    names = [n for n in names if getattr(getattr(m, n), "__code__", None) is None or not stub(getattr(m, n))]
    out = []
    for n in names:
        fir, flib = fns.get(n, (None, None))
        out.append(Target(m, n, fir, flib))
    return out, records


def stub(f):
    return f.__code__.co_name == "not_supported"


def module_probes(targets, records, m, spec, world):
    """(class, function, label, callable, args) of every probe of a module, class by class
    (the memory-unsafe classes last: a heap they corrupt, unrefused, harms no other class)."""
    if spec["mode"] == "none":
        for t in targets:
            yield NONE, t.name, "None everywhere", t.f, [None] * t.n
        return
    wanted = spec.get("classes") or CLASSES
    if "types" in wanted:
        for t in targets:
            for label, args in types_probes(m, t, records):
                yield 0, t.name, label, t.f, args
    if "foreign-dead" in wanted:
        dead = world.memo("foreign dead", lambda: destroyed_handle(world))
        for t in targets:
            for label, args in foreign_dead_probes(m, t, dead):
                yield 1, t.name, label, t.f, args
    classes = (handle_probes, count_probes, sized_probes, dead_probes, lifetime_probes)
    for ci, gen in enumerate(classes, start=2):
        if CLASSES[ci] not in wanted:
            continue
        for t in targets:
            library = world.library(t.lib) if t.lib else None
            if library is None or t.pos is None:
                continue
            for label, args in gen(m, t, world, library):
                yield ci, t.name, label, t.f, args


def anchor_libraries():
    """AMD's modules dlopen unversioned names (libhiprtc.so) that only development packages
    install: each is pointed at the first versioned soname that loads (ROCm 5 keeps hiprtc in
    libamdhip64)."""
    for c in (f"c{n}" for n in anchor_modules()):
        try:
            mod = importlib.import_module(f"hip.{c}")
        except ImportError:
            continue
        dll = mod.DLL
        # Newest first: under another root's loader (tools/fuzz_anchor.py) the host's
        # libraries come after that root's.
        candidates = [dll + f".{v}".encode() for v in (7, 6, 5, 4, 3, 2, 1, 0)] + [dll]
        if c == "chiprtc":
            candidates += [ROCM5_HIPRTC.encode()]
        for cand in candidates:
            try:
                lib = ctypes.CDLL(cand.decode())
            except OSError:
                continue
            if c != "chiprtc" or hasattr(lib, "hiprtcCreateProgram"):
                mod.DLL = cand
                break


def child(spec, start_module, start_probe, mm_path):
    """Runs the probes of spec's modules from (start_module, start_probe), keeping its position
    and counts in the shared file `mm_path` (a crash loses neither) and printing each accepted
    probe and note as a JSON line."""
    sys.stdout.reconfigure(line_buffering=True)
    with open(mm_path, "r+b") as fh:
        mm = mmap.mmap(fh.fileno(), 0)
    pos = memoryview(mm)[:20].cast("i")
    counts = memoryview(mm)[HEADER:].cast("q")
    width = len(CLASSES) * 3
    if spec["anchor"]:
        anchor_libraries()
    world = World(spec["anchor"], spec["release"])
    log = spec.get("log")
    for mi in range(start_module, len(spec["modules"])):
        module = spec["modules"][mi]
        pos[0], pos[1], pos[2], pos[4] = mi, -1, -1, 0
        try:
            m = importlib.import_module(module)
            targets, records = module_targets(module, m, spec, world)
            gen = module_probes(targets, records, m, spec, world)
        except Exception as e:
            print(json.dumps({"error": mi, "text": f"{module}: not importable ({e})"}))
            continue
        cuda = module.startswith("cuda.")
        first = start_probe if mi == start_module else 0
        k = 0
        while True:
            pos[1], pos[2], pos[4] = k, -1, 0  # making probe k: a crash here is its setup's
            try:
                ci, name, label, f, args = next(gen)
            except StopIteration:
                break
            except Exception as e:
                text = f"{module}: making probe {k}: {type(e).__name__}: {e}"
                print(json.dumps({"error": mi, "text": text}))
                break
            if k >= first:
                text = f"{name}: {label}".encode()[:LABEL_MAX]
                mm[20 : 20 + len(text)] = text
                pos[2], pos[3], pos[4] = ci, len(text), CALLING
                base = mi * width + ci * 3
                counts[base] += 1
                verdict = None
                try:
                    result = f(*args)
                except (TypeError, ValueError, OverflowError):
                    counts[base + 1] += 1  # refused while converting, before C
                    pos[4] = REFUSED
                except BaseException as e:
                    # Converted, then failed elsewhere (a library that does not load): the
                    # argument would have reached C.
                    verdict = type(e).__name__
                else:
                    if cuda and _not_supported(result):
                        counts[base + 1] += 1  # a CUDA-only input: answered, C not called
                        pos[4] = REFUSED
                    else:
                        verdict = ""
                if verdict is not None:
                    counts[base + 2] += 1
                    pos[4] = ACCEPTED
                    if ci != NONE:  # None is a NULL pointer or 0: C may well take it
                        print(json.dumps({"accepted": [mi, ci, name, label, verdict]}))
                elif log:
                    print(json.dumps({"refused": [mi, ci, name, label]}))
            k += 1
        print(json.dumps({"module": mi, "functions": len(targets)}))
        for text in world.notes:
            print(json.dumps({"note": text}))
        world.notes.clear()


# --- the parent ----------------------------------------------------------------------------------------


def watch(cmd, env, position):
    """Runs a child to its end, or kills it once its position (the file `position`) has not
    moved for HANG_S seconds (a call that never returns, or one looping without end):
    (returncode or "hung", stdout, stderr)."""
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    seen, since = None, time.monotonic()
    while True:
        try:
            stdout, stderr = proc.communicate(timeout=0.5)
            return proc.returncode, stdout, stderr
        except subprocess.TimeoutExpired:
            now = Path(position).read_bytes()[:20]
            if now != seen:
                seen, since = now, time.monotonic()
            elif time.monotonic() - since > HANG_S:
                proc.kill()
                stdout, stderr = proc.communicate()
                return "hung", stdout, stderr


def run_job(job, spec):
    """Runs one job's modules in child processes, restarting after each crash: its counts
    ({module: [[calls, refused, accepted, crashes] per class]}), findings, notes and functions."""
    modules = job["modules"]
    width = len(CLASSES) * 3
    size = HEADER + len(modules) * width * 8
    counts = {m: [[0, 0, 0, 0] for _ in CLASSES] for m in modules}
    functions, findings, notes, refused = {}, [], [], []
    spec = dict(spec, modules=modules)
    start, last = (0, 0), None
    env = dict(os.environ, **job["env"])
    began, children = time.monotonic(), 0
    while start[0] < len(modules):
        children += 1
        with tempfile.NamedTemporaryFile(prefix="fuzz-") as fh:
            fh.write(b"\0" * size)
            fh.flush()
            loader = json.loads(os.environ.get("HIPGEN_FUZZ_LOADER") or "[]")
            cmd = [*loader, sys.executable, __file__, "--child", json.dumps(spec), *map(str, start), fh.name]
            rc, stdout, stderr = watch(cmd, env, fh.name)
            data = Path(fh.name).read_bytes()
        mi, k, ci, n, state = (
            int.from_bytes(data[i : i + 4], "little", signed=True) for i in range(0, 20, 4)
        )
        label = data[20 : 20 + max(n, 0)].decode(errors="replace")
        for j, module in enumerate(modules):
            for c in range(len(CLASSES)):
                for v in range(3):
                    off = HEADER + (j * width + c * 3 + v) * 8
                    counts[module][c][v] += int.from_bytes(data[off : off + 8], "little", signed=True)
        for line in stdout.splitlines():
            try:
                rec = json.loads(line)
            except ValueError:
                continue  # a C library's own output
            if not isinstance(rec, dict):
                continue
            if "refused" in rec:
                j, c, name, lab = rec["refused"]
                refused.append({"module": modules[j], "class": CLASSES[c], "function": name, "probe": lab})
            elif "accepted" in rec:
                j, c, name, lab, why = rec["accepted"]
                detail = f" ({why})" if why else ""
                findings.append(finding(job, modules[j], c, name, lab, "accepted" + detail))
            elif "module" in rec:
                functions[modules[rec["module"]]] = rec["functions"]
            elif "note" in rec:
                notes.append(rec["note"])
            elif "error" in rec:
                findings.append(finding(job, modules[rec["error"]], None, "", rec["text"], "tool error"))
        if rc == 0:
            break
        module = modules[mi]
        why = f"hung (no progress in {HANG_S} s)" if rc == "hung" else f"process died (status {rc})"
        if k < 0 or ci < 0:
            what = "importing the module" if k < 0 else f"making probe {k} (after {label})"
            if (mi, k) != last:
                findings.append(finding(job, module, None, "", what, why))
        else:
            name, _, lab = label.partition(": ")
            if state in (REFUSED, ACCEPTED):
                # It returned, then what it did to memory killed the process before the next
                # probe began: a crash, not an accepted call (nor a refused one).
                last_found = findings[-1] if findings else {}
                if state == ACCEPTED and (last_found.get("function"), last_found.get("probe")) == (name, lab):
                    findings.pop()  # its line got out before the end
                why = f"{'accepted' if state == ACCEPTED else 'refused'}, then {why}"
                counts[module][ci][2 if state == ACCEPTED else 1] -= 1
            counts[module][ci][3] += 1
            findings.append(finding(job, module, ci, name, lab, why))
        start = (mi + 1, 0) if k < 0 or (mi, k) == last else (mi, k + 1)
        last = (mi, k)
    job["seconds"], job["children"] = round(time.monotonic() - began, 1), children
    job["refused"] = refused
    return counts, findings, notes, functions


def finding(job, module, ci, name, label, outcome):
    cls = CLASSES[ci] if ci is not None else "setup"
    reason = next(
        (
            why
            for (c, fn, lab), why in ALLOWED.items()
            if c == cls and re.search(fn, f"{module}.{name}") and re.search(lab, label)
        ),
        None,
    )
    return {
        "job": job["name"],
        "class": cls,
        "module": module,
        "function": name,
        "probe": label,
        "outcome": outcome,
        "allowed": reason,
    }


def main(argv):
    if argv[:1] == ["--child"]:
        child(json.loads(argv[1]), int(argv[2]), int(argv[3]), argv[4])
        return 0
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("modules", nargs="*")
    parser.add_argument("--none", action="store_true", help="None for every parameter (C runs)")
    parser.add_argument("--json", help="write the per-class counts and the findings to FILE")
    parser.add_argument("--release", help="only this release's bindings (HIP_PYTHON_ROCM_RELEASE)")
    parser.add_argument("--anchor", action="store_true", help="AMD's hip-python, with the IR of --release")
    parser.add_argument("--ir-functions", action="store_true", help="only the functions the IR names")
    parser.add_argument("--jobs", type=int, default=min(os.cpu_count() or 1, 4))
    parser.add_argument("--log-probes", action="store_true", help="--json lists the refused probes too")
    parser.add_argument("--classes", help="only these probe classes (comma-separated)")
    args = parser.parse_args(argv)
    if args.anchor:
        args.release = args.release or "6.4.3"
    spec = {
        "mode": "none" if args.none else "probe",
        "anchor": args.anchor,
        "release": args.release,
        "ir_functions": args.ir_functions or args.anchor,
        "log": args.log_probes,
        "classes": args.classes.split(",") if args.classes else None,
    }
    began = time.monotonic()
    jobs = plan(args)
    with ThreadPoolExecutor(max(1, args.jobs)) as pool:
        results = list(pool.map(lambda j: run_job(j, spec), jobs))
    findings, notes, totals, probed, calls = [], [], [[0, 0, 0, 0] for _ in CLASSES], 0, 0
    modules = []
    for job, (counts, found, noted, functions) in zip(jobs, results, strict=True):
        print(f"{job['name']}: {job['seconds']} s in {job['children']} child process(es)")
        findings += found
        notes += noted
        for module in job["modules"]:
            c = counts[module]
            n = sum(x[0] for x in c)
            bad = sum(1 for f in found if f["module"] == module and not f["allowed"])
            print(f"{job['name']}: {module}: {functions.get(module, 0)} functions, {n} calls, {bad} findings")
            done = functions.get(module, 0)
            modules.append({"job": job["name"], "module": module, "functions": done, "calls": n})
            probed += done
            calls += n
            for ci in range(len(CLASSES)):
                totals[ci] = [a + b for a, b in zip(totals[ci], c[ci], strict=True)]
    bad = [f for f in findings if not f["allowed"]]
    allowed = [f for f in findings if f["allowed"]]
    uncovered, covered = {}, {}
    for topic, lib, subject, reason in notes:
        if reason == "covered":
            covered.setdefault(lib, set()).add(subject)
        else:
            uncovered.setdefault((topic, lib, reason), set()).add(subject)
    if covered:
        print("dead: made and destroyed here:")
        for lib, kinds in sorted(covered.items()):
            print(f"  {lib}: {', '.join(sorted(kinds))}")
    if uncovered:
        print("not covered here:")
        for (topic, lib, reason), subjects in sorted(uncovered.items()):
            print(f"  {topic}: {lib}: {', '.join(sorted(subjects))} ({reason})")
    for title, group in (("findings", bad), ("allowed (not failures)", allowed)):
        if group:
            print(f"{title}:")
            for f in group:
                extra = f" [{f['allowed']}]" if f["allowed"] else ""
                where = f"{f['job']}: {f['module']}.{f['function']}"
                print(f"  [{f['class']}] {where}: {f['probe']}: {f['outcome']}{extra}")
    classes = {}
    print(f"{'class':<14}{'calls':>9}{'refused':>9}{'crashes':>9}{'accepted':>10}")
    for ci, name in enumerate(CLASSES):
        calls_, refused, accepted, crashes = totals[ci]
        if (name == "none") != args.none or (spec["classes"] and name not in spec["classes"]):
            continue
        classes[name] = {"calls": calls_, "refused": refused, "crashes": crashes, "accepted": accepted}
        print(f"{name:<14}{calls_:>9}{refused:>9}{crashes:>9}{accepted:>10}")
    elapsed = time.monotonic() - began
    if args.json:
        Path(args.json).write_text(
            json.dumps(
                {
                    "mode": spec["mode"],
                    "anchor": args.anchor,
                    "release": args.release,
                    "seconds": round(elapsed, 1),
                    "functions": probed,
                    "calls": calls,
                    "classes": classes,
                    "modules": modules,
                    "dead_covered": {lib: sorted(kinds) for lib, kinds in sorted(covered.items())},
                    "not_covered": [
                        {"class": t, "library": lib, "subjects": sorted(subjects), "reason": why}
                        for (t, lib, why), subjects in sorted(uncovered.items())
                    ],
                    "findings": findings,
                    "refused": [r for job in jobs for r in job["refused"]] if args.log_probes else None,
                },
                indent=1,
            )
        )
    found = f"{len(bad)} findings ({len(allowed)} allowed)"
    print(f"{probed} functions probed, {calls} calls, {found}, {elapsed:.1f} s")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
