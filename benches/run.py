#!/usr/bin/env python3
"""Our bindings against AMD's hip-python 6.4.3, hip-python 7.2.2 and rocm-bindings 10.0, side
by side on the same runtime, in one run.

    python3 benches/run.py [--skip-build]

Needs tools/setup.sh and ./build_pkgs.sh first (our wheels installed in .venv). Installs
hip-python, hip-python-interop and rocm-llvm-python 6.4.3 from PyPI into
target/bench-hip-python, hip-python 7.2.2 into target/bench-hip-python-7.2.2 and
rocm-bindings 10.0 (with its hip-python 10.0 shim) into target/bench-rocm-bindings-10.0, then
measures per-call overhead (all four, taking turns for BENCH_ROUNDS rounds, 3 by default, the
fastest of each kept), import time (all four for hip + hiprtc), installed size,
hiprtc compile throughput with 1 and 2 threads, generation time and a clean release build,
and prints a Markdown table (also written to benches/RESULTS.md).
"""

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
OURS = REPO / ".venv" / "bin" / "python"
THEIRS_ENV = REPO / "target" / "bench-hip-python"
THEIRS = THEIRS_ENV / "bin" / "python"
# Rounds of the per-call measurements (the packages in turn, the fastest of each kept).
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "3"))
HIP_PYTHON = "hip-python==6.4.3.555.40"
OTHER_PACKAGES = ["hip-python-interop==6.4.3.555.40", "rocm-llvm-python==6.4.3.555.43"]
MODULES = ("hip", "hiprtc", "hipblas", "hipsparse", "rccl", "hiprand", "hipfft", "hipsolver", "roctx")
LIBS = ",".join(MODULES)


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, capture_output=True, text=True, **kw).stdout


SHIM = REPO / "target" / "bench-libs"


def runtime_shim():
    """hip-python opens hiprtc only as `libhiprtc.so`, which ROCm 5.2 does not have (hiprtc is
    inside libamdhip64.so.5): a symlink lets both packages run on this same runtime."""
    SHIM.mkdir(parents=True, exist_ok=True)
    link = SHIM / "libhiprtc.so"
    if not link.exists():
        target = next(Path("/usr/lib").rglob("libamdhip64.so.5"))
        link.symlink_to(target)


def clean_env(**extra):
    """A neutral environment, so neither interpreter sees the other's or the source tree's."""
    return {
        "PATH": "/usr/bin:/bin",
        "HOME": os.environ.get("HOME", "/root"),
        "LD_LIBRARY_PATH": str(SHIM),
        **extra,
    }


def ensure_hip_python():
    if not THEIRS.exists():
        subprocess.run([sys.executable, "-m", "venv", str(THEIRS_ENV)], check=True)
        run([str(THEIRS), "-m", "pip", "install", "-q", HIP_PYTHON, "numpy"])
    # Their CUDA layer and LLVM package, without dependencies (hip-python is there).
    have = run([str(THEIRS), "-m", "pip", "list", "--format=freeze"])
    missing = [r for r in OTHER_PACKAGES if r.split("==")[0] not in have]
    if missing:
        run([str(THEIRS), "-m", "pip", "install", "-q", "--no-deps", *missing])


#: The newer anchors, measured per call and for the import of hip + hiprtc: label -> (venv,
#: requirement). hip-python 10.0 is the shim over rocm-bindings-* 10.0 (pulled in with it).
NEWER = {
    "hip-python 7.2.2": (REPO / "target" / "bench-hip-python-7.2.2", "hip-python==7.2.2.562.43"),
    "rocm-bindings 10.0": (REPO / "target" / "bench-rocm-bindings-10.0", "hip-python==10.0.0.0.1.2"),
}


def ensure_newer():
    """The newer anchors' interpreters, installed once (None for one that does not install)."""
    pythons = {}
    for label, (env, requirement) in NEWER.items():
        python = env / "bin" / "python"
        if not python.exists():
            subprocess.run([sys.executable, "-m", "venv", str(env)], check=True)
            try:
                run([str(python), "-m", "pip", "install", "-q", requirement, "numpy"])
            except subprocess.CalledProcessError as e:
                print(f"{label} does not install: {e.stderr.strip()[-300:]}", file=sys.stderr)
                continue
        pythons[label] = python
    return pythons


def per_call_rounds(pythons):
    """Each package's measure.py figures, the packages taking turns for ROUNDS rounds (the
    order reversed every other round), the fastest of each figure kept: a burst of load on
    the machine then costs one round, not one package's whole column."""
    figures = {label: {} for label in pythons}
    for r in range(ROUNDS):
        order = list(pythons.items())
        for label, python in order if r % 2 == 0 else reversed(order):
            for name, ns in per_call(python).items():
                figures[label][name] = min(ns, figures[label].get(name, ns))
    return figures


def per_call(python):
    """measure.py's figures under `python` ({} if it cannot run there)."""
    try:
        return json.loads(
            run([str(python), str(REPO / "benches" / "measure.py")], cwd="/tmp", env=clean_env())
        )
    except subprocess.CalledProcessError as e:
        print(f"{python}: measure.py failed: {e.stderr.strip()[-300:]}", file=sys.stderr)
        return {}


def import_time(python, modules, n=15):
    """Median time of the imports, each `hip.<m>` or (with a dot or space) a statement."""
    stmts = [m if ("." in m or " " in m) else f"import hip.{m}" for m in modules]
    code = "import time; t = time.perf_counter(); " + "; ".join(stmts) + "; print(time.perf_counter() - t)"
    times = [float(run([str(python), "-c", code], cwd="/tmp", env=clean_env())) for _ in range(n)]
    return statistics.median(times) * 1e3


def site_packages(python):
    return Path(
        run(
            [str(python), "-c", "import hip, os; print(os.path.dirname(os.path.dirname(hip.__file__)))"],
            cwd="/tmp",
            env=clean_env(),
        ).strip()
    )


def installed_size(python, names):
    """Bytes of the installed files of the distributions `names` (RECORD lists them)."""
    site = site_packages(python)
    total = 0
    for dist in site.glob("*.dist-info"):
        if not any(dist.name.lower().startswith(n.replace("-", "_") + "-") for n in names):
            continue
        for line in (dist / "RECORD").read_text().splitlines():
            path = site / line.split(",")[0]
            if path.is_file():
                total += path.stat().st_size
    return total


COMPILE = """
import sys, threading, time
from hip import hiprtc
SRC = b'extern "C" __global__ void k(float* x, int n) { int i = threadIdx.x; if (i < n) x[i] *= 2; }'
def compile_one():
    _, prog = hiprtc.hiprtcCreateProgram(SRC, b"k.hip", 0, None, None)
    hiprtc.hiprtcCompileProgram(prog, 1, [b"--offload-arch=gfx90a"])
    hiprtc.hiprtcDestroyProgram(prog)
def batch(k):
    for _ in range(k):
        compile_one()
compile_one()
jobs = 6
t = time.perf_counter(); batch(jobs); one = time.perf_counter() - t
threads = [threading.Thread(target=batch, args=(jobs // 2,)) for _ in range(2)]
t = time.perf_counter()
for th in threads: th.start()
for th in threads: th.join()
two = time.perf_counter() - t
print(one / two)
"""


def compile_speedup(python, **env):
    out = subprocess.run(
        [str(python), "-c", COMPILE], cwd="/tmp", env=clean_env(**env), capture_output=True, text=True
    )
    if out.returncode != 0:
        return f"crashed (exit {out.returncode})"
    return f"{float(out.stdout):.2f}x"


def generation_time():
    hipgen = REPO / "target" / "release" / "hipgen"
    run(["cargo", "build", "-q", "--release", "-p", "hipgen"], cwd=REPO)
    with tempfile.TemporaryDirectory() as out:
        t = time.perf_counter()
        run(
            [
                str(hipgen),
                "generate",
                "--include",
                str(REPO / ".rocm" / "6.4.3" / "usr" / "include"),
                "--release",
                "6.4.3",
                "--libs",
                LIBS,
                "--out",
                out,
            ],
            cwd=REPO,
        )
        return time.perf_counter() - t


def clean_build_time():
    with tempfile.TemporaryDirectory() as target:
        t = time.perf_counter()
        run(
            ["cargo", "build", "-q", "--release", "-p", "hip-python", "--features", "pyo3/extension-module"],
            cwd=REPO,
            env={**os.environ, "CARGO_TARGET_DIR": target},
        )
        return time.perf_counter() - t


def machine():
    cpu = next(
        (
            line.split(":", 1)[1].strip()
            for line in Path("/proc/cpuinfo").read_text().splitlines()
            if line.startswith("model name")
        ),
        platform.processor(),
    )
    return f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}, {platform.platform()}"


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--skip-build", action="store_true", help="leave out the clean build (minutes)")
    args = parser.parse_args()
    if not OURS.exists():
        sys.exit("run tools/setup.sh and ./build_pkgs.sh first")
    ensure_hip_python()
    runtime_shim()

    newer = ensure_newer()
    rows = []
    figures = per_call_rounds({"ours": OURS, "theirs": THEIRS, **newer})
    ours, theirs = figures.pop("ours"), figures.pop("theirs")
    others = figures
    ten = others.get("rocm-bindings 10.0", {})
    for name, ns in ours.items():
        compared = not name.startswith(("ctypes", "builtin"))

        def cell(figures, name=name):
            return f"{figures[name]:.0f} ns" if name in figures else ""

        def ratio(figures, name=name, ns=ns, compared=compared):
            return f"{ns / figures[name]:.2f}" if compared and name in figures else ""

        rows.append(
            (
                f"call: {name}",
                f"{ns:.0f} ns",
                cell(theirs),
                *(cell(f) for f in others.values()),
                ratio(theirs),
                ratio(ten),
            )
        )

    for label, mods in (
        # The statement form: rocm-bindings 10.0's hip-python shim has `hip.hip` as an
        # attribute, not as a submodule `import hip.hip` finds.
        ("import hip.hip, hip.hiprtc", ("from hip import hip, hiprtc",)),
        ("import all nine modules", MODULES),
        (
            "import cuda.cuda, cuda.cudart, cuda.nvrtc (vs hip-python-interop)",
            ("from cuda import cuda, cudart, nvrtc",),
        ),
        (
            "import rocm.amd_comgr + rocm.llvm.c.core (vs rocm-llvm-python)",
            ("import rocm.amd_comgr.amd_comgr", "import rocm.llvm.c.core"),
        ),
    ):
        a, b = import_time(OURS, mods), import_time(THEIRS, mods)
        newer_cells = ["" for _ in others]
        ratio_ten = ""
        if label == "import hip.hip, hip.hiprtc":
            times = {label: import_time(newer[label], mods) for label in others}
            newer_cells = [f"{t:.1f} ms" for t in times.values()]
            if "rocm-bindings 10.0" in times:
                ratio_ten = f"{a / times['rocm-bindings 10.0']:.2f}"
        rows.append((label, f"{a:.1f} ms", f"{b:.1f} ms", *newer_cells, f"{a / b:.2f}", ratio_ten))

    ours_size = installed_size(OURS, ["hip-python"])
    theirs_size = installed_size(THEIRS, ["hip-python"])
    ours_all = installed_size(OURS, ["hip-python", "hip-python-as-cuda", "rocm-llvm-python"])
    theirs_all = installed_size(THEIRS, ["hip-python", "hip-python-interop", "rocm-llvm-python"])
    blank = ["" for _ in others]

    def row(label, ours_cell, theirs_cell, ratio=""):
        """A row the newer anchors have no figure for."""
        return (label, ours_cell, theirs_cell, *blank, ratio, "")

    rows.append(
        row(
            "installed size: hip-python",
            f"{ours_size / 1e6:.1f} MB",
            f"{theirs_size / 1e6:.0f} MB",
            f"{ours_size / theirs_size:.3f}",
        )
    )
    rows.append(
        row(
            "installed size: all three packages",
            f"{ours_all / 1e6:.1f} MB",
            f"{theirs_all / 1e6:.0f} MB",
            f"{ours_all / theirs_all:.3f}",
        )
    )
    rows.append(
        row("hiprtc compile: 2 threads vs 1 (speedup)", compile_speedup(OURS), compile_speedup(THEIRS))
    )
    rows.append(
        row(
            "  same, HIP_PYTHON_PARALLEL_COMPILE=1",
            compile_speedup(OURS, HIP_PYTHON_PARALLEL_COMPILE="1"),
            "",
        )
    )
    rows.append(row("generate all nine libraries (hipgen)", f"{generation_time():.1f} s", ""))
    if not args.skip_build:
        build = clean_build_time()
        rows.append(row("clean release build, all modules", f"{build:.0f} s", ""))

    header = ["measurement", "ours", "hip-python 6.4.3 (+ interop, rocm-llvm-python)", *others]
    header += ["ours / 6.4.3", "ours / 10.0"]
    lines = [
        f"Machine: {machine()}",
        "",
        "| " + " | ".join(header) + " |",
        "|" + " --- |" * len(header),
        *("| " + " | ".join(r) + " |" for r in rows),
    ]
    text = "\n".join(lines) + "\n"
    print(text)
    (REPO / "benches" / "RESULTS.md").write_text(
        "Written by `python3 benches/run.py`; per-call figures are the fastest of 7 runs "
        f"of 200,000 calls in each of {ROUNDS} rounds, the packages taking turns.\n\n" + text
    )


if __name__ == "__main__":
    main()
