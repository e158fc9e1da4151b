"""The ROCm libraries beyond hip: real calls into bookworm's hipSPARSE 5.3.3 and hipRAND 5.3.3
(no GPU here), clear errors for libraries this machine lacks, and the --libs selection."""

import ctypes
import subprocess
import sys
import zipfile

import numpy as np
import pytest

import hip as hip_package
from conftest import REPO
from hip import hip, hipblas, hiprand, hipsparse
from hip._util.types import ListOfPointer, Pointer

SPARSE_OK = hipsparse.hipsparseStatus_t.HIPSPARSE_STATUS_SUCCESS


def test_hipsparse_matrix_descriptor_through_create_ref():
    descr = Pointer()
    assert hipsparse.hipsparseCreateMatDescr(descr.createRef()) == (SPARSE_OK,)
    assert int(descr) != 0
    base = hipsparse.hipsparseIndexBase_t.HIPSPARSE_INDEX_BASE_ONE
    assert hipsparse.hipsparseSetMatIndexBase(descr, base) == (SPARSE_OK,)
    assert hipsparse.hipsparseGetMatIndexBase(descr) == (base,)
    assert hipsparse.hipsparseGetMatType(descr) == (
        hipsparse.hipsparseMatrixType_t.HIPSPARSE_MATRIX_TYPE_GENERAL,
    )
    fill = hipsparse.hipsparseFillMode_t.HIPSPARSE_FILL_MODE_UPPER
    assert hipsparse.hipsparseSetMatFillMode(descr, fill) == (SPARSE_OK,)
    assert hipsparse.hipsparseGetMatFillMode(descr) == (fill,)
    assert hipsparse.hipsparseDestroyMatDescr(descr) == (SPARSE_OK,)


def test_hipsparse_handle_storage_as_a_ctypes_address():
    storage = ctypes.c_void_p()
    assert hipsparse.hipsparseCreateMatDescr(ctypes.addressof(storage)) == (SPARSE_OK,)
    assert storage.value
    assert hipsparse.hipsparseDestroyMatDescr(storage) == (SPARSE_OK,)


def test_hipsparse_rejects_an_enum_of_another_library():
    descr = Pointer()
    hipsparse.hipsparseCreateMatDescr(descr.createRef())
    with pytest.raises(TypeError):
        hipsparse.hipsparseSetMatIndexBase(
            descr, hipsparse.hipsparseMatrixType_t.HIPSPARSE_MATRIX_TYPE_GENERAL
        )
    hipsparse.hipsparseDestroyMatDescr(descr)


def test_hiprand_version_and_generators():
    status, version = hiprand.hiprandGetVersion()
    assert status == hiprand.hiprandStatus.HIPRAND_STATUS_SUCCESS and version > 0
    # A device generator needs a GPU: a status and no handle, never a crash.
    status, gen = hiprand.hiprandCreateGenerator(hiprand.hiprandRngType.HIPRAND_RNG_PSEUDO_DEFAULT)
    assert status != hiprand.hiprandStatus.HIPRAND_STATUS_SUCCESS and gen is None
    status, gen = hiprand.hiprandCreateGeneratorHost(hiprand.hiprandRngType.HIPRAND_RNG_PSEUDO_DEFAULT)
    assert isinstance(status, hiprand.hiprandStatus)
    if status == hiprand.hiprandStatus.HIPRAND_STATUS_SUCCESS:
        out = np.zeros(256, np.float32)
        assert hiprand.hiprandGenerateUniform(gen, out, out.size) == (status,)
        assert 0.0 < out.min() and out.max() <= 1.0
        hiprand.hiprandDestroyGenerator(gen)


def test_missing_library_names_it_and_its_variable():
    with pytest.raises(hip_package.HipLoadError) as e:
        hipblas.hipblasCreate()
    assert "hipblas" in str(e.value) and "HIP_PYTHON_LIBHIPBLAS" in str(e.value)


def test_libraries_use_hip_types():
    assert hipblas.hipDataType is hip.hipDataType
    assert hipsparse.ihipStream_t is hip.ihipStream_t
    # hipSPARSE's complex scalar is hip's float2, passed by value.
    assert hipsparse.float2 is hip.float2


def test_complex_scalars_and_batched_pointer_arrays():
    # ROCm 7's hipBLAS takes HIP's hipComplex (float2); ROCm 5 and 6 had hipblasComplex.
    complex_t = getattr(hipblas, "hipblasComplex", None) or hip.float2
    z = complex_t(1.5, -2.0)
    assert (z.x, z.y) == (1.5, -2.0) and z.c_sizeof() == 8
    assert ctypes.string_at(int(z), 8) == np.array([1.5, -2.0], np.float32).tobytes()
    a, b = np.zeros(4, np.float32), np.zeros(4, np.float32)
    batch = ListOfPointer([a, b])
    assert np.frombuffer(ctypes.string_at(int(batch), 16), np.uint64).tolist() == [
        a.ctypes.data,
        b.ctypes.data,
    ]


def build_pkgs(*args):
    return subprocess.run(["bash", str(REPO / "build_pkgs.sh"), *args], capture_output=True, text=True)


@pytest.mark.parametrize(
    "libs, expected",
    [
        ("hip,hiprtc", "hip,hiprtc"),
        # hipBLASLt uses hipBLAS: it goes with it.
        (
            "^hipblas,hipsolver",
            "hip,hiprtc,hipfft,hiprand,hipsparse,hipsparselt,hsa,miopen,rccl,rocm_smi,roctx",
        ),
        ("hipsparse", "hip,hipsparse"),
        ("roctx", "roctx"),
    ],
)
def test_libs_selection(libs, expected):
    out = build_pkgs("--libs", libs, "--dry-run")
    assert out.returncode == 0 and out.stdout.splitlines()[0] == expected


def test_libs_selection_from_environment_and_errors():
    env_out = subprocess.run(
        ["bash", str(REPO / "build_pkgs.sh"), "--dry-run"],
        capture_output=True,
        text=True,
        env={"PATH": "/usr/bin:/bin", "HIP_PYTHON_LIBS": "hiprtc"},
    )
    assert env_out.stdout.splitlines()[0] == "hiprtc"
    bad = build_pkgs("--libs", "nope", "--dry-run")
    assert bad.returncode == 2 and "unknown library 'nope'" in bad.stderr


@pytest.mark.parametrize(
    "args, expected",
    [
        ([], "cuda: cuda,cudart,nvrtc"),
        (["--cuda-libs", "nvrtc"], "cuda: nvrtc"),
        (["--cuda-libs", "^nvrtc"], "cuda: cuda,cudart"),
        (["--no-cuda"], None),
    ],
)
def test_cuda_libs_selection(args, expected):
    out = build_pkgs(*args, "--dry-run")
    assert out.returncode == 0
    cuda = [line for line in out.stdout.splitlines() if line.startswith("cuda:")]
    assert (cuda[0] if cuda else None) == expected
    bad = build_pkgs("--cuda-libs", "cublas", "--dry-run")
    assert bad.returncode == 2 and "unknown library 'cublas'" in bad.stderr


def test_cuda_wheel_with_a_selection_has_exactly_those_modules(tmp_path):
    out = build_pkgs("--no-hip", "--cuda-libs", "nvrtc", "--no-install", "--out", str(tmp_path / "dist"))
    assert out.returncode == 0, out.stderr[-3000:]
    (wheel,) = (tmp_path / "dist").glob("hip_python_as_cuda-*.whl")
    modules = {n for n in zipfile.ZipFile(wheel).namelist() if n.endswith(".py")}
    assert "cuda/nvrtc.py" in modules and "cuda/bindings/nvrtc.py" in modules
    assert not modules & {
        "cuda/cuda.py",
        "cuda/cudart.py",
        "cuda/bindings/driver.py",
        "cuda/bindings/runtime.py",
    }
    # The modules left out were only moved aside for the build.
    assert (REPO / "hip-python-as-cuda/python/cuda/cudart.py").exists()
    assert (REPO / "hip-python-as-cuda/python/cuda/bindings/driver.py").exists()


def test_wheel_with_a_selection_has_exactly_those_modules(tmp_path):
    out = build_pkgs(
        "--libs",
        "hiprtc,roctx",
        "--no-cuda",
        "--no-rocm-llvm",
        "--no-install",
        "--out",
        str(tmp_path / "dist"),
    )
    assert out.returncode == 0, out.stderr[-3000:]
    (wheel,) = (tmp_path / "dist").glob("*.whl")
    subprocess.run([sys.executable, "-m", "venv", str(tmp_path / "env")], check=True)
    py = tmp_path / "env" / "bin" / "python"
    subprocess.run([str(py), "-m", "pip", "install", "-q", "--no-deps", str(wheel)], check=True)
    probe = "import hip; print(sorted(n for n, _ in hip._native.symbols())); print(hasattr(hip, 'hip'))"
    result = subprocess.run([str(py), "-c", probe], capture_output=True, text=True, cwd=tmp_path, check=True)
    assert result.stdout.split("\n")[:2] == ["['hiprtc', 'roctx']", "False"]
