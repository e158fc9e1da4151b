"""The built wheels as a user gets them: tags, versions, a fresh venv, the sdist."""

import json
import os
import re
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

from conftest import MANIFEST, REPO, SESSION_RELEASE

#: The wheels under test: dist/, or the folder tools/test.sh builds them into.
DIST = Path(os.environ.get("HIPGEN_DIST", REPO / "dist"))


PACKAGES = ["hip_python", "hip_python_as_cuda", "rocm_llvm_python"]


def wheels(package="hip_python", abi="abi3"):
    found = sorted(DIST.glob(f"{package}-*-{abi}-*.whl"))
    if not found:
        pytest.fail(f"no {package} wheel in dist/: run ./build_pkgs.sh")
    return found


@pytest.mark.parametrize("package", PACKAGES)
def test_wheel_name_version_and_abi(package):
    (wheel,) = wheels(package)
    version = re.escape(SESSION_RELEASE)
    m = re.fullmatch(package + rf"-({version}\.\d+)-cp310-abi3-(manylinux_2_(\d+)_x86_64)\.whl", wheel.name)
    assert m, wheel.name
    assert int(m.group(3)) <= 28


FREE_THREADED_WHEELS = sorted(DIST.glob("*-cp3*t-*.whl"))


@pytest.mark.skipif(
    not FREE_THREADED_WHEELS, reason="no free-threaded wheels: ./build_pkgs.sh --freethreaded"
)
@pytest.mark.parametrize("package", PACKAGES)
def test_free_threaded_wheels_beside_the_abi3_ones(package):
    # The same packages for the free-threaded interpreter (abi3 cannot be loaded there): one
    # wheel of its version each, its extensions named with its suffix, the other releases'
    # extensions of hip-python too, listed by the wheelhouse beside the abi3 ones.
    (wheel,) = [w for w in FREE_THREADED_WHEELS if w.name.startswith(package + "-")]
    m = re.fullmatch(package + r"-[\d.]+-(cp3\d+)-(cp3\d+t)-manylinux_2_(\d+)_x86_64\.whl", wheel.name)
    assert m and m.group(2) == m.group(1) + "t", wheel.name
    suffix = f".cpython-{m.group(1)[2:]}t-x86_64-linux-gnu.so"
    names = zipfile.ZipFile(wheel).namelist()
    natives = [n for n in names if n.rsplit("/", 1)[-1].startswith("_native.") and n.endswith(".so")]
    assert natives and all(n.endswith(suffix) for n in natives), natives
    assert not [n for n in names if n.endswith(".abi3.so")]
    catalogs = {
        "hip_python": ("hip/_releases.json", "releases"),
        "rocm_llvm_python": ("rocm/_bindings.json", None),
    }
    if package in catalogs:
        path, key = catalogs[package]
        catalog = json.loads(zipfile.ZipFile(wheel).read(path))
        entries = catalog[key] if key else [v for f in catalog["families"].values() for v in f["versions"]]
        files = [e["file"] for e in entries if e["file"]]
        folder = path.split("/")[0]
        assert files and all(f.endswith(suffix) and f"{folder}/{f}" in names for f in files)
    index = (DIST / "simple" / package.replace("_", "-") / "index.html").read_text()
    assert wheel.name in index and wheels(package)[0].name in index


def wheel_version(wheel):
    return wheel.name.split("-")[1]


def test_cuda_package_pins_the_exact_hip_python():
    (cuda_wheel,) = wheels("hip_python_as_cuda")
    (hip_wheel,) = wheels()
    meta = zipfile.ZipFile(cuda_wheel).read(
        f"hip_python_as_cuda-{wheel_version(cuda_wheel)}.dist-info/METADATA"
    )
    requires = [line for line in meta.decode().splitlines() if line.startswith("Requires-Dist:")]
    assert requires == [f"Requires-Dist: hip-python=={wheel_version(hip_wheel)}"]
    assert wheel_version(cuda_wheel) == wheel_version(hip_wheel)


@pytest.mark.parametrize("package", PACKAGES)
def test_auditwheel_accepts_the_tag(package):
    (wheel,) = wheels(package)
    out = subprocess.run(
        [sys.executable, "-m", "auditwheel", "show", str(wheel)], capture_output=True, text=True, check=True
    ).stdout
    tag = re.search(r'platform tag:\s*"manylinux_2_(\d+)_x86_64"', out.replace("\n", " "))
    assert tag and int(tag.group(1)) <= 28, out


def test_wheel_carries_no_source_tree_paths():
    (wheel,) = wheels()
    names = zipfile.ZipFile(wheel).namelist()
    assert "hip/__init__.py" in names and "hip/_util/types.py" in names
    assert any(re.fullmatch(r"hip/_native\.abi3\.so", n) for n in names)


@pytest.fixture(scope="module")
def fresh_venv(tmp_path_factory):
    """A new venv with our three packages installed from the wheelhouse in dist/ only."""
    root = tmp_path_factory.mktemp("venv")
    subprocess.run([sys.executable, "-m", "venv", str(root / "env")], check=True)
    py = root / "env" / "bin" / "python"
    # hip-python-as-cuda brings hip-python, resolved from the same wheelhouse.
    subprocess.run(
        [
            str(py),
            "-m",
            "pip",
            "install",
            "-q",
            "--no-index",
            "--find-links",
            str(DIST),
            "hip-python-as-cuda",
            "rocm-llvm-python",
        ],
        check=True,
    )
    return py


def run_outside(py, *args, env=None):
    """Runs in an empty folder with a clean environment, so no source tree is importable."""
    cwd = Path(os.environ.get("TMPDIR", "/tmp"))
    full_env = {"PATH": "/usr/bin:/bin", **(env or {})}
    return subprocess.run([str(py), *args], cwd=cwd, env=full_env, capture_output=True, text=True)


def test_fresh_venv_imports_the_installed_package(fresh_venv):
    out = run_outside(fresh_venv, "-c", "import hip, hip.hip; print(hip.__file__)")
    assert out.returncode == 0, out.stderr
    assert "site-packages" in out.stdout and str(REPO) not in out.stdout


def test_fresh_venv_runs_the_demo(fresh_venv):
    out = run_outside(fresh_venv, str(REPO / "examples" / "hiprtc_demo.py"))
    assert out.returncode == 0, out.stderr
    assert "AMD GPU ELF code object" in out.stdout


def test_fresh_venv_runs_cuda_python_code(fresh_venv):
    script = REPO / "examples" / "cuda_python" / "nvrtc_saxpy.py"
    out = run_outside(fresh_venv, str(script), env={"HIP_PYTHON_OFFLOAD_ARCH": "gfx90a"})
    assert out.returncode == 0, out.stderr
    assert "nvrtcCompileProgram: 0" in out.stdout and "code starts: b'\\x7fELF'" in out.stdout
    where = run_outside(
        fresh_venv,
        "-c",
        "import cuda.bindings as b; print(b.__file__, b.HIP_PYTHON_VERSION, b.__version__)",
    )
    assert "site-packages" in where.stdout and str(REPO) not in where.stdout
    _, ours, api = where.stdout.split()
    assert ours == wheel_version(wheels("hip_python_as_cuda")[0])
    # The cuda-bindings release whose API the modules implement (13 by default), as
    # programs written for cuda-bindings check it.
    assert api.startswith("13.") and api != "13.0.0"


def test_doctor_reports_libraries_and_symbols(fresh_venv):
    out = run_outside(fresh_venv, "-m", "hip", "doctor")
    assert out.returncode == 0, out.stderr
    assert f"hip-python {SESSION_RELEASE}." in out.stdout
    assert re.search(r"hip\.hip: library 'amdhip64'\n  loaded from \S*libamdhip64\.so", out.stdout)
    # Outside the test session's choice, this machine's HIP 5.2 runtime picks the ROCm 5
    # bindings the wheel carries; 5.2 lacks some of 5.7's functions.
    assert re.search(r"bindings: ROCm 5\.\d+\.\d+ \(\S*libamdhip64\.so\S* is ROCm 5\.x\)", out.stdout)
    assert re.search(r"symbols: \d+/\d+ resolve", out.stdout)
    assert "status: OK" in out.stdout
    # Libraries of this machine's ROCm 5.2 that exist (hipSPARSE) load; others are optional.
    assert re.search(r"hip\.hipsparse: library 'hipsparse'\n  loaded from", out.stdout)
    assert "hip.hipblas: library 'hipblas'\n  NOT LOADED (optional" in out.stdout
    strict = run_outside(fresh_venv, "-m", "hip", "doctor", "--strict")
    assert strict.returncode == 1


def test_rocm_doctor_reports_comgr_and_llvm(fresh_venv):
    # This machine's comgr 2.4 and LLVM 19, each with the wheel's bindings of its version,
    # chosen with no variable set.
    out = run_outside(fresh_venv, "-m", "rocm", "doctor")
    assert out.returncode == 0, out.stdout + out.stderr
    assert f"rocm-llvm-python {SESSION_RELEASE}." in out.stdout
    assert re.search(
        r"library 'amd_comgr': 1 module\(s\): rocm.amd_comgr.amd_comgr\n"
        r"  bindings: version 2 \(ROCm [\d.]+'s; carried: 3, 2\): bindings of version 2\n  loaded from",
        out.stdout,
    )
    assert "amd_comgr_get_version: interface 2.4" in out.stdout and not out.stderr
    # Every LLVM module of the manifest but lto, which loads libLTO.
    llvm = next(lib for lib in MANIFEST["libraries"] if lib["name"] == "llvm")
    assert f"library 'LLVM': {len(llvm['modules']) - 1} module(s)" in out.stdout
    assert "bindings: version 19 (ROCm 6.4.3's; carried: 22, 19): bindings of version 19" in out.stdout
    assert "LLVMGetVersion: 19." in out.stdout
    assert "library 'LTO': 1 module(s): rocm.llvm.c.lto" in out.stdout
    assert "status: OK" in out.stdout
    bad = run_outside(
        fresh_venv, "-m", "rocm", "doctor", env={"ROCM_PYTHON_LIBLLVM": "/nonexistent/libLLVM.so"}
    )
    assert bad.returncode == 1 and "NOT LOADED" in bad.stdout and "/nonexistent/libLLVM.so" in bad.stdout


def test_fresh_venv_runs_llvm_through_lljit(fresh_venv):
    code = (
        "import ctypes\n"
        "from rocm.llvm.c import core, target, lljit, orc\n"
        "print(target.LLVMInitializeNativeTarget(), core.LLVMGetVersion()[0])\n"
    )
    out = run_outside(fresh_venv, "-c", code)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["0", "19"]


def test_doctor_fails_when_a_library_is_missing(fresh_venv):
    out = run_outside(
        fresh_venv, "-m", "hip", "doctor", env={"HIP_PYTHON_LIBHIPRTC": "/nonexistent/libhiprtc.so"}
    )
    assert out.returncode == 1
    assert "NOT LOADED" in out.stdout and "/nonexistent/libhiprtc.so" in out.stdout


@pytest.mark.parametrize("package", PACKAGES)
def test_wheelhouse_index_lists_the_package(package):
    index = (DIST / "simple" / package.replace("_", "-") / "index.html").read_text()
    assert wheels(package)[0].name in index


def test_cuda_sdist_carries_the_generated_tables():
    (sdist,) = DIST.glob("hip_python_as_cuda-*.tar.gz")
    with tarfile.open(sdist) as tar:
        names = tar.getnames()
    assert any(n.endswith(f"bindings/rocm-{SESSION_RELEASE}/cuda.rs") for n in names)
    assert any(n.endswith("cuda/_layer.py") for n in names)


def test_sdist_builds_from_checked_in_bindings(tmp_path):
    """No libclang, no headers: the sdist compiles the generated code it carries."""
    project = REPO / "hip-python"
    subprocess.run(
        [sys.executable, "-m", "maturin", "sdist", "--out", str(tmp_path)], cwd=project, check=True
    )
    (sdist,) = tmp_path.glob("hip_python-*.tar.gz")
    # A fresh target folder: sdists carry fixed file times, which a reused one would trust.
    env = {
        **os.environ,
        "LIBCLANG_PATH": "/nonexistent",
        "CARGO_TARGET_DIR": str(tmp_path / "target"),
        # Two modules prove the point in a third of the time of all nine.
        "HIPGEN_LIBS": "hip,hiprtc",
    }
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "-q",
            "--no-deps",
            "--no-build-isolation",
            str(sdist),
            "-w",
            str(tmp_path),
        ],
        check=True,
        env=env,
    )
    assert list(tmp_path.glob(f"hip_python-{SESSION_RELEASE}.*-cp310-abi3-*.whl"))
