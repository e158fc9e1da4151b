#!/usr/bin/env python3
"""Our `cuda.core` (hip.core over HIP) against NVIDIA's cuda.core, on one GPU, in one run.

    OURS_PYTHONPATH=/tmp/site python3 benches/core_vs_cuda_core.py

Each side runs in a process of its own (both are imported as `cuda.core`): ours with
OURS_PYTHONPATH first on the path (hip-python and hip-python-as-cuda installed there), NVIDIA's
with the interpreter's own packages. The sides take turns for BENCH_ROUNDS rounds (5 by default,
who goes first alternating) and each keeps its best round. Timed, as cuda.core's users call
them: `launch` of an empty kernel with 1 and with 16 arguments (enqueue only, the stream
synchronized between batches), `Device()`, `Device.create_stream()` (+ close),
`allocate` + `close` of 1 KiB from the device's memory pool, an event recorded and queried.
The parent prints a Markdown table (also written to benches/RESULTS-core.md).
"""

import json
import os
import subprocess
import sys
import timeit
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "5"))
KERNELS = """
extern "C" __global__ void one(float* x) { }
extern "C" __global__ void sixteen(float* a, float* b, float* c, float* d, int e, int f, int g, int h,
                                   float i, float j, float k, float l, double m, double n, long long o,
                                   long long p) { }
"""


def per_call(fn, number, repeat=7) -> float:
    """Best time of one call, in µs."""
    return min(timeit.repeat(fn, number=number, repeat=repeat)) / number * 1e6


def launches(stream, launch_one, batch=500) -> float:
    """Enqueue cost of one launch, in µs: batches below the driver's queue depth, the stream
    synchronized between them."""
    best = float("inf")
    for _ in range(30):
        t = timeit.default_timer()
        for _ in range(batch):
            launch_one()
        best = min(best, (timeit.default_timer() - t) / batch * 1e6)
        stream.sync()
    return best


def measure() -> dict:
    import numpy as np
    from cuda.core import Device, LaunchConfig, Program, ProgramOptions, launch

    dev = Device()
    dev.set_current()
    stream = dev.create_stream()
    program = Program(KERNELS, "c++", ProgramOptions(arch=f"sm_{dev.arch}"))
    code = program.compile("cubin")
    one, sixteen = code.get_kernel("one"), code.get_kernel("sixteen")
    buf = dev.allocate(1024, stream=stream)
    config = LaunchConfig(grid=1, block=32)
    args16 = (buf, buf, buf, buf, np.int32(1), np.int32(2), np.int32(3), np.int32(4))
    args16 += (np.float32(1), np.float32(2), np.float32(3), np.float32(4), 1.0, 2.0, np.int64(5), np.int64(6))

    def alloc_close():
        dev.allocate(1024, stream=stream).close()

    times = {
        "launch, 1 argument": launches(stream, lambda: launch(stream, config, one, buf)),
        "launch, 16 arguments": launches(stream, lambda: launch(stream, config, sixteen, *args16)),
        "Device()": per_call(Device, 20000),
        "create_stream + close": per_call(lambda: dev.create_stream().close(), 2000),
        "allocate + close (1 KiB, device pool)": per_call(
            lambda: dev.allocate(1024, stream=stream).close(), 5000
        ),
    }

    def record_query():
        event = stream.record()
        return event.is_done

    times["Event record + is_done"] = per_call(record_query, 5000)
    stream.sync()
    return {"gpu": dev.name, "times": times}


def run(side: str) -> dict:
    env = dict(os.environ)
    if side == "ours":
        env["PYTHONPATH"] = os.environ["OURS_PYTHONPATH"]
    else:
        env.pop("PYTHONPATH", None)
    out = subprocess.run(
        [sys.executable, __file__, "--measure"], env=env, capture_output=True, text=True, timeout=600
    )
    if out.returncode != 0:
        raise SystemExit(f"{side} failed:\n{out.stdout}{out.stderr}")
    return json.loads(out.stdout.splitlines()[-1])


def main() -> None:
    best: dict[str, dict[str, float]] = {"ours": {}, "nvidia": {}}
    gpu = None
    for r in range(ROUNDS):
        for side in ("ours", "nvidia") if r % 2 == 0 else ("nvidia", "ours"):
            result = run(side)
            gpu = result["gpu"]
            for name, t in result["times"].items():
                best[side][name] = min(best[side].get(name, t), t)
    lines = [
        f"cuda.core calls on {gpu}, best of {ROUNDS} alternating rounds, µs per call",
        "",
        "| call | ours (hip.core) | NVIDIA cuda.core | ours / NVIDIA |",
        "| --- | --- | --- | --- |",
    ]
    for name, t in best["ours"].items():
        theirs = best["nvidia"][name]
        lines.append(f"| {name} | {t:.2f} | {theirs:.2f} | {t / theirs:.2f} |")
    text = "\n".join(lines) + "\n"
    print(text)
    (REPO / "benches" / "RESULTS-core.md").write_text(text)


if __name__ == "__main__":
    if "--measure" in sys.argv:
        print(json.dumps(measure()))
    else:
        main()
