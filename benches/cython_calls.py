"""A Cython loop calling `hipGetErrorString` and `hipGetDevice`: through our `.pxd`
(`cimport hip.chip`, the lazily resolving trampolines), through a plain C function pointer to
the same library's function (the floor), and through hip-python 6.4.3's `.pxd` (its Cython
path, where `.venv-anchor` has it), in one run on one machine.

    python benches/cython_calls.py [N]        (N calls per loop, default 100,000)

Each extension is built in a temporary folder with Cython and the system's C compiler; each
figure is the best of 5 loops, in ns per call. Results: docs/performance.md.
"""

import os
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
ANCHOR = REPO / ".venv-anchor" / "bin" / "python"
#: hip-python's `.pxd` includes ROCm's headers: those of its release (tools/setup.sh).
ROCM_643 = REPO / ".rocm" / "6.4.3" / "usr" / "include"

LOOPS = """
from libc.stdint cimport int64_t
from time import perf_counter_ns

cdef int64_t loop_device(int64_t n):
    cdef int d = 0
    cdef int64_t i
    cdef int64_t t0 = perf_counter_ns()
    for i in range(n):
        GET_DEVICE(&d)
    return perf_counter_ns() - t0

cdef int64_t loop_string(int64_t n):
    cdef int64_t i
    cdef const char *s = NULL
    cdef int64_t t0 = perf_counter_ns()
    for i in range(n):
        s = GET_STRING(<ERR>1)
    return perf_counter_ns() - t0

def run(int64_t n):
    prepare()
    device = min([loop_device(n) for _ in range(5)])
    string = min([loop_string(n) for _ in range(5)])
    return device / n, string / n
"""

OURS = "from hip cimport chip\ncdef void prepare():\n    pass\n" + LOOPS.replace(
    "GET_DEVICE", "chip.hipGetDevice"
).replace("GET_STRING", "chip.hipGetErrorString").replace("ERR", "chip.hipError_t")

# The floor: the library's own functions through plain pointers, at the addresses the
# bindings' loader resolves in that process (the library the bindings chose; on NVIDIA, the
# shim), asked once of the loader capsule the `.pxd` trampolines use (`hip._c_lookup()`).
POINTER = textwrap.dedent(
    """
        from cpython.pycapsule cimport PyCapsule_GetPointer
        ctypedef int (*get_device_t)(int *) noexcept nogil
        ctypedef const char *(*get_string_t)(int) noexcept nogil
        ctypedef void *(*lookup_t)(const char *, const char *, const char *) noexcept
        cdef get_device_t get_device
        cdef get_string_t get_string
        cdef void prepare():
            global get_device, get_string
            cdef lookup_t lookup
            import hip
            from hip import hip as h
            h.hipGetDevice()
            lookup = <lookup_t>PyCapsule_GetPointer(hip._c_lookup(), b"hip._c_lookup")
            release = hip.ROCM_VERSION_NAME.encode()
            get_device = <get_device_t>lookup(release, b"hip", b"hipGetDevice")
            get_string = <get_string_t>lookup(release, b"hip", b"hipGetErrorString")
        """
) + LOOPS.replace("GET_DEVICE", "get_device").replace("GET_STRING", "get_string").replace("ERR", "int")


SETUP = """
import sys
from Cython.Build import cythonize
from setuptools import Extension, setup
setup(ext_modules=cythonize([Extension("{name}", ["{name}.pyx"], include_dirs={include!r},
      define_macros=[("__HIP_PLATFORM_AMD__", "1")])], include_path=sys.path,
      compiler_directives={{"language_level": 3}}), script_args=["build_ext", "--inplace", "-q"])
"""


def measure(python, name, source, n, env=None, include=()):
    """(ns per hipGetDevice, ns per hipGetErrorString) of extension `name` under `python`
    (`include`: C include folders, which hip-python's `.pxd` needs: ROCm's headers)."""
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / f"{name}.pyx").write_text(source)
        (Path(tmp) / "setup.py").write_text(SETUP.format(name=name, include=list(include)))
        out = subprocess.run([python, "setup.py"], cwd=tmp, capture_output=True, text=True, env=env)
        if out.returncode:
            raise RuntimeError(f"{name}: {out.stderr[-2000:]}")
        run = subprocess.run(
            [python, "-c", f"import {name}; print(*{name}.run({n}))"],
            cwd=tmp,
            capture_output=True,
            text=True,
            env=env,
            check=True,
        )
        return tuple(float(x) for x in run.stdout.split()[-2:])


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    import hip
    from hip import hip as hip_module

    hip_module.hipGetDevice()  # loads the library the bindings chose
    env = dict(os.environ)
    rows = [
        ("plain function pointer", measure(sys.executable, "ptr", POINTER, n, env)),
        (f"ours: cimport hip.chip ({hip.__version__})", measure(sys.executable, "ours", OURS, n, env)),
    ]
    if ANCHOR.exists():
        anchor_env = {k: v for k, v in env.items() if not k.startswith("HIP_PYTHON")}
        try:
            rows.append(
                (
                    "hip-python 6.4.3: cimport hip.chip (ROCm 6.4.3's headers)",
                    measure(str(ANCHOR), "anchor", OURS, n, anchor_env, [str(ROCM_643)]),
                )
            )
        except (RuntimeError, subprocess.CalledProcessError) as e:
            print(f"hip-python 6.4.3's Cython path not measured: {e}", file=sys.stderr)
    floor = rows[0][1]
    print(
        f"| path ({n:,} calls per loop, best of 5) | hipGetDevice ns | ratio | hipGetErrorString ns | ratio |"
    )
    print("| --- | --- | --- | --- | --- |")
    for label, (device, string) in rows:
        print(
            f"| {label} | {device:.1f} | {device / floor[0]:.2f} | {string:.1f} | {string / floor[1]:.2f} |"
        )


if __name__ == "__main__":
    main()
