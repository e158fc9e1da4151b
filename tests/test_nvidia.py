"""The NVIDIA platform without a GPU: the shims hipgen generates (for CUDA 12 from HIP's NVIDIA
headers and CUDA's API, for CUDA 13 from CUDA's API alone) build and export what the bindings
call; the platform choice, the shim chosen by the CUDA runtime found, and the errors. The GPU
suite (tests/test_gpu.py) runs the same bindings on real NVIDIA GPUs through `device`.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPO, load_ir, manifest

SHIM = REPO / "hip-python" / "python" / "hip" / "_nvidia" / "libhip_nvidia.so"


@pytest.fixture(scope="module")
def shim():
    """Builds the shim for the bindings of bindings/ (CUDA 12 headers from NVIDIA's wheels, HIP
    5.7.1's NVIDIA headers where the ABI is the same, CUDA's own API for the rest)."""
    out = subprocess.run(["bash", str(REPO / "tools" / "nvidia-shim.sh")], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr[-3000:]
    return SHIM


def exported(path):
    out = subprocess.run(
        ["nm", "-D", "--defined-only", str(path)], capture_output=True, text=True, check=True
    )
    return {line.split()[-1] for line in out.stdout.splitlines() if " T " in line}


def test_shim_exports_the_bindings_functions_it_can(shim):
    symbols = exported(shim)
    ir = {lib: load_ir(lib) for lib in ("hip", "hiprtc")}
    bound = {f["symbol"] for lib in ir.values() for f in lib["functions"]}
    # Only functions the bindings call, and the core of a HIP program among them.
    assert symbols <= bound
    for name in (
        "hipMalloc",
        "hipMemcpyAsync",
        "hipModuleLoadData",
        "hipModuleLaunchKernel",
        "hipEventElapsedTime",
        "hipGetDevicePropertiesR0600",
        "hiprtcCompileProgram",
        "hiprtcGetCode",
    ):
        assert name in symbols, name
    # What HIP's NVIDIA headers lack is filled over CUDA's own API (hip.yaml's
    # library.nvidia.fill): graphs, arrays, stream capture, functions newer than 5.7.1; and
    # functions whose ABI HIP 6 changed (structs of another layout than CUDA's, copied member
    # by member; hipMemoryType renumbered, so HIP 5.7.1's inline code would misread it).
    for name in (
        "hipGraphCreate",
        "hipGraphInstantiateWithFlags",
        "hipArrayCreate",
        "hipStreamBeginCapture",
        "hipMemcpy2DArrayToArray",
        "hipGraphAddMemsetNode",
        "hipMemcpyParam2D",
        "hipPointerGetAttributes",
        # CUDA 12's takes three more parameters, defaulted in C++: passed as NULL.
        "hipStreamGetCaptureInfo",
    ):
        assert name in symbols, name
    nvidia_detail = (REPO / "target" / "nvidia" / "hip_nvidia.cpp").read_text()
    assert "//   hipMemcpyParam2D: HIP 5.7.1 differs: hip_Memcpy2D.srcMemoryType" in nvidia_detail
    # The spec's `prefer` takes a function over CUDA in both shims: HIP's NVIDIA headers ask
    # the runtime's attributes, which cannot take the cuda package's own CUDA members.
    assert "//   hipDeviceGetAttribute: over CUDA in the fill" in nvidia_detail
    fill = (REPO / "target" / "nvidia" / "hip_fill_nvidia.cpp").read_text()
    wrapper = fill.split("// wrapper: hipDeviceGetAttribute\n")[1][:600]
    assert "using F = decltype(&cuDeviceGetAttribute);" in wrapper
    assert len(symbols) > 380
    # What is not exported is listed, with the reason, at the end of the generated sources: the
    # first lists what HIP's headers lack (hiprtc's included), the fill what it could not add.
    listed = set()
    for name in ("hip_nvidia.cpp", "hip_fill_nvidia.cpp"):
        source = (REPO / "target" / "nvidia" / name).read_text()
        listed |= {line.split(":")[0].strip("/ ") for line in source.splitlines() if line.startswith("//   ")}
    # (By function name: HIP 6 exports some under another symbol, hipGetDevicePropertiesR0600.)
    name_of = {f["symbol"]: f["name"] for lib in ir.values() for f in lib["functions"]}
    listed -= {name_of[s] for s in symbols}
    assert listed == {name_of[s] for s in bound - symbols}


def test_cuda_13_shim_is_generated_over_cuda_13_alone(shim):
    """The shim for machines with CUDA 13 alone: every hip and hiprtc function over CUDA 13's
    API and NVRTC through HIPIFY's table (no HIP NVIDIA header, no CUDA 12), with the values
    the bindings pass translated (enums member by member, structs of another layout copied)."""
    so = shim.with_name("libhip_nvidia_cu13.so")
    symbols = exported(so)
    ir = {lib: load_ir(lib) for lib in ("hip", "hiprtc")}
    bound = {f["symbol"] for lib in ir.values() for f in lib["functions"]}
    assert symbols <= bound
    for name in (
        "hipMalloc",
        "hipHostMalloc",
        "hipFreeHost",
        "hipMemcpyAsync",
        "hipModuleLoadData",
        "hipModuleLaunchKernel",
        "hipGetDevicePropertiesR0600",
        "hipGetErrorString",
        "hipGraphInstantiateWithFlags",
        "hipStreamBeginCapture",
        "hiprtcCompileProgram",
        "hiprtcGetCode",
        "hiprtcGetErrorString",
    ):
        assert name in symbols, name
    assert len(symbols) > 380
    sources = [(REPO / "target" / "nvidia" / f"{lib}_cu13.cpp").read_text() for lib in ("hip", "hiprtc")]
    assert all("nvidia_detail" not in s for s in sources)
    assert "#include <cuda_runtime_api.h>" in sources[0] and "#include <nvrtc.h>" in sources[1]
    # What is left out is listed with its reason.
    listed = {
        line.split(":")[0].strip("/ ") for s in sources for line in s.splitlines() if line.startswith("//   ")
    }
    name_of = {f["symbol"]: f["name"] for lib in ir.values() for f in lib["functions"]}
    assert listed == {name_of[s] for s in bound - symbols}
    out = subprocess.run(["readelf", "-d", str(so)], capture_output=True, text=True, check=True).stdout
    assert not any("NEEDED" in line and ("cuda" in line or "nvrtc" in line) for line in out.splitlines())


MATH = {
    "hipblas": ["hipblasCreate", "hipblasSetStream", "hipblasSgemm", "hipblasZgemm", "hipblasSaxpy"],
    "hipfft": ["hipfftPlan1d", "hipfftExecC2C", "hipfftExecD2Z", "hipfftDestroy"],
    "hiprand": ["hiprandCreateGenerator", "hiprandGenerateUniform", "hiprandSetStream"],
    "hipsparse": ["hipsparseCreate", "hipsparseCreateCsr", "hipsparseSpMV", "hipsparseSpMM"],
    "hipsolver": ["hipsolverDnCreate", "hipsolverDnSgetrf", "hipsolverDnSgetrs", "hipsolverDnDsyevd"],
}


@pytest.mark.parametrize("lib", sorted(MATH))
def test_math_shim_exports_what_it_translates_and_lists_the_rest(shim, lib):
    so = shim.parent / f"lib{lib}_nvidia.so"
    symbols = exported(so)
    bound = {f["symbol"] for f in load_ir(lib)["functions"]}
    assert symbols <= bound
    for name in MATH[lib]:
        assert name in symbols, name
    source = (REPO / "target" / "nvidia" / f"{lib}_nvidia.cpp").read_text()
    listed = {line.split(":")[0].strip("/ ") for line in source.splitlines() if line.startswith("//   ")}
    assert listed == bound - symbols
    # CUDA's libraries are found at run time, never linked.
    out = subprocess.run(["readelf", "-d", str(so)], capture_output=True, text=True, check=True).stdout
    assert not any("NEEDED" in line and "libcu" in line for line in out.splitlines())


def test_math_shim_answers_not_supported_where_the_cuda_function_is_missing(shim):
    # No cuRAND here: the shim looks curandCreateGenerator up at the call, finds nothing, and
    # answers hipRAND's not-implemented status instead of crashing.
    import ctypes

    from hip import hiprand

    lib = ctypes.CDLL(str(shim.parent / "libhiprand_nvidia.so"))
    gen = ctypes.c_void_p()
    status = lib.hiprandCreateGenerator(
        ctypes.byref(gen), int(hiprand.hiprandRngType_t.HIPRAND_RNG_PSEUDO_DEFAULT)
    )
    assert status == hiprand.hiprandStatus.HIPRAND_STATUS_NOT_IMPLEMENTED
    assert gen.value is None


def test_shim_names_no_cuda_library(shim):
    """CUDA's libraries are loaded by the loader, so one shim serves CUDA 12 and 13 installs."""
    out = subprocess.run(["readelf", "-d", str(shim)], capture_output=True, text=True, check=True).stdout
    needed = [line for line in out.splitlines() if "NEEDED" in line]
    assert not any("cuda" in line or "nvrtc" in line for line in needed), needed


def run(code, **env):
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env={**os.environ, **env}, timeout=60
    )


def test_nvidia_platform_without_a_driver_is_a_clear_error():
    out = run(
        "import hip\nfrom hip import hip as h\nprint(hip.platform())\nh.hipGetDeviceCount()\n",
        HIP_PLATFORM="nvidia",
    )
    assert out.stdout.strip() == "nvidia"
    assert "HipLoadError" in out.stderr and "libcuda.so.1" in out.stderr and "HIP_PLATFORM=amd" in out.stderr


def test_a_library_without_a_cuda_counterpart_says_so_on_the_nvidia_platform():
    out = run("from hip import roctx\nroctx.roctxRangePop()\n", HIP_PLATFORM="nvidia")
    assert "not available on the NVIDIA platform" in out.stderr and "no CUDA counterpart" in out.stderr


def test_platform_defaults_to_amd_where_its_runtime_loads():
    out = run("import hip\nprint(hip.platform())\n")
    assert out.stdout.strip() == "amd"


STAND_IN_DRIVER = """
extern "C" int cuInit(unsigned) { return 0; }
extern "C" int cuDeviceGetCount(int *n) { *n = COUNT; return 0; }
"""


@pytest.mark.parametrize(
    ("gpus", "platform", "reason"),
    [
        (2, "nvidia", "2 NVIDIA GPU(s) reported by the CUDA driver"),
        # No GPU anywhere: the AMD runtime that loads here (HIP 5.2) decides.
        (0, "amd", "no GPU found; the AMD runtime (libamdhip64) loads"),
    ],
)
def test_platform_is_chosen_by_the_gpus_a_stand_in_cuda_driver_reports(tmp_path, gpus, platform, reason):
    """This machine has an AMD runtime (libamdhip64.so.5) and no GPU; a stand-in CUDA driver
    (`libcuda.so.1` reporting `gpus` devices) on the loader's path plays an NVIDIA machine's.
    With NVIDIA GPUs the platform is NVIDIA, and the AMD runtime is never loaded to decide
    (on a real NVIDIA machine, loading it aborted the process)."""
    src = tmp_path / "driver.cpp"
    src.write_text(STAND_IN_DRIVER.replace("COUNT", str(gpus)))
    subprocess.run(["g++", "-shared", "-fPIC", str(src), "-o", str(tmp_path / "libcuda.so.1")], check=True)
    code = (
        "import sys\n"
        "from hip import _native\n"
        "print(_native.platform()); print(_native.platform_reason())\n"
        "loaded = open('/proc/self/maps').read()\n"
        "print('amd runtime loaded' if 'libamdhip64' in loaded else 'amd runtime not loaded')\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "HIP_PLATFORM"}
    env["LD_LIBRARY_PATH"] = f"{tmp_path}:{env.get('LD_LIBRARY_PATH', '')}"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=60)
    assert out.returncode == 0, out.stderr[-2000:]
    lines = out.stdout.splitlines()
    assert lines[:2] == [platform, reason], out.stdout
    if platform == "nvidia":
        assert lines[2] == "amd runtime not loaded", out.stdout


def test_offload_arch_options_for_nvrtc():
    from hip import _nvidia_options

    out, dropped = _nvidia_options.translate(
        [b"--offload-arch=sm_90", "-O3", b"--offload-arch=gfx90a", b"-DX=1"]
    )
    assert out == [b"--gpu-architecture=sm_90", b"-O3", b"-DX=1"] and dropped == ["--offload-arch=gfx90a"]


def test_compile_program_is_native_on_amd_in_the_wheel_for_both_platforms():
    # The wheel carries the NVIDIA shims; the NVIDIA option translation wraps
    # hiprtcCompileProgram only where the runtime chose the NVIDIA platform.
    import hip
    from hip import _select, hiprtc

    assert (Path(hip.__file__).parent / "_nvidia" / "libhip_nvidia.so").exists()
    assert _select.native().platform() == "amd"
    assert type(hiprtc.hiprtcCompileProgram).__name__ == "builtin_function_or_method"


def test_build_pkgs_platform_selection():
    out = subprocess.run(
        ["bash", str(REPO / "build_pkgs.sh"), "--platform", "nvidia", "--dry-run"],
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0
    # Every hip-python library with an NVIDIA form, in the manifest's order (roctx has none).
    default = manifest.load(manifest.default_folder())
    nvidia = [lib["name"] for lib in manifest.libraries(default, "hip-python", "nvidia")]
    assert nvidia[:2] == ["hip", "hiprtc"] and "roctx" not in nvidia
    assert out.stdout.splitlines()[0] == ",".join(nvidia)
    bad = subprocess.run(
        ["bash", str(REPO / "build_pkgs.sh"), "--platform", "intel", "--dry-run"],
        capture_output=True,
        text=True,
    )
    assert bad.returncode == 2 and "unknown platform" in bad.stderr


STAND_IN_CUDA = r"""
#include <cuda_runtime_api.h>
#include <cstring>
// The one CUDA function the test calls, answering as a GPU would.
extern "C" cudaError_t cudaGetDeviceProperties_v2(cudaDeviceProp *p, int dev) {
  if (dev != 0) return cudaErrorInvalidDevice;
  std::memset(p, 0, sizeof *p);
  std::strcpy(p->name, "stand-in GPU");
  p->major = 9;
  p->totalGlobalMem = 85ull << 30;
  p->maxThreadsDim[0] = 1024;
  p->maxThreadsDim[2] = 64;
  for (int i = 0; i < 16; ++i) p->uuid.bytes[i] = static_cast<char>(i + 1);
  p->l2CacheSize = 52428800;
  return cudaSuccess;
}
"""


def test_a_struct_of_another_layout_is_copied_member_by_member(shim, tmp_path):
    """HIP 6's hipDeviceProp_t is not CUDA's cudaDeviceProp: the fill hands CUDA a
    cudaDeviceProp and copies it back by member name (arrays, nested uuid, integers). A stand-in
    for CUDA's function is the only part not real here (no GPU); the GPU suite runs the real one."""
    import ctypes

    from hip import hip

    include = [f"-I{p}" for p in sorted((REPO / ".cuda" / "12" / "nvidia").glob("*/include"))]
    stand_in = tmp_path / "libcudart_standin.so"
    src = tmp_path / "standin.cpp"
    src.write_text(STAND_IN_CUDA)
    gxx = ["g++", "-std=c++17", "-shared", "-fPIC", "-w", *include]
    subprocess.run([*gxx, str(src), "-o", str(stand_in)], check=True)
    # The fill alone (the nvidia_detail part links CUDA's functions by name).
    fill = tmp_path / "libfill.so"
    fill_source = REPO / "target" / "nvidia" / "hip_fill_nvidia.cpp"
    subprocess.run([*gxx, str(fill_source), "-o", str(fill)], check=True)
    ctypes.CDLL(str(stand_in), mode=ctypes.RTLD_GLOBAL)
    lib = ctypes.CDLL(str(fill))
    prop = hip.hipDeviceProp_t()
    status = lib.hipGetDevicePropertiesR0600(ctypes.c_void_p(prop.getPtr()), 0)
    assert status == 0
    assert prop.name == b"stand-in GPU"
    assert prop.major == 9 and prop.minor == 0
    assert prop.totalGlobalMem == 85 << 30
    assert list(prop.maxThreadsDim) == [1024, 0, 64]
    assert bytes(prop.uuid.bytes) == bytes(range(1, 17))
    assert prop.l2CacheSize == 52428800
    assert lib.hipGetDevicePropertiesR0600(ctypes.c_void_p(prop.getPtr()), 1) == 101  # hipErrorInvalidDevice


STAND_IN_ERROR_STRINGS = r"""
extern "C" {
int asked = 0;
const char *cudaGetErrorString(int e) {
  ++asked;
  static const char *text[] = {"no error", "invalid argument", "out of memory"};
  return e >= 0 && e < 3 ? text[e] : "another error";
}
}
"""


def test_error_strings_are_asked_of_cuda_once_per_value(shim, tmp_path):
    """A function of one enum returning a C string is a lookup (`Function::is_enum_lookup`):
    the shim keeps each value's string, so CUDA's runtime (~28 ns a call on an H200's host) is
    asked once per value. A stand-in for cudaGetErrorString counts the calls into CUDA."""
    stand_in = tmp_path / "libcudart_standin.so"
    src = tmp_path / "standin.cpp"
    src.write_text(STAND_IN_ERROR_STRINGS)
    subprocess.run(["g++", "-shared", "-fPIC", "-w", str(src), "-o", str(stand_in)], check=True)
    # In a process of its own: the shim keeps what it was told.
    code = f"""
import ctypes
cuda = ctypes.CDLL({str(stand_in)!r}, mode=ctypes.RTLD_GLOBAL)
shim = ctypes.CDLL({str(shim.with_name("libhip_nvidia_cu13.so"))!r})
shim.hipGetErrorString.restype = ctypes.c_char_p
asked = ctypes.c_int.in_dll(cuda, "asked")
seen = [shim.hipGetErrorString(v) for v in (1, 1, 1, 2, 2, 0, 1)]
print(seen, asked.value)
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == (
        "[b'invalid argument', b'invalid argument', b'invalid argument', b'out of memory', "
        "b'out of memory', b'no error', b'invalid argument'] 3"
    )
    # The shim over HIP's NVIDIA headers keeps them the same way.
    nvidia_detail = (REPO / "target" / "nvidia" / "hip_nvidia.cpp").read_text()
    for name in ("hipGetErrorString", "hipGetErrorName", "hiprtcGetErrorString"):
        line = next(x for x in nvidia_detail.splitlines() if f"hipgen_{name}(" in x and "{" in x)
        assert "hipgen_lookup(hipgen_seen, a0" in line, line


STAND_IN_POINTER_ATTRIBUTES = r"""
extern "C" {
int seen[4] = {-1, -1, -1, -1};
int cuPointerGetAttributes(unsigned n, const int *attributes, void **data, unsigned long long ptr) {
  for (unsigned i = 0; i < n && i < 4; ++i) {
    seen[i] = attributes[i];
    *static_cast<unsigned long long *>(data[i]) = 100 + i;
  }
  return 0;
}
}
"""


def test_an_array_of_enums_reaches_cuda_whole(shim, tmp_path):
    """`hipDrvPointerGetAttributes(n, attributes, data, ptr)` hands CUDA the whole attribute
    array: enums whose values are CUDA's pass as they are (a one-value temporary, for enums
    of other values, is only for a pointer to one value). A stand-in for CUDA's function
    records what it was given; the GPU suite runs the real one."""
    stand_in = tmp_path / "libcuda_standin.so"
    src = tmp_path / "standin.cpp"
    src.write_text(STAND_IN_POINTER_ATTRIBUTES)
    subprocess.run(["g++", "-shared", "-fPIC", "-w", str(src), "-o", str(stand_in)], check=True)
    code = f"""
import ctypes
cuda = ctypes.CDLL({str(stand_in)!r}, mode=ctypes.RTLD_GLOBAL)
shim = ctypes.CDLL({str(shim.with_name("libhip_nvidia_cu13.so"))!r})
attributes = (ctypes.c_int * 3)(9, 3, 2)  # device ordinal, device pointer, memory type
values = (ctypes.c_uint64 * 3)()
data = (ctypes.c_void_p * 3)(*[ctypes.addressof(values) + 8 * i for i in range(3)])
status = shim.hipDrvPointerGetAttributes(3, attributes, data, ctypes.c_void_p(0x1000))
print(status, list((ctypes.c_int * 4).in_dll(cuda, "seen")), list(values))
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "0 [9, 3, 2, -1] [100, 101, 102]"


STAND_IN_DEMO_MODES = r"""
extern "C" {
int seen[4] = {-1, -1, -1, -1};
int cuDemoSetModes(int *modes, int n) {
  for (int i = 0; i < n && i < 4; ++i) seen[i] = modes[i];
  return 0;
}
}
"""


def test_the_expected_demo_shim_converts_an_enum_array_element_by_element(tmp_path):
    """The generator's expected shim of the demo library over the CUDA fixture
    (generator/tests/expectations/shim/demo_cuda.cpp, `cargo test -p hipgen` keeps it the
    generator's output) compiled and called: `demoSetModes` hands CUDA every mode in CUDA's
    numbering (HIP's demoModeB, 2, is the fixture's CU_DEMO_MODE_C, 3), leaves the caller's
    array as it was, and fails a value CUDA has no counterpart of with the invalid status
    (demoErrorBad, 7) without calling CUDA."""
    fixtures = REPO / "generator" / "tests" / "fixtures" / "cuda" / "headers"
    source = REPO / "generator" / "tests" / "expectations" / "shim" / "demo_cuda.cpp"
    stand_in = tmp_path / "libcudemo.so"
    (tmp_path / "standin.cpp").write_text(STAND_IN_DEMO_MODES)
    subprocess.run(
        ["g++", "-shared", "-fPIC", "-w", str(tmp_path / "standin.cpp"), "-o", str(stand_in)], check=True
    )
    shim = tmp_path / "libdemo_shim.so"
    gxx = ["g++", "-std=c++17", "-shared", "-fPIC", "-w", f"-I{fixtures}", str(source), "-o", str(shim)]
    subprocess.run(gxx, check=True)
    code = f"""
import ctypes
cuda = ctypes.CDLL({str(stand_in)!r}, mode=ctypes.RTLD_GLOBAL)
shim = ctypes.CDLL({str(shim)!r})
seen = (ctypes.c_int * 4).in_dll(cuda, "seen")
modes = (ctypes.c_int * 3)(1, 2, 1)
print(shim.demoSetModes(modes, 3), list(seen), list(modes))
seen[0] = -1
print(shim.demoSetModes((ctypes.c_int * 2)(1, 5), 2), seen[0])
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.splitlines() == ["0 [1, 3, 1, -1] [1, 2, 1]", "7 -1"]


STAND_IN_CUDA_13 = r"""
#include <cuda.h>
#include <cuda_runtime_api.h>
#include <cuda_profiler_api.h>
// CUDA 13's functions the test calls, recording what the shim handed them.
extern "C" {
int seen_advice = -9, seen_type = -9, seen_id = -9, prefetch_type = -9, prefetch_id = -9;
unsigned prefetch_flags = 99;
void *prefetch_stream = nullptr;
int res_type = -9, address_mode = -9, normalized = -9, profiling = 0;
void *res_array = nullptr;
float border = 0;
size_t view_width = 0;
}
cudaError_t cudaMemAdvise(const void *, size_t, enum cudaMemoryAdvise advice, struct cudaMemLocation at) {
  seen_advice = advice;
  seen_type = at.type;
  seen_id = at.id;
  return cudaSuccess;
}
cudaError_t cudaMemPrefetchAsync(const void *, size_t, struct cudaMemLocation at, unsigned flags,
                                 cudaStream_t stream) {
  prefetch_type = at.type;
  prefetch_id = at.id;
  prefetch_flags = flags;
  prefetch_stream = stream;
  return cudaSuccess;
}
cudaError_t cudaCreateTextureObject(cudaTextureObject_t *out, const struct cudaResourceDesc *res,
                                    const struct cudaTextureDesc *tex,
                                    const struct cudaResourceViewDesc *view) {
  res_type = res->resType;
  res_array = res->res.array.array;
  address_mode = tex->addressMode[0];
  border = tex->borderColor[2];
  normalized = tex->normalizedCoords;
  view_width = view ? view->width : 0;
  *out = 77;
  return cudaSuccess;
}
cudaError_t cudaProfilerStart(void) {
  ++profiling;
  return cudaSuccess;
}
extern "C" int seen_attribute = -9;
CUresult cuDeviceGetAttribute(int *value, CUdevice_attribute attribute, CUdevice) {
  seen_attribute = attribute;
  *value = 7;
  return CUDA_SUCCESS;
}
"""


def test_cuda_13_conversions_reach_cuda_as_it_takes_them(shim, tmp_path):
    """CUDA 13 changed what some functions take; the CUDA 13 shim converts by rule: a device
    ordinal becomes a `cudaMemLocation` (the host for -1, the spec's `device_location`), a
    parameter HIP lacks is zero (`null_args`: the prefetch's flags), a union goes as its bytes
    (`hipResourceDesc.res`) and a struct of another size member by member, and the profiler
    header is one of the fill's. Stand-ins for CUDA's functions record what they were given."""
    import ctypes

    from hip import hip

    include = [f"-I{REPO / '.cuda' / '13' / 'nvidia' / 'cu13' / 'include'}"]
    gxx = ["g++", "-std=c++17", "-shared", "-fPIC", "-w", *include]
    stand_in_src, stand_in = tmp_path / "standin13.cpp", tmp_path / "libcudart13_standin.so"
    stand_in_src.write_text(STAND_IN_CUDA_13)
    subprocess.run([*gxx, str(stand_in_src), "-o", str(stand_in)], check=True)
    shim13 = tmp_path / "libhip13.so"
    subprocess.run([*gxx, str(REPO / "target" / "nvidia" / "hip_cu13.cpp"), "-o", str(shim13)], check=True)
    cuda = ctypes.CDLL(str(stand_in), mode=ctypes.RTLD_GLOBAL)
    lib = ctypes.CDLL(str(shim13))
    seen = lambda name, t=ctypes.c_int: t.in_dll(cuda, name).value  # noqa: E731

    advice = int(hip.hipMemoryAdvise.hipMemAdviseSetReadMostly)
    assert lib.hipMemAdvise(ctypes.c_void_p(4096), ctypes.c_size_t(64), advice, 3) == 0
    assert (seen("seen_advice"), seen("seen_type"), seen("seen_id")) == (advice, 1, 3)  # a device
    assert lib.hipMemAdvise(ctypes.c_void_p(4096), ctypes.c_size_t(64), advice, -1) == 0
    assert seen("seen_type") == 2  # cudaMemLocationTypeHost

    stream = ctypes.c_void_p(0x5000)
    assert lib.hipMemPrefetchAsync(ctypes.c_void_p(4096), ctypes.c_size_t(64), 1, stream) == 0
    assert (seen("prefetch_type"), seen("prefetch_id"), seen("prefetch_flags", ctypes.c_uint)) == (1, 1, 0)
    assert seen("prefetch_stream", ctypes.c_void_p) == 0x5000

    res, tex, view = hip.hipResourceDesc(), hip.hipTextureDesc(), hip.hipResourceViewDesc()
    res.resType = hip.hipResourceType.hipResourceTypeArray
    res.res.array.array = 0xABC0
    tex.addressMode = [hip.hipTextureAddressMode.hipAddressModeClamp] * 3
    tex.borderColor = [0.0, 0.0, 0.5, 0.0]
    tex.normalizedCoords = 1
    view.width = 640
    obj = ctypes.c_void_p()
    args = [ctypes.byref(obj), *(ctypes.c_void_p(s.getPtr()) for s in (res, tex, view))]
    assert lib.hipCreateTextureObject(*args) == 0
    assert obj.value == 77
    assert seen("res_type") == 0 and seen("res_array", ctypes.c_void_p) == 0xABC0
    assert seen("address_mode") == 1 and seen("border", ctypes.c_float) == 0.5 and seen("normalized") == 1
    assert seen("view_width", ctypes.c_size_t) == 640

    assert lib.hipProfilerStart() == 0 and seen("profiling") == 1

    # An attribute HIP has no member for: the cuda package gives its name CUDA's value where
    # no HIP member has it, and the shim passes such a value on as CUDA's member.
    from cuda import _plan

    posix = dict(_plan.enum_members("CUdevice_attribute"))[
        "CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED"
    ]
    hip_enum = next(e for e in load_ir("hip")["enums"] if e["name"] == "hipDeviceAttribute_t")
    assert posix not in {v for _, v in hip_enum["members"]}
    value = ctypes.c_int()
    assert lib.hipDeviceGetAttribute(ctypes.byref(value), posix, 0) == 0
    assert seen("seen_attribute") == posix and value.value == 7
    # A CUDA member HIP's member stands for with others (`GPU_OVERLAP` beside the async
    # engine count) comes as CUDA's value tagged as its own: it reaches CUDA as that member.
    tag = _plan.tables().cuda_member_tag
    overlap = dict(_plan.enum_members("CUdevice_attribute"))["CU_DEVICE_ATTRIBUTE_GPU_OVERLAP"]
    assert lib.hipDeviceGetAttribute(ctypes.byref(value), tag | overlap, 0) == 0
    assert seen("seen_attribute") == overlap
    # A HIP member HIPIFY pairs only with the runtime's attribute passes as the driver's of
    # that value: CUDA numbers the two enums alike.
    runtime_only = "cudaDevAttrMultiGpuBoardGroupID"
    hip_name = dict(_plan.members("hip", "hipDeviceAttribute_t"))[runtime_only]
    hip_value = int(hip.hipDeviceAttribute_t.__members__[hip_name])
    assert lib.hipDeviceGetAttribute(ctypes.byref(value), hip_value, 0) == 0
    assert seen("seen_attribute") == dict(_plan.enum_members("cudaDeviceAttr"))[runtime_only]
    # A tagged value is CUDA's value as it is, for CUDA to answer: a member newer than the
    # shim's headers (CUDA 13's on the CUDA 12 shim with a CUDA 13 driver) reaches it too.
    assert lib.hipDeviceGetAttribute(ctypes.byref(value), tag | 0xFFF, 0) == 0
    assert seen("seen_attribute") == 0xFFF
    # An untagged value no HIP member and no CUDA member has is refused, never passed on.
    invalid = int(hip.hipError_t.hipErrorInvalidValue)
    assert lib.hipDeviceGetAttribute(ctypes.byref(value), 0xFFE, 0) == invalid
    assert seen("seen_attribute") == 0xFFF


STAND_IN_MATH = r"""
#include <cstddef>
extern "C" {
int seen[4] = {-9, -9, -9, -9};
float tolerance_seen = -1;
// cuBLAS's exported cublasGemmEx (its C++ headers overload the name with an inline wrapper
// taking the older cudaDataType compute type).
int cublasGemmEx(void *, int transa, int transb, int, int, int, const void *, const void *, int,
                 int, const void *, int, int, const void *, void *, int, int, int compute, int algo) {
  seen[0] = transa, seen[1] = transb, seen[2] = compute, seen[3] = algo;
  return 0;
}
// cuSOLVER's float tolerance where hipSOLVER takes a double.
int cusolverSpScsrlsvqr(void *, int, int, void *, const float *, const int *, const int *,
                        const float *, float tol, int reorder, float *, int *singularity) {
  tolerance_seen = tol;
  *singularity = reorder;
  return 0;
}
// cuSPARSE's int buffer size where hipSPARSE takes a size_t.
int cusparseScsr2gebsr_bufferSize(void *, int dir, int, int, void *, const float *, const int *,
                                  const int *, int row_block, int, int *size) {
  *size = 4096 + row_block + 100 * dir;
  return 0;
}
// An enum CUDA returns (not a status).
int cusparseGetMatDiagType(void *) { return 1; }
// A pointer to pointer that differs in const at the inner level.
static unsigned int constants[2] = {7, 8};
int curandGetScrambleConstants32(unsigned int **out) {
  *out = constants;
  return 0;
}
}
"""


def test_math_shim_conversions_reach_cuda_as_it_takes_them(shim, tmp_path):
    """Each kind of difference the math shims bridge, through stand-ins for CUDA's functions
    (the only part not real here; the GPU suite runs cuBLAS and the others): the exported
    function of a name C++ overloads, a double argument where CUDA takes a float, a size_t
    output CUDA writes as an int, an enum CUDA returns, a pointer to pointer of other const."""
    stand_in = tmp_path / "libmath_standin.so"
    src = tmp_path / "standin.cpp"
    src.write_text(STAND_IN_MATH)
    subprocess.run(["g++", "-shared", "-fPIC", "-w", str(src), "-o", str(stand_in)], check=True)
    lib = shim.parent
    code = f"""
import ctypes
from hip import hipblas, hipsparse
cuda = ctypes.CDLL({str(stand_in)!r}, mode=ctypes.RTLD_GLOBAL)
blas = ctypes.CDLL({str(lib / "libhipblas_nvidia.so")!r})
solver = ctypes.CDLL({str(lib / "libhipsolver_nvidia.so")!r})
sparse = ctypes.CDLL({str(lib / "libhipsparse_nvidia.so")!r})
rand = ctypes.CDLL({str(lib / "libhiprand_nvidia.so")!r})
N, T = int(hipblas.hipblasOperation_t.HIPBLAS_OP_N), int(hipblas.hipblasOperation_t.HIPBLAS_OP_T)
c32 = int(hipblas.hipblasComputeType_t.HIPBLAS_COMPUTE_32F)
algo = int(hipblas.hipblasGemmAlgo_t.HIPBLAS_GEMM_DEFAULT)
p = ctypes.c_void_p
gemm = blas.hipblasGemmEx(p(1), N, T, 2, 2, 2, p(8), p(8), 0, 2, p(8), 0, 2, p(8), p(8), 0, 2, c32, algo)
print(gemm, list((ctypes.c_int * 4).in_dll(cuda, "seen")))
solver.hipsolverSpScsrlsvqr.argtypes = [p, ctypes.c_int, ctypes.c_int, p, p, p, p, p, ctypes.c_double,
                                        ctypes.c_int, p, p]
singularity = ctypes.c_int(-5)
status = solver.hipsolverSpScsrlsvqr(p(1), 2, 2, p(8), p(8), p(8), p(8), p(8), 0.1, 3, p(8),
                                     ctypes.byref(singularity))
print(status, ctypes.c_float.in_dll(cuda, "tolerance_seen").value == ctypes.c_float(0.1).value,
      singularity.value)
size = ctypes.c_size_t(2**64 - 1)
col = int(hipsparse.hipsparseDirection_t.HIPSPARSE_DIRECTION_COLUMN)
print(sparse.hipsparseScsr2gebsr_bufferSize(p(1), col, 2, 2, p(8), p(8), p(8), p(8), 2, 2,
                                            ctypes.byref(size)), size.value)
print(sparse.hipsparseGetMatDiagType(p(8)) == int(hipsparse.hipsparseDiagType_t.HIPSPARSE_DIAG_TYPE_UNIT))
out = ctypes.POINTER(ctypes.c_uint)()
print(rand.hiprandGetScrambleConstants32(ctypes.byref(out)), out[0], out[1])
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    gemm, solver, size, diag, scramble = out.stdout.strip().splitlines()
    assert gemm == "0 [0, 1, 68, -1]"  # CUBLAS_OP_N, CUBLAS_OP_T, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT
    assert solver == "0 True 3"
    assert size == "0 4198"  # 4096 + 2 + 100 * CUSPARSE_DIRECTION_COLUMN, all of the size_t written
    assert diag == "True"
    assert scramble == "0 7 8"
