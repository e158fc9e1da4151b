"""hip-python-as-cuda: CUDA names that are the HIP objects, against the real HIP runtime."""

import json
import os
import subprocess
import sys

import cuda
import cuda.bindings.driver
import cuda.bindings.nvrtc
import cuda.bindings.runtime
import numpy as np
import pytest
from cuda import _conventions, _layer, _nvrtc, _plan, _structs, cudart, nvrtc
from cuda import cuda as driver

from conftest import REPO, SESSION_RELEASE
from hip import hip, hiprtc

MODULES = {
    "cuda.cuda": driver,
    "cuda.cudart": cudart,
    "cuda.nvrtc": nvrtc,
    "cuda.bindings.driver": cuda.bindings.driver,
    "cuda.bindings.runtime": cuda.bindings.runtime,
    "cuda.bindings.nvrtc": cuda.bindings.nvrtc,
}
INTEROP = json.loads((REPO / "tests/fixtures/hip_python_interop_6.4.3.json").read_text())
# hip-python-interop took getLocalRuntimeVersion from an older HIPIFY into the driver module
# too; it is a helper of cuda-python's runtime module only (cuda/_runtime_extras.py).
# cuDeviceGetTexture1DLinearMaxWidth: HIPIFY 7.2 (the table of the cuda package, whose alias
# tables are the default release's) lists it as unsupported, though HIP still declares it.
KNOWN_MISSING = {"getLocalRuntimeVersion", "cuDeviceGetTexture1DLinearMaxWidth"}
# Where HIPIFY 7.0 (our table) and the older HIPIFY hip-python-interop 6.4.3 followed differ:
# both HIP structs exist; HIPIFY now maps the CUDA struct to the runtime-API one.
NEWER_HIPIFY = {
    "CUDA_MEMSET_NODE_PARAMS": "hipMemsetParams",
    "CUDA_MEMSET_NODE_PARAMS_st": "hipMemsetParams",
    "CUDA_MEMSET_NODE_PARAMS_v1": "hipMemsetParams",
}
# HIPIFY 7.2 maps these to HIP 7's own enum and function (interop 6.4.3: the older ones).
NEWER_HIPIFY_ENUMS = {"cudaDriverEntryPointQueryResult": "hipDriverEntryPointQueryResult"}
NEWER_HIPIFY_FUNCTIONS = {"cudaGetDriverEntryPoint": "hipGetDriverEntryPoint"}
# HIPIFY 7.2 lists as unsupported what interop 6.4.3 mapped: a clear "not supported" function.
NOT_SUPPORTED_SINCE_HIPIFY_7_2 = {"cuDeviceGetTexture1DLinearMaxWidth"}
# CUDA 12+ signatures HIPIFY maps to an older HIP function (conventions.hip_functions in
# generator/specs/cuda.yaml): the adapter calls the HIP function with the same signature.
CONVENTION_TARGETS = {
    "cuGraphInstantiate": "hipGraphInstantiateWithFlags",
    "cudaGraphInstantiate": "hipGraphInstantiateWithFlags",
}
SRC = b'extern "C" __global__ void k(float *x) { x[threadIdx.x] *= 2.0f; }'


@pytest.fixture
def hallucination_off():
    """Turns every switch this test may flip back off afterwards."""
    yield
    for flag in ("cudaError_t", "CUresult", "nvrtcResult", "cudaMemcpyKind"):
        setattr(cudart if flag != "nvrtcResult" else nvrtc, f"HIP_PYTHON_{flag}_HALLUCINATE", False)


# --- names ---------------------------------------------------------------------------------


@pytest.mark.parametrize("module", sorted(MODULES))
def test_name_parity_with_hip_python_interop(module):
    ours = set(dir(MODULES[module]))
    theirs = set(INTEROP[module])
    missing = sorted(theirs - ours)
    assert len(missing) <= 0.05 * len(theirs), missing
    # The rest is pinned, so a loss shows up at once.
    assert set(missing) <= KNOWN_MISSING


@pytest.mark.parametrize("module", sorted(MODULES))
def test_names_stand_for_the_same_hip_objects_as_in_hip_python_interop(module):
    mod = MODULES[module]
    hip_mod = hiprtc if module.endswith("nvrtc") else hip
    checked = 0
    for name, target in INTEROP[module].items():
        if target is None:
            continue
        kind, hip_name = target
        if name in KNOWN_MISSING and not hasattr(mod, name):
            continue
        if name in NEWER_HIPIFY_ENUMS:
            assert getattr(mod, name).__hip_enum__ is getattr(hip, NEWER_HIPIFY_ENUMS[name]), name
            continue
        if name in NEWER_HIPIFY_FUNCTIONS:
            hip_function, ours = getattr(hip, NEWER_HIPIFY_FUNCTIONS[name]), getattr(mod, name)
            assert ours is hip_function or _conventions.hip_function(ours) is hip_function, name
            continue
        if name in NOT_SUPPORTED_SINCE_HIPIFY_7_2:
            assert getattr(mod, name).hip_not_supported, name
            continue
        ours = getattr(mod, name)
        if name in _layer._OVERRIDES:
            # Option translation and bytes buffers need a wrapper (see cuda._nvrtc).
            assert ours is getattr(_nvrtc, name)
            continue
        if name in NEWER_HIPIFY:
            assert ours.__hip_class__ is getattr(hip, NEWER_HIPIFY[name]), name
            continue
        adapted = _conventions.hip_function(ours)
        if adapted is not None:
            hip_name = CONVENTION_TARGETS.get(name, hip_name)
        expected = getattr(hip_mod, hip_name) if hasattr(hip_mod, hip_name) else getattr(hip, hip_name)
        if adapted is not None:
            # cuda-python calls it otherwise (test_cuda_conventions.py): an adapter over it.
            assert adapted is expected, name
        elif isinstance(ours, type) and issubclass(ours, _conventions.CudaInt):
            # CUDA's integer typedefs are classes of their own, as in cuda-python.
            assert name in _plan.tables().wrappers, name
        elif kind == "enum":
            assert ours.__hip_enum__ is expected, name
        elif isinstance(ours, type) and issubclass(ours, _structs.CudaStruct):
            # A struct HIP's class lacks field names of: CUDA's layout (generator/src/cuda/reshape.rs).
            assert ours.__name__ in _plan.tables().reshaped, name
        elif "__hip_class__" in getattr(ours, "__dict__", {}):
            # A handle or a struct: HIP's class, printed as cuda-python prints it.
            assert ours.__hip_class__ is expected and issubclass(ours, expected), name
        elif isinstance(expected, int) and not isinstance(expected, bool):
            assert ours == expected, name
        else:
            assert ours is expected, name
        checked += 1
    assert checked > (18 if module.endswith("nvrtc") else 1000)


def test_functions_are_the_hip_function_objects():
    assert cudart.cudaFree is hip.hipFree
    assert _conventions.hip_function(cudart.cudaMalloc) is hip.hipMalloc  # returns the address as an int
    assert _conventions.hip_function(driver.cuMemAlloc) is hip.hipMalloc  # returns a CUdeviceptr
    assert cuda.bindings.runtime.cudaStreamCreate is hip.hipStreamCreate
    assert _conventions.hip_function(driver.cuLaunchKernel) is hip.hipModuleLaunchKernel  # kernelParams forms
    assert nvrtc.nvrtcCreateProgram is hiprtc.hiprtcCreateProgram
    assert driver.nvrtcCreateProgram is hiprtc.hiprtcCreateProgram
    assert nvrtc.nvrtcGetPTXSize is hiprtc.hiprtcGetCodeSize


def test_types_and_constants_are_the_hip_objects():
    # Structs are HIP's classes as cuda-python presents them (CUDA's layout where HIP's
    # lacks field names: test_cuda_conventions.py); HIP's instances count.
    assert issubclass(cudart.cudaPos, hip.hipPos) and cudart.cudaPos.__hip_class__ is hip.hipPos
    assert isinstance(hip.hipPos(), cudart.cudaPos)
    # Handles are HIP's classes printed as cuda-python prints them; HIP's instances count.
    for cls in (driver.CUstream, cudart.cudaStream_t):
        assert issubclass(cls, hip.hipStream_t) and cls.__hip_class__ is hip.hipStream_t
        assert isinstance(hip.hipStream_t(7), cls)
        assert str(cls(0x3039)) == f"<{cls.__name__} 0x3039>" and hex(cls(7)) == "0x7"
    assert not isinstance(hip.hipEvent_t(7), driver.CUstream)
    assert issubclass(driver.CUdeviceptr, int)  # cuda-python's class, not HIP's pointer
    assert cudart.cudaStreamNonBlocking == hip.hipStreamNonBlocking
    assert driver.CU_LAUNCH_PARAM_END == hip.HIP_LAUNCH_PARAM_END
    assert nvrtc.CUlinkState.__hip_class__ is hiprtc.hiprtcLinkState


@pytest.mark.parametrize("module", ["cuda.bindings.driver", "cuda.bindings.runtime", "cuda.bindings.nvrtc"])
def test_star_import_and_dir_name_only_what_resolves(module):
    """HIPIFY's table is the default release's; under the bindings of another release (this
    machine's HIP 5 runtime binds 5.x's), `__all__` leaves out what that release lacks, so
    `from cuda.bindings.driver import *` works and every name `dir()` gives resolves."""
    code = (
        f"import importlib; m = importlib.import_module({module!r})\n"
        f"from {module} import *\n"
        "missing = [n for n in dir(m) if not hasattr(m, n)]\n"
        "print(len(m.__all__), missing)\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "HIP_PYTHON_ROCM_RELEASE"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, env=env)
    assert out.returncode == 0, out.stderr[-2000:]
    count, missing = out.stdout.split(" ", 1)
    assert int(count) > 10 and missing.strip() == "[]", out.stdout


def test_unknown_name_is_an_attribute_error():
    with pytest.raises(AttributeError, match="cuda.cudart.*cudaNoSuchThing"):
        cudart.cudaNoSuchThing  # noqa: B018
    assert not hasattr(nvrtc, "cudaMalloc")


def test_markers():
    assert cuda.bindings.HIP_PYTHON is True and cuda.bindings.hip is hip
    assert not hasattr(cuda, "HIP_PYTHON")  # `cuda` is a namespace package, as NVIDIA's
    for name, mod in MODULES.items():
        assert mod.HIP_PYTHON is True
        main = hiprtc if name.endswith("nvrtc") else hip
        assert mod.hip_python_mod is main
        assert getattr(mod, main.__name__.split(".")[-1]) is main
    assert cuda.bindings.HIP_PYTHON is True


def test_alias_tables_come_from_hipify():
    assert cuda.bindings.ALIAS_SOURCE.startswith("hipify-perl")
    assert cuda.bindings.ROCM_RELEASE == SESSION_RELEASE


# --- enums ---------------------------------------------------------------------------------


def test_enum_holds_cuda_and_hip_names_with_hip_values():
    e = cudart.cudaError_t
    assert e.__module__ == "cuda.bindings.runtime" and driver.CUresult.__module__ == "cuda.bindings.driver"
    assert e.cudaSuccess == e.hipSuccess == e.CUDA_SUCCESS == hip.hipError_t.hipSuccess == 0
    assert e.cudaErrorNoDevice == hip.hipError_t.hipErrorNoDevice
    for name, member in hip.hipError_t.__members__.items():
        assert getattr(e, name) == member
    k = cudart.cudaMemcpyKind
    assert k.cudaMemcpyHostToDevice == hip.hipMemcpyKind.hipMemcpyHostToDevice
    assert nvrtc.nvrtcResult.NVRTC_ERROR_COMPILATION == hiprtc.hiprtcResult.HIPRTC_ERROR_COMPILATION


def test_enum_classes_are_shared_between_the_layouts():
    assert driver.CUresult is cuda.bindings.driver.CUresult
    assert cudart.cudaError_t is cuda.bindings.runtime.cudaError_t
    assert nvrtc.nvrtcResult is cuda.bindings.nvrtc.nvrtcResult is driver.nvrtcResult


def test_hip_results_are_instances_of_the_cuda_enum():
    err, count = cudart.cudaGetDeviceCount()
    assert type(err) is hip.hipError_t
    assert isinstance(err, cudart.cudaError_t) and isinstance(err, driver.CUresult)
    assert err == cudart.cudaError_t.cudaErrorNoDevice and count == 0
    assert not isinstance(hip.hipMemcpyKind.hipMemcpyDefault, cudart.cudaError_t)


def test_hip_functions_take_cuda_enum_members():
    host = np.zeros(4, dtype=np.float32)
    (err,) = cudart.cudaMemcpy(host, host, 0, cudart.cudaMemcpyKind.cudaMemcpyHostToHost)
    # The runtime answered (no device here): the CUDA member reached C as HIP's value.
    assert isinstance(err, hip.hipError_t)
    with pytest.raises(TypeError, match="hipMemcpyKind"):
        hip.hipMemcpy(host, host, 0, cudart.cudaError_t.cudaSuccess)


SHARED_ATTRIBUTES = """
import json, sys
from cuda import _plan
from cuda.bindings import driver, runtime
from hip import hip
out = {}
for cls in (driver.CUdevice_attribute, runtime.cudaDeviceAttr):
    cuda_values = dict(_plan.enum_members(cls.__name__))
    for name in cuda_values:
        out[name] = int(getattr(cls, name))
status = {n: int(m) for n, m in driver.CUresult.__members__.items()}
status.update({n: int(m) for n, m in runtime.cudaError_t.__members__.items()})
json.dump({"tag": _plan.tables().cuda_member_tag, "values": out, "status": status,
           "hip": {n: int(m) for n, m in hip.hipDeviceAttribute_t.__members__.items()}}, sys.stdout)
"""


def _attribute_values(platform):
    env = dict(os.environ, HIP_PLATFORM=platform)
    out = subprocess.run([sys.executable, "-c", SHARED_ATTRIBUTES], capture_output=True, text=True, env=env)
    assert out.returncode == 0, out.stderr[-2000:]
    return json.loads(out.stdout)


def test_attributes_hip_shares_are_hips_on_amd_and_cudas_own_on_nvidia():
    """HIPIFY pairs `hipDeviceAttributeMaxSurface2D` with CUDA's surface width and height,
    and the async engine count with `GPU_OVERLAP` too. On AMD the CUDA names are HIP's member
    (as in hip-python-as-cuda); on the NVIDIA platform each is CUDA's value tagged as its own,
    which the shims hand CUDA as that member (test_nvidia.py), so CUDA answers for each."""
    cuda_values = dict(_plan.enum_members("CUdevice_attribute"))
    width = "CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_WIDTH"
    height = "CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_HEIGHT"
    amd, nvidia = _attribute_values("amd"), _attribute_values("nvidia")
    tag = amd["tag"]
    assert tag and tag > max(amd["hip"].values())
    surface2d = amd["hip"]["hipDeviceAttributeMaxSurface2D"]
    assert amd["values"][width] == amd["values"][height] == surface2d
    assert nvidia["values"][width] == tag | cuda_values[width] != nvidia["values"][height]
    assert nvidia["values"]["cudaDevAttrGpuOverlap"] == tag | cuda_values["CU_DEVICE_ATTRIBUTE_GPU_OVERLAP"]
    # A member HIPIFY pairs with one CUDA value stays HIP's member on both platforms.
    threads = amd["hip"]["hipDeviceAttributeMaxThreadsPerBlock"]
    for values in (amd["values"], nvidia["values"]):
        assert values["CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK"] == threads
        assert values["cudaDevAttrMaxThreadsPerBlock"] == threads
    # A member HIP lacks whose own value a HIP member holds is CUDA's value tagged on both.
    layers = "CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_LAYERS"
    assert cuda_values[layers] in amd["hip"].values()
    assert amd["values"][layers] == nvidia["values"][layers] == tag | cuda_values[layers]
    # CUDA's second name of that value is the same member.
    assert amd["values"]["CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_ARRAY_NUMSLICES"] == amd["values"][layers]
    # Status enums keep small values on both platforms: programs walk them up to the largest
    # code (cuda-python's test_all_CUresult_codes).
    assert max(v for n, v in amd["status"].items()) < tag and max(nvidia["status"].values()) < tag
    # Either way, AMD's HIP refuses a tagged value as it does any unknown attribute.
    err, _ = driver.cuDeviceGetAttribute(getattr(driver.CUdevice_attribute, layers), 0)
    assert err != 0


def test_hallucination_is_off_by_default(hallucination_off):
    assert cudart.HIP_PYTHON_cudaError_t_HALLUCINATE is False
    with pytest.raises(AttributeError, match="HIP_PYTHON_cudaError_t_HALLUCINATE"):
        cudart.cudaError_t.cudaErrorNotSupportedByHip  # noqa: B018


def test_hallucinated_constant_behaves_like_a_member(hallucination_off):
    cudart.HIP_PYTHON_cudaError_t_HALLUCINATE = True
    # One switch per CUDA enum, whichever module it is read through.
    assert cuda.bindings.runtime.HIP_PYTHON_cudaError_t_HALLUCINATE is True
    e = cudart.cudaError_t
    made = e.cudaErrorInventedForTest
    assert made is e.cudaErrorInventedForTest
    assert isinstance(made, e) and isinstance(made, int)
    assert made.name == "cudaErrorInventedForTest" and made.value == int(made)
    assert repr(made) == f"<cudaError_t.cudaErrorInventedForTest: {int(made)}>"
    assert str(made) == str(e.cudaSuccess).replace("0", str(int(made))).replace("hipSuccess", made.name)
    assert made == made and hash(made) == hash(made)
    assert all(made != m for m in e) and all(made != m for m in hip.hipError_t)
    assert int(made) not in {int(m) for m in hip.hipError_t}
    other = e.cudaErrorAnotherInvented
    assert other != made and {made: 1, other: 2}[made] == 1
    # The other enums keep their own switch.
    with pytest.raises(AttributeError):
        driver.CUresult.CUDA_ERROR_INVENTED  # noqa: B018


def test_hallucination_from_the_environment():
    code = (
        "from cuda import nvrtc\n"
        "m = nvrtc.nvrtcResult.NVRTC_ERROR_INVENTED\n"
        "print(nvrtc.HIP_PYTHON_nvrtcResult_HALLUCINATE, int(m) > 0, repr(m))\n"
    )
    env = dict(os.environ, HIP_PYTHON_nvrtcResult_HALLUCINATE="yes")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.startswith("True True <nvrtcResult.NVRTC_ERROR_INVENTED:")
    env["HIP_PYTHON_nvrtcResult_HALLUCINATE"] = "maybe"
    bad = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert (
        bad.returncode != 0
        and "ValueError" in bad.stderr
        and "HIP_PYTHON_nvrtcResult_HALLUCINATE" in bad.stderr
    )


# --- NVRTC ---------------------------------------------------------------------------------


def test_option_translation():
    out, dropped = _nvrtc.translate_options(
        [
            b"--gpu-architecture=compute_80",
            b"--fmad=false",
            "-arch=sm_90",
            b"-maxrregcount=32",
            b"-DN=4",
            b"--std=c++17",
            b"-use_fast_math",
            b"--include-path=/x",
        ],
        "gfx90a",
    )
    assert out == [
        b"--offload-arch=gfx90a",
        b"-ffp-contract=off",
        b"--offload-arch=gfx90a",
        b"-DN=4",
        b"-std=c++17",
        b"-ffast-math",
        b"-I/x",
    ]
    assert dropped == ["-maxrregcount=32"]
    out, dropped = _nvrtc.translate_options([b"-arch", b"compute_70", b"--fmad=true"], None)
    assert out == [b"-ffp-contract=fast"] and dropped == ["-arch compute_70"]
    out, _ = _nvrtc.translate_options([b"--gpu-architecture=gfx942"], None)
    assert out == [b"--offload-arch=gfx942"]
    # Each kind of the spec's rows (generator/specs/cuda.yaml `nvrtc_options`).
    given = [b"--pre-include=a.h", b"-G", b"--ftz=false", b"-rdc", b"-Xptxas", b"-O3", b"--undefine-macro=X"]
    out, dropped = _nvrtc.translate_options(given, None)
    want = [b"-include", b"a.h", b"-g", b"-fno-gpu-flush-denormals-to-zero", b"-fgpu-rdc", b"-O3", b"-UX"]
    assert out == want
    assert dropped == ["-Xptxas"]
    with pytest.raises(TypeError):
        _nvrtc.translate_options([3], None)


def compile_with(options, monkeypatch, arch="gfx90a"):
    if arch:
        monkeypatch.setenv("HIP_PYTHON_OFFLOAD_ARCH", arch)
    else:
        monkeypatch.delenv("HIP_PYTHON_OFFLOAD_ARCH", raising=False)
    err, prog = nvrtc.nvrtcCreateProgram(SRC, b"k.cu", 0, [], [])
    assert err == nvrtc.nvrtcResult.NVRTC_SUCCESS
    return prog, nvrtc.nvrtcCompileProgram(prog, len(options), options)


def test_nvrtc_compile_with_cuda_options(monkeypatch):
    prog, (err,) = compile_with([b"--gpu-architecture=compute_80", b"--fmad=false"], monkeypatch)
    assert err == nvrtc.nvrtcResult.NVRTC_SUCCESS
    err, size = nvrtc.nvrtcGetPTXSize(prog)
    ptx = b" " * size
    (err,) = nvrtc.nvrtcGetPTX(prog, ptx)
    assert err == nvrtc.nvrtcResult.NVRTC_SUCCESS and ptx[:4] == b"\x7fELF"
    assert b"gfx90a" in ptx
    code = bytearray(size)
    assert nvrtc.nvrtcGetPTX(prog, code)[0] == 0 and bytes(code) == ptx


def test_nvrtc_drops_unknown_meaning_with_a_warning(monkeypatch):
    with pytest.warns(cuda.bindings.NvrtcOptionWarning, match="maxrregcount"):
        _, (err,) = compile_with([b"-arch=sm_80", b"-maxrregcount=32"], monkeypatch)
    assert err == nvrtc.nvrtcResult.NVRTC_SUCCESS


def test_nvrtc_without_a_target_says_how_to_give_one(monkeypatch):
    with pytest.warns(cuda.bindings.NvrtcOptionWarning, match="HIP_PYTHON_OFFLOAD_ARCH"):
        prog, (err,) = compile_with([b"--gpu-architecture=compute_80"], monkeypatch, arch=None)
    # No GPU here and no target given: hiprtc has nothing to compile for.
    assert err == nvrtc.nvrtcResult.NVRTC_ERROR_COMPILATION


def test_nvrtc_log_into_bytes_and_bad_buffers(monkeypatch):
    err, prog = nvrtc.nvrtcCreateProgram(b"this is not C++", b"bad.cu", 0, [], [])
    monkeypatch.setenv("HIP_PYTHON_OFFLOAD_ARCH", "gfx90a")
    (err,) = nvrtc.nvrtcCompileProgram(prog, 0, [])
    assert err == nvrtc.nvrtcResult.NVRTC_ERROR_COMPILATION
    err, size = nvrtc.nvrtcGetProgramLogSize(prog)
    log = b" " * size
    assert nvrtc.nvrtcGetProgramLog(prog, log)[0] == 0
    assert b"error" in log
    with pytest.raises(ValueError, match="needs"):
        nvrtc.nvrtcGetProgramLog(prog, b"  ")
    with pytest.raises(ValueError, match="numOptions"):
        nvrtc.nvrtcCompileProgram(prog, 3, [b"-O2"])


# --- scripts in cuda-python's idiom, unmodified --------------------------------------------


def run_example(name, **env):
    out = subprocess.run(
        [sys.executable, "-W", "ignore::RuntimeWarning", str(REPO / "examples/cuda_python" / name)],
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr
    return dict(line.split(": ", 1) for line in out.stdout.splitlines() if ": " in line)


def test_nvrtc_script(monkeypatch):
    out = run_example("nvrtc_saxpy.py", HIP_PYTHON_OFFLOAD_ARCH="gfx90a")
    assert out["nvrtcCompileProgram"] == "0"
    assert int(out["code size"]) > 1000 and out["code starts"] == "b'\\x7fELF'"


def test_runtime_script_gets_the_runtimes_answers():
    out = run_example("runtime_memcpy.py")
    err, count = hip.hipGetDeviceCount()
    assert out["cudaGetDeviceCount"] == f"{int(err)} {count}"
    assert out["cudaErrorNoDevice is"] == str(int(hip.hipError_t.hipErrorNoDevice))
    # Every step reports what HIP itself returns for the same call here.
    expected_malloc = int(hip.hipMalloc(4096)[0])
    for step in ("cudaMalloc", "cudaStreamCreate", "cudaEventCreate", "cudaStreamSynchronize", "cudaFree"):
        assert out[step] == str(expected_malloc), step
    # HIP's C-string results are hip-python's CStr: bytes whose str() is the text.
    assert out["last error"] == "hipErrorNoDevice"


def test_driver_script_gets_the_runtimes_answers():
    out = run_example("driver_saxpy.py", HIP_PYTHON_OFFLOAD_ARCH="gfx90a")
    assert out["nvrtcCompileProgram"] == "0"
    assert out["cuInit"] == str(int(hip.hipInit(0)[0]))
    expected = str(int(hip.hipModuleLoadData(b"\x7fELF")[0]))
    assert out["cuModuleLoadData"] == expected
    assert out["cuLaunchKernel"] == str(
        int(hip.hipModuleLaunchKernel(None, 1, 1, 1, 1, 1, 1, 0, None, None, None)[0])
    )
    assert out["result correct"] == "False"  # nothing ran: no GPU here


def test_cuda_is_a_namespace_package_that_other_portions_join(tmp_path):
    # NVIDIA ships `cuda.pathfinder` and `cuda.core` as portions of the namespace package
    # `cuda`; a stand-in portion on the path must import beside ours, in either order.
    portion = tmp_path / "cuda" / "pathfinder"
    portion.mkdir(parents=True)
    (portion / "__init__.py").write_text("FOUND = 'stand-in'\n")
    code = (
        "import cuda.pathfinder\n"
        "from cuda import cudart\n"
        "from cuda.bindings import runtime\n"
        "import cuda\n"
        "print(cuda.pathfinder.FOUND, runtime.cudaMalloc is cudart.cudaMalloc, len(cuda.__path__))\n"
    )
    for path in (f"{tmp_path}{os.pathsep}", f"{os.pathsep}{tmp_path}"):
        env = {**os.environ, "PYTHONPATH": path + os.environ.get("PYTHONPATH", "")}
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
        assert out.returncode == 0, out.stderr
        assert out.stdout.split() == ["stand-in", "True", "2"]


@pytest.mark.parametrize("api", ["12", "13"])
def test_stubs_are_only_functions_hip_lacks(api, monkeypatch):
    """A CUDA function answers "not supported" only where HIP has no function of its name
    (after HIPIFY's table, the spec's pairs and its same-name rule), or has one taking other
    parameters, which its reason names: checked against the IR of the session's release."""
    import re

    from cuda import _plan

    from conftest import load_ir

    monkeypatch.setenv(_plan.API_VARIABLE, api)
    monkeypatch.setattr(_plan, "_TABLES", {})
    hip_functions = {f["name"] for lib in ("hip", "hiprtc") for f in load_ir(lib)["functions"]}
    for name, stub in _plan.tables().stubs.items():
        prefix, rest = re.match(r"(cuda|cu|nvrtc)(.*)", name).groups()
        hip_prefix = "hiprtc" if prefix == "nvrtc" else "hip"
        namesakes = {hip_prefix + rest, hip_prefix + re.sub(r"_v[0-9]+$", "", rest)}
        if stub["why"] == "no HIP function":
            assert not namesakes & hip_functions, (name, namesakes & hip_functions)
        else:
            differing = re.fullmatch(r"HIP's (\w+) takes other parameters", stub["why"]).group(1)
            assert differing in hip_functions and differing in namesakes, (name, stub["why"])
