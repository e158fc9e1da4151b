"""Programs written for hip-python run here as they do there.

Each idiom of hip-python's user guide and API manual (tests/idioms.py) gives what the real
hip-python 6.4.3 gives: the fixture was recorded under it, and when `.venv-anchor` holds it
(tools/setup.sh) the comparison is made again live. The conventions hip-python crashes on
(a handle passed where C takes its address, a too-small buffer, a struct of another type)
give a result or a clear exception here; those run in a child process, so a crash is a failure
and not the end of the test run.
"""

import ctypes
import json
import os
import subprocess
import sys

import numpy as np
import pytest
from idioms import IDIOMS, OURS, observe

from conftest import REPO
from hip import hip, hiprand, hiprtc, hipsparse
from hip._util.types import CStr, Pointer

FIXTURE = REPO / "tests" / "fixtures" / "hip_python_idioms_6.4.3.json"
ANCHOR = REPO / ".venv-anchor"
RTC_OK = hiprtc.hiprtcResult.HIPRTC_SUCCESS
KERNEL = b'extern "C" __global__ void scale(float *x, float f) { x[threadIdx.x] *= f; }'


@pytest.fixture(scope="module")
def recorded():
    return json.loads(FIXTURE.read_text())


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("name", sorted(IDIOMS))
def test_idiom_behaves_as_in_hip_python(name, recorded):
    expected = OURS.get(name, recorded[name])
    assert observe(IDIOMS[name]) == expected


def test_fixture_is_what_hip_python_does():
    """The recorded behaviour is hip-python 6.4.3's own, observed again now."""
    python = ANCHOR / "bin" / "python"
    if not python.exists():
        pytest.skip("hip-python 6.4.3 is not installed in .venv-anchor (tools/setup.sh)")
    env = dict(os.environ, LD_LIBRARY_PATH=str(ANCHOR / "hiprtc"), PYTHONWARNINGS="ignore")
    out = subprocess.run(
        [str(python), str(REPO / "tests" / "idioms.py")],
        capture_output=True,
        text=True,
        env=env,
        cwd="/",
        check=True,
    )
    assert json.loads(out.stdout) == json.loads(FIXTURE.read_text())


def run_isolated(code):
    """Runs `code` in a child interpreter; returns (exit code, stdout)."""
    proc = subprocess.run(
        [sys.executable, "-W", "ignore", "-c", code], capture_output=True, text=True, timeout=120
    )
    return proc.returncode, proc.stdout.strip()


# Handles: the argument's type decides, never a second `&`.


def test_destroy_program_through_create_ref_and_through_the_handle():
    code = f"""
from hip import hiprtc
err, a = hiprtc.hiprtcCreateProgram({KERNEL!r}, b"a", 0, [], [])
err, b = hiprtc.hiprtcCreateProgram({KERNEL!r}, b"b", 0, [], [])
print(hiprtc.hiprtcDestroyProgram(a.createRef())[0].name)
print(hiprtc.hiprtcDestroyProgram(b)[0].name)
"""
    assert run_isolated(code) == (0, "HIPRTC_SUCCESS\nHIPRTC_SUCCESS")


def test_handle_by_reference_is_written_back():
    """C may change the handle it is given by address: the object sees what C left."""
    err, prog = hiprtc.hiprtcCreateProgram(KERNEL, b"k", 0, [], [])
    before = int(prog)
    assert hiprtc.hiprtcDestroyProgram(prog) == (RTC_OK,)
    # HIP 5.2 leaves the slot as it was; any value C writes would show here instead.
    assert int(prog) in (before, 0)


def test_handle_by_reference_takes_an_int_address():
    import ctypes

    err, prog = hiprtc.hiprtcCreateProgram(KERNEL, b"k", 0, [], [])
    slot = ctypes.c_void_p(int(prog))
    assert hiprtc.hiprtcDestroyProgram(ctypes.addressof(slot)) == (RTC_OK,)


def test_hipsparse_descriptor_created_through_create_ref_destroyed_through_handle():
    descr = Pointer()
    assert hipsparse.hipsparseCreateMatDescr(descr.createRef())[0].name == "HIPSPARSE_STATUS_SUCCESS"
    assert not descr.is_ptr_null
    assert hipsparse.hipsparseDestroyMatDescr(descr)[0].name == "HIPSPARSE_STATUS_SUCCESS"


# Buffers and structs where C writes a known size: checked before the call.


def test_too_small_buffer_for_a_struct_is_a_value_error():
    code = """
from hip import hip
try:
    hip.hipPointerGetAttributes(bytearray(4), 0)
except ValueError as e:
    print("ValueError", "too small" in str(e))
"""
    assert run_isolated(code) == (0, "ValueError True")


def test_struct_of_another_type_is_a_type_error():
    with pytest.raises(TypeError, match="hipPointerAttribute_t"):
        hip.hipPointerGetAttributes(hip.dim3(), 0)


def test_struct_of_the_right_type_and_large_buffers_are_accepted():
    attrs = hip.hipPointerAttribute_t()
    assert isinstance(hip.hipPointerGetAttributes(attrs, 0)[0], hip.hipError_t)
    big = bytearray(attrs.c_sizeof())
    assert isinstance(hip.hipPointerGetAttributes(big, 0)[0], hip.hipError_t)
    # An explicit address stays the caller's to vouch for.
    assert isinstance(hip.hipPointerGetAttributes(Pointer(attrs), 0)[0], hip.hipError_t)


def test_too_small_buffer_for_numbers_is_a_value_error():
    # Checked before C is called: a NULL generator never reaches hipRAND.
    with pytest.raises(ValueError, match="too small"):
        hiprand.hiprandGenerateUniform(None, bytearray(2), 1)
    with pytest.raises(ValueError, match="too small"):
        hip.hipExtStreamGetCUMask(None, 1, bytearray(2))
    # One uint32 is enough; an empty array stands for a count of 0. Both reach the runtime.
    assert isinstance(hip.hipExtStreamGetCUMask(None, 1, np.zeros(1, np.uint32))[0], hip.hipError_t)
    assert isinstance(hip.hipExtStreamGetCUMask(None, 0, np.zeros(0, np.uint32))[0], hip.hipError_t)


# C strings.


def test_cstr_results_are_bytes_whose_str_is_the_text():
    err, s = hip.hipGetErrorName(hip.hipError_t.hipErrorNoDevice)
    assert isinstance(s, CStr) and isinstance(s, bytes)
    assert str(s) == "hipErrorNoDevice" and s == b"hipErrorNoDevice"
    assert hash(s) == hash(b"hipErrorNoDevice")
    # The buffer protocol, as hip-python's CStr exports one.
    assert b"NoDevice" in s and memoryview(s).nbytes == len(s) == 16
    assert ctypes.string_at(int(s)) == b"hipErrorNoDevice"
    # The same static string gives the same object: no new copy per call.
    assert hip.hipGetErrorName(hip.hipError_t.hipErrorNoDevice)[1] is s


def test_cstr_lowered_name_outlives_its_program():
    err, prog = hiprtc.hiprtcCreateProgram(
        b"template<int N> __global__ void k(int *x) { x[0] = N; }", b"k", 0, [], []
    )
    hiprtc.hiprtcAddNameExpression(prog, b"k<7>")
    assert hiprtc.hiprtcCompileProgram(prog, 1, [b"--offload-arch=gfx90a"]) == (RTC_OK,)
    err, name = hiprtc.hiprtcGetLoweredName(prog, b"k<7>")
    hiprtc.hiprtcDestroyProgram(prog)
    assert str(name) == "_Z1kILi7EEvPi"


def test_cstr_as_argument():
    err, prog = hiprtc.hiprtcCreateProgram(CStr(KERNEL), CStr(b"k"), 0, [], [])
    assert err == RTC_OK
    hiprtc.hiprtcDestroyProgram(prog)


# Numbers.


def test_integer_arguments_truncate_floats_and_refuse_the_rest():
    block = hip.dim3(x=32)
    assert hip.dim3(100 / block.x).x == 3
    assert hip.dim3(np.float32(4.5)).x == 4
    with pytest.raises(ValueError):
        hip.dim3(float("nan"))
    with pytest.raises(OverflowError):
        hip.dim3(float("inf"))
    with pytest.raises(OverflowError):
        hip.dim3(2.0**40)
    with pytest.raises(TypeError):
        hip.hipSetDevice("0")
    with pytest.raises(TypeError):
        hip.hipSetDevice(None)
