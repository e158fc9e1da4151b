"""hip.hip against the real HIP 5.2.3 runtime of Debian bookworm (no GPU here)."""

import subprocess
import sys

import pytest

import hip as hip_package
from conftest import SESSION_RELEASE
from hip import hip


def test_device_count_is_no_device():
    status, count = hip.hipGetDeviceCount()
    assert status is hip.hipError_t.hipErrorNoDevice
    assert count == 0


def test_status_members_are_cached_enum_members():
    a, _ = hip.hipGetDeviceCount()
    b, _ = hip.hipGetDeviceCount()
    assert a is b and isinstance(a, hip.hipError_t)


def test_runtime_version():
    status, version = hip.hipRuntimeGetVersion()
    assert status == hip.hipError_t.hipSuccess
    assert version // 10_000_000 == 5  # 50221153 for 5.2.3


def test_error_strings():
    status, text = hip.hipGetErrorString(hip.hipError_t.hipErrorNoDevice)
    assert status is hip.hipError_t.hipSuccess
    # HIP 5.2 answers with the name, later releases with a sentence.
    assert text in (b"hipErrorNoDevice", b"no ROCm-capable device is detected")
    assert hip.hipGetErrorName(hip.hipError_t.hipErrorInvalidValue)[1] == b"hipErrorInvalidValue"
    assert hip.hipGetErrorName(100)[1] == b"hipErrorNoDevice"


def test_malloc_without_device_returns_status_and_none():
    status, ptr = hip.hipMalloc(1024)
    assert status in (hip.hipError_t.hipErrorNoDevice, hip.hipError_t.hipErrorInvalidDevice)
    assert ptr is None


def test_struct_out_parameter_by_user_struct():
    props = hip.hipDeviceProp_t()
    with pytest.raises(hip_package.HipLoadError) as e:
        hip.hipGetDeviceProperties(props, 0)
    # From ROCm 6.0 the API name resolves to another symbol, which 5.2 does not export.
    message = str(e.value)
    assert "hipGetDevicePropertiesR0600" in message and "amdhip64" in message
    assert isinstance(e.value, RuntimeError)


def test_missing_library_error_lists_where_we_looked():
    code = (
        "from hip import hip\n"
        "try:\n    hip.hipGetDeviceCount()\n"
        "except RuntimeError as e:\n    print(type(e).__name__)\n    print(e)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        env={"HIP_PYTHON_LIBAMDHIP64": "/nonexistent/libamdhip64.so", "PATH": "/usr/bin"},
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert out.startswith("HipLoadError")
    assert "/nonexistent/libamdhip64.so ($HIP_PYTHON_LIBAMDHIP64)" in out
    assert "amdhip64" in out and "ROCM_PATH" in out


def test_rocm_path_is_searched(tmp_path):
    """A runtime under $ROCM_PATH/lib is found there (before the system loader)."""
    import glob

    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "libamdhip64.so.5").symlink_to(glob.glob("/usr/lib/*/libamdhip64.so.5")[0])
    code = "from hip import _native\nprint([r for r in _native.libraries() if r[0] == 'hip'][0])"
    env = {"ROCM_PATH": str(tmp_path), "PATH": "/usr/bin", "LD_LIBRARY_PATH": ""}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True).stdout
    assert f"'{tmp_path}/lib/libamdhip64.so.5'" in out and "True" in out


def test_module_constants():
    assert hip.hipDeviceScheduleAuto == 0
    assert hip.HIP_LAUNCH_PARAM_BUFFER_POINTER == 1
    assert hip.HIP_LAUNCH_PARAM_END == 3
    release = tuple(int(p) for p in SESSION_RELEASE.split("."))
    assert hip.HIP_VERSION_MAJOR == release[0] and hip_package.ROCM_VERSION_TUPLE == release


def test_stream_handle_type_and_alias():
    assert hip.hipStream_t is hip.ihipStream_t
    assert issubclass(hip.ihipStream_t, hip_package._native.Pointer)
    status, stream = hip.hipStreamCreate()
    assert status != hip.hipError_t.hipSuccess and stream is None


def test_docstrings_come_from_the_headers():
    assert "Allocate memory on the default accelerator" in hip.hipMalloc.__doc__
    assert "Returns:" in hip.hipMalloc.__doc__


def test_plain_return_gets_success_first():
    status, name = hip.hipApiName(0)
    assert status == hip.hipError_t.hipSuccess and isinstance(name, bytes)


def _libraries_with(tmp_path, find_libraries_body, extra_env=None):
    """`hip._native.libraries()` in a subprocess that sees a stand-in `rocm_sdk` module.

    TheRock's `rocm` wheels cannot be installed on this machine; the stand-in has the same
    `find_libraries(name)` entry point the loader calls.
    """
    (tmp_path / "rocm_sdk.py").write_text(f"def find_libraries(*names):\n    {find_libraries_body}\n")
    code = "from hip import _native\nfor row in _native.libraries():\n    print(row)\n"
    env = {"PYTHONPATH": str(tmp_path), "PATH": "/usr/bin", **(extra_env or {})}
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True).stdout


def test_rocm_sdk_libraries_come_before_the_system(tmp_path):
    import glob

    real = glob.glob("/usr/lib/*/libamdhip64.so.5")[0]
    out = _libraries_with(tmp_path, f"return [{real!r}] if 'amdhip64' in names else []")
    assert f"('hip', 'amdhip64', True, '{real}')" in out


def test_explicit_override_wins_over_rocm_sdk(tmp_path):
    out = _libraries_with(
        tmp_path, "return ['/nonexistent/x.so']", {"HIP_PYTHON_LIBAMDHIP64": "/nonexistent/y.so"}
    )
    (hip_row,) = [row for row in out.splitlines() if row.startswith("('hip', 'amdhip64'")]
    assert "/nonexistent/y.so ($HIP_PYTHON_LIBAMDHIP64)" in hip_row and "x.so" not in hip_row


def test_release_mismatch_is_warned_once():
    """The default release's bindings on the 5.2.3 runtime, chosen by HIP_PYTHON_ROCM_RELEASE (conftest.py):
    enums renumbered since (hipDeviceAttribute_t) could mean something else, so loading warns,
    once; a warning filter that makes it an error makes the library fail to load."""
    code = "from hip import hip\nhip.hipGetDeviceCount()\nhip.hipGetDeviceCount()\n"
    out = subprocess.run(
        [sys.executable, "-W", "always", "-c", code], capture_output=True, text=True, check=True
    )
    assert out.stderr.count("RuntimeWarning") == 1
    major = SESSION_RELEASE.split(".")[0]
    assert f"is ROCm 5.x, but the bindings in use are of ROCm {major}.x" in out.stderr
    strict = subprocess.run([sys.executable, "-W", "error::RuntimeWarning", "-c", code], capture_output=True)
    assert strict.returncode != 0
