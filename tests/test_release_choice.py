"""One installed wheel, several ROCm releases: the bindings each process uses are those of the
HIP runtime it finds (hip._select), chosen on first use and overridable.

Runs in subprocesses, each with its own choice: bookworm's HIP 5.2.3 runtime is what loads
here, so without an override the ROCm 5.x bindings serve."""

import json
import os
import shutil
import subprocess
import sys

import pytest

import hip
from conftest import manifest

CATALOG = hip._select.CATALOG
CARRIED = [r["release"] for r in CATALOG["releases"]]
multi = pytest.mark.skipif(len(CARRIED) < 2, reason="this build carries one release")


def run(code, **env):
    # Without the session's choice (conftest.py): the process chooses for itself.
    full = {
        k: v for k, v in os.environ.items() if k not in ("HIP_PYTHON_ROCM_RELEASE", "HIP_PYTHON_LIBHIPRTC")
    }
    full.update(env)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=full)
    return out


def test_the_wheel_carries_one_release_per_major_version_newest_default():
    majors = [r.split(".")[0] for r in CARRIED]
    assert len(set(majors)) == len(majors)
    default = [r for r in CATALOG["releases"] if r["default"]]
    assert len(default) == 1
    # The version of the package is the default release's, as hip-python numbers its wheels.
    assert CATALOG["version"].startswith(default[0]["release"] + ".")


def test_importing_loads_no_bindings_until_first_use():
    out = run(
        "import sys, hip, hip.hip\n"
        "from hip import hiprtc\n"
        "print(hip._select._state is None, type(sys.modules['hip.hip']).__name__)\n"
        "hip.hip.hipGetErrorString\n"
        "print(hip._select._state is not None, sys.modules['hip.hip'] is hip.hip)\n"
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["True", "Placeholder", "True", "True"]


def test_a_lazy_module_imported_before_hip_does_not_disturb_the_choice():
    # CuPy's lazy modules import when asked their `__class__` (as `isinstance` does): the
    # first hip call must neither trigger that nor fail while sys.modules grows under it.
    code = (
        "import sys, types\n"
        "class Lazy(types.ModuleType):\n"
        "    def __getattribute__(self, name):\n"
        "        if name == '__class__':\n"
        "            sys.modules.setdefault('lazy_loaded', types.ModuleType('lazy_loaded'))\n"
        "        return super().__getattribute__(name)\n"
        "sys.modules['lazy_neighbour'] = Lazy('lazy_neighbour')\n"
        "import hip\n"
        "from hip import hip as h\n"
        "print(h.hipGetErrorName(h.hipError_t.hipSuccess)[1], 'lazy_loaded' in sys.modules)\n"
    )
    out = run(code)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["hipSuccess", "False"]


@multi
def test_the_runtime_here_picks_the_rocm5_bindings_which_then_work():
    code = (
        "import hip\nfrom hip import hip as h, hiprtc\n"
        "print(h.__rocm_release__, hiprtc.__rocm_release__, hip.ROCM_VERSION_NAME)\n"
        "print(hip._select.chosen()['reason'])\n"
        "status, version = h.hipRuntimeGetVersion()\n"
        "print(status.name, version // 10_000_000)\n"
        "src = b'extern \"C\" __global__ void k(float* x) { x[0] = 1.0f; }'\n"
        "status, prog = hiprtc.hiprtcCreateProgram(src, b'k.cu', 0, None, None)\n"
        "status, = hiprtc.hiprtcCompileProgram(prog, 1, [b'--offload-arch=gfx90a'])\n"
        "status, size = hiprtc.hiprtcGetCodeSize(prog)\n"
        "print(status.name, size > 1000)\n"
    )
    out = run(code)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    five = next(r for r in CARRIED if r.startswith("5."))
    assert lines[0].split() == [five, five, five]
    assert "ROCm 5.x" in lines[1]
    assert lines[2] == "hipSuccess 5"
    assert lines[3] == "HIPRTC_SUCCESS True"
    # No warning: the bindings match the runtime.
    assert "RuntimeWarning" not in out.stderr


@multi
def test_hip_python_rocm_release_overrides_with_a_warning_on_a_mismatch():
    newest = CARRIED[0]
    out = run(
        "from hip import hip as h\nprint(h.__rocm_release__)\nprint(h.hipRuntimeGetVersion()[0].name)\n",
        HIP_PYTHON_ROCM_RELEASE=newest.split(".")[0],
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == [newest, "hipSuccess"]
    assert "is ROCm 5.x, but the bindings in use are of ROCm" in out.stderr


def test_an_unknown_release_is_a_clear_error():
    out = run(
        "import hip\nfrom hip import hip as h\n"
        "try:\n    h.hipRuntimeGetVersion\nexcept hip.HipLoadError as e:\n    print(e)\n",
        HIP_PYTHON_ROCM_RELEASE="42",
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("HIP_PYTHON_ROCM_RELEASE=42: this wheel carries bindings of ROCm")


@multi
@pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc")
def test_a_runtime_of_a_release_the_wheel_lacks_is_an_error_naming_both(tmp_path):
    # A stand-in HIP runtime that says it is ROCm 9.
    src = tmp_path / "fake.c"
    src.write_text("int hipRuntimeGetVersion(int *v) { *v = 90012345; return 0; }\n")
    lib = tmp_path / "libamdhip64.so.9"
    subprocess.run(["gcc", "-shared", "-fPIC", "-o", str(lib), str(src)], check=True)
    out = run(
        "import hip\nfrom hip import hip as h\n"
        "for _ in range(2):\n"
        "    try:\n        h.hipGetErrorString\n    except hip.HipLoadError as e:\n        print(e)\n",
        HIP_PYTHON_LIBAMDHIP64=str(lib),
    )
    assert out.returncode == 0, out.stderr
    lines = [line for line in out.stdout.splitlines() if line]
    assert len(lines) == 2  # every use raises, not just the first
    assert f"the HIP runtime {lib} is ROCm 9.x" in lines[0]
    assert all(r in lines[0] for r in CARRIED)
    assert "HIP_PYTHON_ROCM_RELEASE" in lines[0]


@multi
def test_a_module_one_release_lacks_says_so():
    extra = sorted(set(CATALOG["releases"][0]["modules"]) - set(CATALOG["releases"][-1]["modules"]))
    if not extra:
        pytest.skip("every release has the same modules")
    oldest = CARRIED[-1]
    out = run(
        f"from hip import {extra[0]} as m\ntry:\n    m.anything\nexcept AttributeError as e:\n    print(e)\n",
        HIP_PYTHON_ROCM_RELEASE=oldest,
    )
    assert out.returncode == 0, out.stderr
    assert f"hip.{extra[0]} is not in the bindings of ROCm {oldest}" in out.stdout


def test_the_doctor_says_which_release_and_why():
    out = run("import sys\nfrom hip import _doctor\n_doctor.report()")
    assert "bindings: ROCm " in out.stdout, out.stdout


def test_releases_json_is_what_the_manifests_say():
    for entry in CATALOG["releases"]:
        m = manifest.load(manifest.BINDINGS / f"rocm-{entry['release']}")
        hip_lib = next(lib for lib in m["libraries"] if lib["name"] == "hip")
        assert entry["probe"] == hip_lib["loads"]
        assert json.dumps(entry["probe"]["sonames"]).count(".so.") >= 1
