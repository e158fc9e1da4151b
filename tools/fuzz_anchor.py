"""Runs tools/fuzz_types.py's probes against AMD's hip-python 6.4.3 and ours, and compares them.

AMD's package (.venv-anchor) and ours (.venv, its bindings of ROCm 6.4.3) get the same probes:
the IR of 6.4.3 says the parameter kinds, and only the functions it names are probed
(`--ir-functions`; AMD's have the same names and positional arguments). Both run on the same
runtime: ROCm 6.4.3's, from its Debian root (tools/rocm-root.sh), loaded through that root's
own dynamic loader (its glibc is newer than the host's; both interpreters run on it, and
their children too, through HIPGEN_FUZZ_LOADER), or with `--host` on the host's (Debian
bookworm's HIP 5.2: hiprtc inside libamdhip64, no hipBLAS, hipFFT, hipSOLVER, RCCL, roctx).

    python tools/fuzz_anchor.py [--host] [--out DIR]

Prints, per probe class, over the probes both made: how many, and refused / accepted /
crashed for ours and for AMD's; DIR/compare.json has the same and both runs' findings.
"""

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
RELEASE = "6.4.3"
MODULES = ["hip.hip", "hip.hiprtc", "hip.hipblas", "hip.hipsparse", "hip.rccl", "hip.hiprand"]
MODULES += ["hip.hipfft", "hip.hipsolver", "hip.roctx"]
OUTCOMES = ("refused", "accepted", "crashed")
CLASSES = ["types", "foreign-dead", "handle", "count", "sized", "dead", "lifetime", "none"]


def loader(host):
    """The command prefix that runs a host interpreter on the release's root libraries."""
    root = Path(os.environ.get("HIPGEN_ROCM_DIR", REPO / ".rocm")) / f"root-{RELEASE}"
    if host or not (root / ".packages").exists():
        return []
    libs = ":".join(str(root / d) for d in ("usr/lib/x86_64-linux-gnu", "lib/x86_64-linux-gnu"))
    return [str(root / "lib64" / "ld-linux-x86-64.so.2"), "--library-path", libs]


def run(python, args, out, prefix):
    env = dict(os.environ, HIPGEN_FUZZ_LOADER=json.dumps(prefix))
    env.pop("HIP_PYTHON_ROCM_RELEASE", None)
    cmd = [*prefix, python, str(REPO / "tools" / "fuzz_types.py"), *args, "--log-probes", "--json", str(out)]
    print("$", " ".join(cmd[len(prefix) :]), flush=True)
    done = subprocess.run(cmd, env=env, capture_output=True, text=True)
    tail = [line for line in done.stdout.splitlines() if " child process" in line or "probed" in line]
    print("\n".join(tail), flush=True)
    return json.loads(Path(out).read_text())


def outcomes(run):
    """{(module, class, function, probe): refused | accepted | crashed}."""
    out = {(r["module"], r["class"], r["function"], r["probe"]): "refused" for r in run["refused"] or []}
    for f in run["findings"]:
        if f["class"] == "setup":
            continue
        key = (f["module"], f["class"], f["function"], f["probe"])
        died = "died" in f["outcome"] or "hung" in f["outcome"]
        out[key] = "crashed" if died else "accepted"
    return out


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--host", action="store_true", help="the host's runtime, not ROCm 6.4.3's root")
    parser.add_argument("--out", default=str(REPO / "target" / "fuzz-anchor"))
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    prefix = loader(args.host)
    print(f"runtime: {'ROCm ' + RELEASE + ' (its root)' if prefix else 'the host'}")
    ours = run(
        str(REPO / ".venv" / "bin" / "python"),
        ["--release", RELEASE, "--ir-functions", *MODULES],
        out / "ours.json",
        prefix,
    )
    amd = run(
        str(REPO / ".venv-anchor" / "bin" / "python"),
        ["--anchor", "--release", RELEASE],
        out / "amd.json",
        prefix,
    )
    a, b = outcomes(ours), outcomes(amd)
    common = sorted(set(a) & set(b))
    table = {}
    for key in common:
        row = table.setdefault(
            key[1], {"probes": 0, "ours": dict.fromkeys(OUTCOMES, 0), "amd": dict.fromkeys(OUTCOMES, 0)}
        )
        row["probes"] += 1
        row["ours"][a[key]] += 1
        row["amd"][b[key]] += 1
    print(f"\n{len(common)} probes made by both (ours {len(a)}, AMD's {len(b)})")
    head = "".join(f"{h:>10}" for h in ("refused", "accepted", "crashed"))
    print(f"{'class':<14}{'probes':>8} | ours{head} | AMD's{head}")
    for cls, row in sorted(
        table.items(),
        key=lambda kv: CLASSES.index(kv[0]),
    ):
        o = "".join(f"{row['ours'][k]:>10}" for k in OUTCOMES)
        m = "".join(f"{row['amd'][k]:>10}" for k in OUTCOMES)
        print(f"{cls:<14}{row['probes']:>8} |     {o} |      {m}")
    (out / "compare.json").write_text(
        json.dumps(
            {"runtime": "root" if prefix else "host", "common": len(common), "classes": table}, indent=1
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
