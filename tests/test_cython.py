"""The C level for Cython (`hip.chip`, `hip.chiprtc`, ...: the `.pxd` files the wheel carries):
an extension that cimports every one of them compiles with no ROCm header on its include path,
every record has the size and field offsets of the IR (what the C compiler gave ROCm's
headers), and its calls answer as the Python bindings do on the real libraries, a library
that is not installed included (its error status, never a crash)."""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import BINDINGS, REPO, load_ir

pytest.importorskip("Cython")
hip_pkg = pytest.importorskip("hip")


SETUP = """
from Cython.Build import cythonize
from setuptools import Extension, setup

setup(
    ext_modules=cythonize(
        [Extension({name!r}, [{name!r} + ".pyx"], include_dirs={include_dirs!r})],
        include_path=[{include!r}],
        compiler_directives={{"language_level": 3}},
    ),
    script_args=["build_ext", "--inplace", "-q"],
)
"""


def build(tmp, name, include, include_dirs=(), env=None):
    """Builds Cython extension `name` from `tmp/name.pyx` in `tmp`, with only `include` (a
    package's `get_include()`) on Cython's include path and `include_dirs` on C's."""
    setup = SETUP.format(name=name, include=str(include), include_dirs=[str(d) for d in include_dirs])
    (tmp / "setup.py").write_text(setup)
    out = subprocess.run([sys.executable, "setup.py"], cwd=tmp, capture_output=True, text=True, env=env)
    assert out.returncode == 0, (out.stdout + out.stderr)[-6000:]


def child(tmp, code, env=None):
    """Python `code` run in `tmp` (where the extensions were built), in a process of its own."""
    run = subprocess.run([sys.executable, "-c", code], cwd=tmp, capture_output=True, text=True, env=env)
    assert run.returncode == 0, run.stderr[-3000:]
    return run


def pxd_modules():
    """(pxd module, library) of every C level the installed package carries."""
    root = Path(hip_pkg.get_include()) / "hip"
    out = []
    for pxd in sorted(root.glob("c*.pxd")):
        lib = pxd.stem[1:]
        if (root / f"{lib}.pyi").exists():
            out.append((f"hip.{pxd.stem}", lib))
    return out


def unnamed(name):
    head, _, digits = name.partition("_")
    return head in ("union", "struct") and digits.isdigit()


def field_offsets(record, records, base=0):
    """(C name, byte offset) of each addressable field, an unnamed member's as the parent's."""
    for f in record["fields"]:
        if f.get("bit_width") is not None:
            continue
        at = base + f["offset_bits"] // 8
        ty = f["ty"]
        inner = records.get(ty.get("name")) if ty.get("kind") == "record" else None
        if inner is not None and inner.get("anonymous") and unnamed(f["name"]):
            yield from field_offsets(inner, records, at)
        else:
            yield f["name"], at


def layout_source(modules, bindings=BINDINGS):
    """A Cython function returning {record: [size, {field: offset}]} of every record (of the
    IR in `bindings`)."""
    lines = ["def layouts():", "    out = {}"]
    expected = {}
    for pxd, lib in modules:
        alias = pxd.split(".")[-1]
        records = {r["name"]: r for r in load_ir(lib, bindings)["records"]}
        for r in records.values():
            if r.get("anonymous"):
                continue
            name = r["name"]
            fields = dict(field_offsets(r, records))
            expected[name] = [r["size"], fields]
            lines.append(f"    p_{name} = <{alias}.{name} *>NULL")
            offsets = ", ".join(f"{k!r}: <size_t>&p_{name}.{k}" for k in fields)
            lines.append(f"    out[{name!r}] = [sizeof({alias}.{name}), {{{offsets}}}]")
    lines.append("    return out")
    return "\n".join(lines) + "\n", expected


CALLS = """
from libc.stddef cimport size_t

def device_count():
    cdef int n = -7
    cdef chip.hipError_t e = chip.hipGetDeviceCount(&n)
    return <int>e, n

def error_string(int e):
    return chip.hipGetErrorString(<chip.hipError_t>e)

def rtc_version():
    cdef int major = -1, minor = -1
    cdef int e = chiprtc.hiprtcVersion(&major, &minor)
    return e, major, minor

def blas_create():
    cdef chipblas.hipblasHandle_t handle = NULL
    return <int>chipblas.hipblasCreate(&handle)
"""


@pytest.fixture(scope="module")
def extension(tmp_path_factory):
    """Builds the extension (no include path but the package's) and imports it in a child."""
    modules = pxd_modules()
    assert {"hip.chip", "hip.chiprtc"} <= {m for m, _ in modules}
    tmp = tmp_path_factory.mktemp("cython")
    layout, expected = layout_source(modules)
    cimports = "".join(f"from hip cimport {m.split('.')[-1]}\n" for m, _ in modules)
    (tmp / "hipgen_cy.pyx").write_text(cimports + CALLS + layout)
    build(tmp, "hipgen_cy", hip_pkg.get_include())
    return tmp, expected


def ask(tmp, expr):
    """`expr` evaluated with the extension imported, in a child (its stderr kept apart)."""
    out = child(tmp, f"import json, hipgen_cy\nprint(json.dumps({expr}))")
    return json.loads(out.stdout.strip().splitlines()[-1]), out.stderr


def test_every_record_is_laid_out_as_the_ir_says(extension):
    tmp, expected = extension
    got, _ = ask(tmp, "hipgen_cy.layouts()")
    assert set(got) == set(expected)
    wrong = {n: (got[n], e) for n, e in expected.items() if got[n] != e}
    assert not wrong, list(wrong.items())[:5]
    assert len(expected) > 100


def test_calls_answer_as_the_python_bindings_do(extension):
    from hip import hip, hiprtc

    tmp, _ = extension
    (status, count), _ = ask(tmp, "hipgen_cy.device_count()")
    py_status, py_count = hip.hipGetDeviceCount()
    assert status == int(py_status) and count == py_count
    text, _ = ask(tmp, "hipgen_cy.error_string(1).decode()")
    # hip-python gives (hipSuccess, text) for a function returning a plain value.
    assert text == hip.hipGetErrorString(hip.hipError_t(1))[-1].decode()
    got, _ = ask(tmp, "hipgen_cy.rtc_version()")
    assert got == [int(x) for x in hiprtc.hiprtcVersion()]


def test_a_library_that_is_not_here_is_its_error_status(extension):
    from hip import hipblas

    tmp, _ = extension
    try:
        expected = int(hipblas.hipblasCreate()[0])
        missing = False
    except hip_pkg.HipLoadError:
        expected = int(hipblas.hipblasStatus_t.HIPBLAS_STATUS_NOT_INITIALIZED)
        missing = True
    status, stderr = ask(tmp, "hipgen_cy.blas_create()")
    assert status == expected
    if missing:
        # What the Python bindings raise, reported where C cannot raise it.
        assert "could not load library 'hipblas'" in stderr


CUDA_PROGRAM = """
# As hip-python's and cuda-python's own code cimports them (`cuda` is a namespace package).
cimport cuda.ccudart as ccudart
cimport cuda.ccuda as ccuda
cimport cuda.cnvrtc as cnvrtc
cimport cuda.bindings.cyruntime as cyruntime
cimport cuda.bindings.cydriver as cydriver
cimport cuda.bindings.cynvrtc as cynvrtc

def stream_round_trip():
    # What hip-python's examples/1_CUDA_Interop/ccuda_stream.pyx does, status by status.
    cdef ccudart.cudaStream_t stream = NULL
    cdef void *x_d = NULL
    cdef char x_h[400]
    statuses = [<int>ccudart.cudaStreamCreate(&stream)]
    statuses.append(<int>ccudart.cudaMalloc(&x_d, 400))
    statuses.append(<int>ccudart.cudaMemcpyAsync(x_d, x_h, 400, ccudart.cudaMemcpyHostToDevice, stream))
    statuses.append(<int>cyruntime.cudaStreamSynchronize(stream))
    return statuses, <int>ccudart.cudaSuccess

def driver_count():
    cdef int n = -1
    return <int>ccuda.cuDeviceGetCount(&n), <int>cydriver.CUDA_SUCCESS

def nvrtc_version():
    cdef int major = -1, minor = -1
    return <int>cnvrtc.nvrtcVersion(&major, &minor), major, minor, <int>cynvrtc.NVRTC_SUCCESS
"""


def test_cuda_names_run_hip_at_the_c_level(tmp_path):
    """hip-python-as-cuda's C levels (`cuda.ccudart`, `cuda.bindings.cyruntime`, ...): CUDA
    names standing for the HIP objects, answering as the Python CUDA names do."""
    pytest.importorskip("cuda.bindings.runtime")
    from cuda.bindings import driver, nvrtc, runtime

    (tmp_path / "hipgen_cuda_cy.pyx").write_text(CUDA_PROGRAM)
    build(tmp_path, "hipgen_cuda_cy", hip_pkg.get_include())
    code = (
        "import json, hipgen_cuda_cy as m\n"
        "print(json.dumps([m.stream_round_trip(), m.driver_count(), m.nvrtc_version()]))"
    )
    run = child(tmp_path, code)
    (statuses, success), (count_status, cu_success), version = json.loads(run.stdout.splitlines()[-1])
    assert success == int(runtime.cudaError_t.cudaSuccess) and cu_success == 0
    err, _stream = runtime.cudaStreamCreate()
    assert statuses[0] == int(err)
    assert count_status == int(driver.cuDeviceGetCount()[0])
    assert version == [int(x) for x in nvrtc.nvrtcVersion()] + [0]


NVRTC_CUBIN_PROGRAM = """
cimport cuda.bindings.cynvrtc as cynvrtc
from libc.stdlib cimport malloc, free

def cubin(bytes source, bytes arch):
    # NVRTC's C calls as a Cython program makes them: the program's CUBIN, the GPU's code.
    cdef cynvrtc.nvrtcProgram prog
    cdef const char *options[1]
    cdef size_t size = 0
    options[0] = arch
    statuses = [<int>cynvrtc.nvrtcCreateProgram(&prog, source, b"k.cu", 0, NULL, NULL)]
    statuses.append(<int>cynvrtc.nvrtcCompileProgram(prog, 1, options))
    statuses.append(<int>cynvrtc.nvrtcGetCUBINSize(prog, &size))
    cdef char *data = <char *>malloc(size)
    statuses.append(<int>cynvrtc.nvrtcGetCUBIN(prog, data))
    code = data[:size]
    free(data)
    cynvrtc.nvrtcDestroyProgram(&prog)
    return statuses, code
"""


def test_nvrtc_cubin_is_the_gpus_code_at_the_c_level(tmp_path):
    """`nvrtcGetCUBIN` at the C level gives what the Python level gives: the code object
    (ELF), not LLVM bitcode (loaded with cuModuleLoadData on a GPU: tests/test_gpu.py)."""
    pytest.importorskip("cuda.bindings.nvrtc")
    (tmp_path / "hipgen_cubin_cy.pyx").write_text(NVRTC_CUBIN_PROGRAM)
    build(tmp_path, "hipgen_cubin_cy", hip_pkg.get_include())
    code = (
        "import hipgen_cubin_cy as m\n"
        "statuses, code = m.cubin(b'extern \"C\" __global__ void k(float* x) { x[0] = 1; }', "
        "b'--offload-arch=gfx90a')\n"
        "print(statuses, code[:4])"
    )
    run = child(tmp_path, code)
    assert run.stdout.strip().splitlines()[-1] == "[0, 0, 0, 0] b'\\x7fELF'"


def test_every_c_level_cuda_name_is_the_python_levels_hip_function():
    """The `.pxd` files' `#define <CUDA name> <HIP name>` of each function are the plan's
    choice for the Python level: one decision for both levels."""
    pytest.importorskip("cuda.bindings.driver")
    from cuda import _plan

    targets = {}
    for hip_module in ("hip", "hiprtc"):
        for cuda_name, (_, hip_name, kind) in _plan.names(hip_module).items():
            if kind == "function":
                targets.setdefault(cuda_name, hip_name)
    # Where the Python level adapts a call, the HIP function its adapter calls.
    targets.update({name: a["hip"] for name, a in _plan.tables().adapted.items() if a.get("hip")})
    checked = 0
    # The C level Cython programs compile against: the chosen release's, as the plan is.
    for pxd in sorted((Path(hip_pkg.get_include()) / "cuda" / "bindings").glob("cy*.pxd")):
        text = pxd.read_text()
        for line in text.splitlines():
            parts = line.split()
            if len(parts) != 3 or parts[0] != "#define" or parts[1] not in targets:
                continue
            target = parts[2]
            if target == f"hipgen_{parts[1]}":
                # A trampoline adapting the arguments: the HIP function it returns.
                body = re.search(rf"{target}\([^)]*\) {{(.*)}}", text).group(1)
                target = re.findall(r"return (\w+)\(", body)[-1]
            assert target == targets[parts[1]], (pxd.name, line)
            checked += 1
    assert checked > 500


CUDA_CPP_PROGRAM = '''
# distutils: language = c++
from libc.string cimport memcmp
cimport cuda.bindings.cydriver as ccuda
cimport cuda.bindings.cyruntime as ccudart
from cuda.bindings.cyruntime cimport dim3, CUuuid, cudaUUID_t, cudaMemAllocationHandleType

cdef extern from *:
    """
    #include <cuda_runtime_api.h>
    static dim3 hipgen_grow(dim3 d) { return dim3(d.x + 1, d.y + 1, d.z + 1); }
    static int hipgen_kind(cudaMemAllocationHandleType t) { return (int)t; }
    static int hipgen_same(CUuuid a, cudaUUID_t b) { return memcmp(&a, &b, sizeof(CUuuid)); }
    """
    dim3 hipgen_grow(dim3 d)
    int hipgen_kind(cudaMemAllocationHandleType t)
    int hipgen_same(CUuuid a, cudaUUID_t b)

def scoped():
    return (<int>ccudart.cudaMemcpyKind.cudaMemcpyHostToDevice,
            hipgen_kind(cudaMemAllocationHandleType.cudaMemHandleTypeNone))

def grown():
    cdef dim3 d
    d.x, d.y, d.z = 1, 2, 3
    d = hipgen_grow(d)
    return d.x, d.y, d.z

def uuids_compare():
    cdef CUuuid a
    cdef cudaUUID_t b
    for i in range(16):
        a.bytes[i] = i
        b.bytes[i] = i
    return hipgen_same(a, b)

def ctx_create():
    cdef ccuda.CUcontext ctx
    cdef ccuda.CUdevice dev = 0
    cdef int params = 0
    return (<int>ccuda.cuCtxCreate(&ctx, NULL, 0, dev), <int>ccuda.cuCtxCreate(&ctx, &params, 0, dev),
            <int>ccuda.CUDA_ERROR_NOT_SUPPORTED)

def instantiate():
    cdef ccuda.CUgraph g
    cdef ccuda.CUgraphExec e
    err = ccuda.cuGraphCreate(&g, 0)
    if err != ccuda.CUDA_SUCCESS:
        return <int>err, None
    return <int>err, <int>ccuda.cuGraphInstantiate(&e, g, 0)
'''


HIP_10_0_PROGRAM = """
from rocm.bindings cimport cyhip, cyhiprtc
from hip cimport chip

def device_count():
    cdef int n = -1
    return <int>cyhip.hipGetDeviceCount(&n), n, <int>chip.hipSuccess

def rtc_version():
    cdef int major = -1, minor = -1
    return <int>cyhiprtc.hiprtcVersion(&major, &minor), major, minor
"""


def test_c_levels_under_amd_10_0_names(tmp_path):
    """AMD's rocm-bindings 10.0 names the C levels `rocm.bindings.cyhip`,
    `rocm.bindings.cyhiprtc`, ... (tools/layout.py writes them beside the 10.0 module names):
    the same declarations, answering as the Python bindings do."""
    from hip import hip, hiprtc

    (tmp_path / "hipgen_ten.pyx").write_text(HIP_10_0_PROGRAM)
    build(tmp_path, "hipgen_ten", hip_pkg.get_include())
    code = "import json, hipgen_ten as m\nprint(json.dumps([m.device_count(), m.rtc_version()]))"
    run = child(tmp_path, code)
    (status, count, success), rtc = json.loads(run.stdout.splitlines()[-1])
    err, py_count = hip.hipGetDeviceCount()
    assert status == int(err) and (count == py_count or status != success)
    assert rtc == [int(x) for x in hiprtc.hiprtcVersion()]


def test_cuda_python_c_signatures_in_cpp(tmp_path):
    """What cuda-python's own Cython tests (`cuda_bindings/tests/cython`) rely on, compiled as
    C++: CUDA 13's C signatures (`cuCtxCreate` with its parameters pointer, which must be NULL
    here; `cuGraphInstantiate` with flags), enum members through their enum
    (`cudaMemcpyKind.cudaMemcpyHostToDevice`), typed enum parameters, `CUuuid` beside
    `cudaUUID_t`, `dim3`'s C++ constructor, and CUDA's `cuda_runtime_api.h` included after the
    `.pxd` (its guard is the `.pxd`'s, so it adds nothing)."""
    pytest.importorskip("cuda.bindings.runtime")
    from cuda.bindings import driver

    cuda_include = Path(__file__).resolve().parents[1] / ".cuda" / "13" / "nvidia" / "cu13" / "include"
    if not (cuda_include / "cuda_runtime_api.h").exists():
        pytest.skip(f"no CUDA headers at {cuda_include} (tools/setup.sh unpacks them)")
    (tmp_path / "hipgen_cuda_cpp.pyx").write_text(CUDA_CPP_PROGRAM)
    build(tmp_path, "hipgen_cuda_cpp", hip_pkg.get_include(), include_dirs=[str(cuda_include)])
    code = (
        "import json, hipgen_cuda_cpp as m\n"
        "print(json.dumps([m.scoped(), m.grown(), m.uuids_compare(), m.ctx_create(), m.instantiate()]))"
    )
    run = child(tmp_path, code)
    scoped, grown, same, ctx, (created, instantiated) = json.loads(run.stdout.splitlines()[-1])
    assert scoped == [
        int(hip_pkg.hip.hipMemcpyKind.hipMemcpyHostToDevice),
        int(hip_pkg.hip.hipMemAllocationHandleType.hipMemHandleTypeNone),
    ]
    assert grown == [2, 3, 4] and same == 0
    # NULL parameters: HIP's hipCtxCreate answers, as the Python name does; others are refused.
    assert ctx[0] == int(driver.cuCtxCreate(None, 0, 0)[0])
    assert ctx[1] == ctx[2] == int(driver.CUresult.CUDA_ERROR_NOT_SUPPORTED)
    err, graph = driver.cuGraphCreate(0)
    assert created == int(err)
    if int(err) == 0:
        assert instantiated == int(driver.cuGraphInstantiate(graph, 0)[0])


ROCM_LLVM_PROGRAM = """
from libc.stdint cimport uint32_t
{cimports}
from rocm.llvm.c cimport ccore
from rocm.amd_comgr cimport camd_comgr
from rocm.bindings.llvm.c cimport cycore
from rocm.bindings cimport cyamd_comgr

def llvm_version():
    cdef unsigned int major = 0, minor = 0, patch = 0
    ccore.LLVMGetVersion(&major, &minor, &patch)
    return major, minor, patch

def module_name(bytes name):
    cdef ccore.LLVMContextRef ctx = ccore.LLVMContextCreate()
    cdef ccore.LLVMModuleRef m = ccore.LLVMModuleCreateWithNameInContext(name, ctx)
    cdef size_t n = 0
    cdef const char *got = ccore.LLVMGetModuleIdentifier(m, &n)
    out = got[:n]
    ccore.LLVMDisposeModule(m)
    ccore.LLVMContextDispose(ctx)
    return out

def comgr_version():
    cdef size_t major = 0, minor = 0
    camd_comgr.amd_comgr_get_version(&major, &minor)
    return major, minor

def under_10_0_names():
    # AMD 10.0's names of the same C levels.
    cdef unsigned int major = 0, minor = 0, patch = 0
    cdef size_t cmajor = 0, cminor = 0
    cycore.LLVMGetVersion(&major, &minor, &patch)
    cyamd_comgr.amd_comgr_get_version(&cmajor, &cminor)
    return major, minor, patch, cmajor, cminor
"""


def test_rocm_llvm_c_level(tmp_path):
    """rocm-llvm-python's C levels (`rocm.amd_comgr.camd_comgr`, `rocm.llvm.c.c<module>`),
    all cimported by one extension with only `rocm.llvm.get_include()` on its include path:
    LLVM's and comgr's answers as the Python bindings give them (the real libraries here)."""
    rocm_llvm = pytest.importorskip("rocm.llvm")
    import rocm._native
    from rocm.amd_comgr import amd_comgr
    from rocm.llvm.c import core

    root = Path(rocm_llvm.get_include())
    # The bindings the installed package was built from (tools/test.sh builds one for the
    # comgr that runs here, from target/bindings), whose IR laid out its `.pxd`s.
    release = rocm._native.ROCM_RELEASE
    bindings = next(
        d
        for d in (REPO / "bindings" / f"rocm-{release}", REPO / "target" / "bindings" / f"rocm-{release}")
        if (d / "manifest.json").exists()
    )
    # pxd module (`rocm.llvm.c.ccore`) → its library's IR (`llvm_core`), by the manifest.
    libs = {}
    for lib in json.loads((bindings / "manifest.json").read_text())["libraries"]:
        for m in lib["modules"]:
            if m.get("python_module"):
                package, _, last = m["python_module"].rpartition(".")
                libs[f"{package}.c{last}"] = (m["name"], lib["name"])
    modules = sorted(
        ".".join(p.relative_to(root).with_suffix("").parts)
        for p in (root / "rocm").rglob("c*.pxd")
        if "bindings" not in p.parts
    )
    assert "rocm.llvm.c.ccore" in modules and "rocm.amd_comgr.camd_comgr" in modules
    cimports = "\n".join("from {0} cimport {2}".format(*m.rpartition(".")) for m in modules)
    layout, expected = layout_source([(m, libs[m][0]) for m in modules], bindings)
    (tmp_path / "hipgen_rocm_cy.pyx").write_text(ROCM_LLVM_PROGRAM.format(cimports=cimports) + layout)
    build(tmp_path, "hipgen_rocm_cy", rocm_llvm.get_include())
    code = (
        "import json, hipgen_rocm_cy as m\n"
        "print(json.dumps([m.llvm_version(), m.module_name(b'hipgen_mod').decode(), m.comgr_version(),"
        " m.under_10_0_names(), m.layouts()]))"
    )
    run = child(tmp_path, code)
    version, name, comgr, ten, layouts = json.loads(run.stdout.splitlines()[-1])
    assert ten == version + comgr
    # Every record of LLVM's C API and comgr as Cython compiled it, against the IR.
    assert set(layouts) == set(expected) and len(expected) >= 10
    wrong = {n: (layouts[n], e) for n, e in expected.items() if layouts[n] != e}
    assert not wrong, list(wrong.items())[:5]
    assert version == list(core.LLVMGetVersion()) and version[0] > 0
    assert name == "hipgen_mod"
    status, *comgr_version = amd_comgr.amd_comgr_get_version()
    assert int(status) == 0 and comgr == comgr_version


def _written(ty):
    """Whether a parameter is memory the call writes: no `const`, no `void *` (a handle, or
    memory the call would free)."""
    return ty["kind"] == "pointer" and not ty.get("is_const") and ty["pointee"]["kind"] != "void"


def _first_call(lib):
    """A function of library `lib` that returns its status and takes only pointers (what it
    writes): its name, parameter count, status enum and the status's members."""
    ir = load_ir(lib)
    # Its status may be declared by a library it imports (hipBLASLt's `hipblasStatus_t`).
    enums = {e["name"]: e for _, other in pxd_modules() for e in load_ir(other)["enums"]}
    for f in ir["functions"]:
        ret = f["ret"]
        if ret.get("kind") != "enum" or ret["name"] not in enums:
            continue
        if all(_written(p["ty"]) for p in f["params"]):
            return (
                f["name"],
                [p["spelling"] for p in f["params"]],
                {v for _, v in enums[ret["name"]]["members"]},
            )
    return None


C_WORDS = {"const", "void", "char", "short", "int", "long", "unsigned", "signed", "float", "double", "struct"}
C_WORDS |= {f"{u}int{n}_t" for u in ("", "u") for n in (8, 16, 32, 64)} | {"size_t", "bool"}


def cython_type(spelling, module):
    """C spelling `hipblasHandle_t *` as Cython names it from `module` (`chipblas.hipblasHandle_t *`)."""
    import re

    return re.sub(r"[A-Za-z_]\w*", lambda m: m[0] if m[0] in C_WORDS else f"{module}.{m[0]}", spelling)


def test_a_function_of_every_library_answers_its_status(tmp_path):
    """Every library's C level called once (a function taking only pointers, given zeroed
    memory): where the library loads here, it answers one of its status values; where it does
    not, the trampoline answers the library's error status and says why on stderr, as the
    Python bindings would raise it."""
    calls = {lib: _first_call(lib) for _, lib in pxd_modules()}
    # (roctx returns plain integers, and hipSPARSELt's functions all take a handle first.)
    calls = {lib: c for lib, c in calls.items() if c}
    assert {"hip", "hiprtc"} <= set(calls) and len(calls) >= len(pxd_modules()) - 2
    lines = ["from libc.string cimport memset"]
    lines += [f"from hip cimport c{lib}" for lib in calls]
    lines.append("def call_all():")
    lines.append("    cdef char buf[8][256]")
    lines.append("    memset(buf, 0, sizeof(buf))")
    lines.append("    out = {}")
    for lib, (name, spellings, _) in calls.items():
        args = ", ".join(f"<{cython_type(t, 'c' + lib)}><void *>buf[{i}]" for i, t in enumerate(spellings))
        lines.append(f"    out[{lib!r}] = <int>c{lib}.{name}({args})")
    lines.append("    return out")
    (tmp_path / "hipgen_each.pyx").write_text("\n".join(lines) + "\n")
    build(tmp_path, "hipgen_each", hip_pkg.get_include())
    code = "import json, hipgen_each\nprint(json.dumps(hipgen_each.call_all()))"
    run = child(tmp_path, code)
    got = json.loads(run.stdout.splitlines()[-1])
    loads = {module: (library, ok) for module, library, ok, _ in hip_pkg._native.libraries()}
    for lib, (name, _, members) in calls.items():
        assert got[lib] in members, (lib, name, got[lib])
        library, ok = loads[lib]
        if not ok:
            assert got[lib] != 0 and f"could not load library '{library}'" in run.stderr, (lib, name)


RELEASE_PROGRAM = """
from hip cimport chip
cimport cuda.bindings.cyruntime as cyruntime

def device_count():
    cdef int n = -7
    return <int>chip.hipGetDeviceCount(&n), n

def runtime_count():
    cdef int n = -7
    return <int>cyruntime.cudaGetDeviceCount(&n), n
"""


@pytest.mark.parametrize("release", ["6.4.3", "5.7.1"])
def test_get_include_gives_the_chosen_releases_declarations(tmp_path, release):
    """Where hip-python chooses an older release's bindings (a ROCm 6 or 5 runtime, or
    HIP_PYTHON_ROCM_RELEASE), `hip.get_include()` gives that release's `.pxd`s (hip's and the
    cuda package's), laid out for it: an extension built with it calls that release's
    functions, which answer as the Python bindings do there."""
    env = dict(os.environ, HIP_PYTHON_ROCM_RELEASE=release)
    where = subprocess.run(
        [sys.executable, "-W", "ignore", "-c", "import hip; print(hip.get_include())"],
        capture_output=True,
        text=True,
        env=env,
    )
    assert where.returncode == 0, where.stderr[-2000:]
    include = where.stdout.strip()
    if not Path(include, "hip", "chip.pxd").exists():
        pytest.skip(f"this build carries no bindings of ROCm {release}")
    assert f"_rocm{release.split('.')[0]}" in include
    assert f"(ROCm {release})" in Path(include, "hip", "chip.pxd").read_text()[:300]
    (tmp_path / "hipgen_rel.pyx").write_text(RELEASE_PROGRAM)
    build(tmp_path, "hipgen_rel", include, env=env)
    code = (
        "import json, warnings\nwarnings.simplefilter('ignore')\nimport hipgen_rel\n"
        "from hip import hip\n"
        "print(json.dumps([hipgen_rel.device_count(), hipgen_rel.runtime_count(),"
        " [int(x) for x in hip.hipGetDeviceCount()]]))"
    )
    run = child(tmp_path, code, env=env)
    assert "Cython declarations of ROCm" not in run.stderr
    c_level, cuda_level, python = json.loads(run.stdout.splitlines()[-1])
    assert c_level == python and cuda_level == python
