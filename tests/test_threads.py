"""Threads: calls made from many threads at once answer as one thread's do; under a
free-threaded interpreter (tools/freethreaded-python.sh) the GIL stays off with every module of
the three packages imported; hiprtc compiles in parallel where its release can, and one at a
time where it cannot, as the loaded library's version says."""

import json
import os
import re
import subprocess
import sys
import sysconfig

import pytest

from conftest import IN_ROOT, REPO, manifest
from hip import hiprtc

#: The releases hip-python carries (the default one first).
RELEASES = [manifest.load(folder)["release"] for folder in manifest.shipped()]
FREE_THREADED = bool(sysconfig.get_config_var("Py_GIL_DISABLED"))

IMPORT_EVERYTHING = """
import importlib, json, pkgutil, sys, warnings
warnings.simplefilter("error", RuntimeWarning)  # CPython warns when a module turns the GIL on
failed, names = [], []
def load(name):
    try:
        importlib.import_module(name)
        names.append(name)
    except Exception as e:
        failed.append(f"{name}: {type(e).__name__}: {e}")
for top in ("hip", "cuda", "rocm"):
    package = importlib.import_module(top)
    # The Python files, then the generated modules each extension publishes (not files).
    for info in pkgutil.walk_packages(package.__path__, top + "."):
        if not info.name.endswith(".__main__"):  # a command line, not a module to import
            load(info.name)
    native = importlib.import_module(top + "._native")
    for rust_name in getattr(native, "MODULES", ()):
        load(getattr(native, rust_name).__name__)
print(json.dumps({"gil": sys._is_gil_enabled(), "imported": names, "failed": failed}))
"""


@pytest.mark.skipif(not FREE_THREADED, reason="needs a free-threaded interpreter")
@pytest.mark.parametrize("release", RELEASES)
def test_the_gil_stays_off_with_every_module_imported(release):
    # Each release's extension the wheel carries (hip._select loads one per process).
    env = {k: v for k, v in os.environ.items() if k != "PYTHON_GIL"}
    if not IN_ROOT:
        env["HIP_PYTHON_ROCM_RELEASE"] = release
    out = subprocess.run([sys.executable, "-c", IMPORT_EVERYTHING], capture_output=True, text=True, env=env)
    assert out.returncode == 0, out.stderr[-3000:]
    result = json.loads(out.stdout)
    # Modules a package keeps for programs that have their dependencies (numba-hip's target
    # needs numba) may fail; none may turn the GIL on, which the warning filter makes an error.
    assert not [f for f in result["failed"] if "GIL" in f], result["failed"]
    assert {"hip.hip", "hip.hiprtc", "cuda.bindings.runtime", "rocm.amd_comgr.amd_comgr"} <= set(
        result["imported"]
    )
    assert result["gil"] is False


def test_extensions_declare_they_run_without_the_gil():
    # What makes the free-threaded build keep the GIL off: each extension module's
    # `Py_mod_gil` slot (PyO3's `gil_used = false`). Read from the sources every wheel builds.
    for crate in ("hip-python", "hip-python-as-cuda", "rocm-llvm-python"):
        source = (REPO / crate / "src" / "lib.rs").read_text()
        assert "#[pymodule(gil_used = false)]" in source, crate


def test_threads_hammering_the_bindings_get_one_threads_answers():
    # tools/stress_threads.py checks each answer against one thread's; a short run here, the
    # 30-second runs with 8 to 32 threads are docs/threads.md's.
    out = subprocess.run(
        [sys.executable, str(REPO / "tools" / "stress_threads.py"), "--threads", "8", "--seconds", "6"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert result["rounds"] > 0 and not result["failures"]
    assert result["gil_enabled"] is (not FREE_THREADED)


def test_hiprtc_takes_its_lock_exactly_where_its_release_cannot_compile_in_parallel():
    import hip._native as native

    # The release is the loaded file's (libamdhip64.so.5 here, libhiprtc.so.6 and .7 in the
    # roots): hiprtcVersion answers 9.0 in all three, so it cannot tell them apart.
    if native.platform() == "nvidia":
        # NVRTC underneath, which is thread-safe.
        assert dict(native.serialized_calls())["hiprtc"] is False
        return
    assert hiprtc.hiprtcVersion()[1:] == (9, 0)
    (path,) = [p for module, _, loaded, p in native.libraries() if module == "hiprtc" and loaded]
    major = int(re.search(r"\.so\.(\d+)", os.path.realpath(path) if "/" in path else path).group(1))
    forced = os.environ.get("HIP_PYTHON_PARALLEL_COMPILE") == "1"
    assert dict(native.serialized_calls())["hiprtc"] is (major < 6 and not forced)
    # Libraries whose spec says nothing of the kind are not listed.
    assert "hip" not in dict(native.serialized_calls())


FOUR_THREADS = """
import threading
from hip import hiprtc
SRC = b'extern "C" __global__ void k(float *x, float a) { x[threadIdx.x] *= a; }'
codes, errors = [], []
def job(i):
    try:
        for _ in range(2):
            status, prog = hiprtc.hiprtcCreateProgram(SRC, b"k.cu", 0, None, None)
            (status,) = hiprtc.hiprtcCompileProgram(prog, 1, [b"--offload-arch=gfx90a"])
            assert status == hiprtc.hiprtcResult.HIPRTC_SUCCESS, status
            _, size = hiprtc.hiprtcGetCodeSize(prog)
            code = bytearray(size)
            hiprtc.hiprtcGetCode(prog, code)
            hiprtc.hiprtcDestroyProgram(prog)
            codes.append(bytes(code))
    except BaseException as e:
        errors.append(repr(e))
threads = [threading.Thread(target=job, args=(i,)) for i in range(4)]
for t in threads: t.start()
for t in threads: t.join()
assert not errors, errors
assert len(codes) == 8 and all(c[:4] == b"\\x7fELF" for c in codes), [c[:4] for c in codes]
print(len(set(len(c) for c in codes)))
"""


def test_four_threads_compile_at_once_on_every_release():
    # Serialized on HIP 5.2 (here), in parallel on ROCm 6.4.3 and 7.2.4 (tools/test.sh runs
    # this file in their roots): each thread's code object is whole. A fresh process each time,
    # as the compiler's crashes were.
    for _ in range(2):
        out = subprocess.run(
            [sys.executable, "-c", FOUR_THREADS], capture_output=True, text=True, timeout=600
        )
        assert out.returncode == 0, out.stderr[-3000:]
        # The same source and options give code objects of one size.
        assert out.stdout.strip() == "1"


def test_thread_local_caches_answer_the_same_objects_within_a_thread():
    # The C-string and result-tuple caches are per thread: within one thread the same error
    # string is the same object (no allocation), and another thread gets an equal one.
    import threading

    from hip import hip

    err = hip.hipError_t.hipErrorInvalidValue
    first, second = hip.hipGetErrorString(err), hip.hipGetErrorString(err)
    assert first is second
    other = []
    t = threading.Thread(target=lambda: other.append(hip.hipGetErrorString(err)))
    t.start()
    t.join()
    assert other[0] == first


def test_stand_ins_registered_in_one_thread_are_seen_in_another():
    # The one registry shared by all threads (enum stand-ins, behind a lock): the cuda
    # package's enums pass where HIP's are taken, whichever thread asks first.
    import threading

    from cuda.bindings import runtime

    from hip import hip

    answers = []

    def ask():
        answers.append(hip.hipGetErrorString(runtime.cudaError_t.cudaErrorInvalidValue))

    threads = [threading.Thread(target=ask) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert answers == [hip.hipGetErrorString(hip.hipError_t.hipErrorInvalidValue)] * 4


def test_the_import_walk_reaches_the_generated_modules():
    # The GIL test above imports what this walk finds: the packages' files and the modules
    # their extensions publish.
    env = dict(os.environ)
    out = subprocess.run(
        [sys.executable, "-c", IMPORT_EVERYTHING.replace("sys._is_gil_enabled()", "None")],
        capture_output=True,
        text=True,
        env=env,
    )
    assert out.returncode == 0, out.stderr[-3000:]
    imported = set(json.loads(out.stdout)["imported"])
    assert {"hip.hip", "hip.hiprtc", "hip.core", "cuda.bindings.driver", "rocm.llvm.c.core"} <= imported
