#!/usr/bin/env python3
"""measure.py's per-call figures under two or more interpreters side by side, in turns (the
fastest of BENCH_ROUNDS rounds kept): a build of ours against an earlier one, say.

    python3 benches/per_call_compare.py LABEL=PYTHON LABEL=PYTHON ...

e.g. `before=target/bench-before/bin/python after=.venv/bin/python`, where the first venv
holds the wheels of the commit compared with.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import run  # noqa: E402 - benches/run.py's turns and environment


def main(argv):
    pythons = dict(a.split("=", 1) for a in argv)
    run.runtime_shim()
    figures = run.per_call_rounds(pythons)
    labels = list(pythons)
    first = labels[0]
    print(
        "| ns per call | "
        + " | ".join(labels)
        + " | "
        + " | ".join(f"{lb} / {first}" for lb in labels[1:])
        + " |"
    )
    print("| --- |" + " ---: |" * (2 * len(labels) - 1))
    for name in figures[first]:
        cells = [f"{figures[lb].get(name, float('nan')):.1f}" for lb in labels]
        ratios = [f"{figures[lb].get(name, float('nan')) / figures[first][name]:.2f}" for lb in labels[1:]]
        print(f"| {name} | " + " | ".join(cells) + " | " + " | ".join(ratios) + " |")


if __name__ == "__main__":
    main(sys.argv[1:])
