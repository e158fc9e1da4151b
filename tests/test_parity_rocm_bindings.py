"""API parity with AMD's rocm-bindings 10.0 (HIP 7.15; tests/fixtures/rocm_bindings_10.0.json,
written by tools/rocm_bindings_api.py from its wheels): every function of 10.0 that the ROCm
7.2.4 headers declare is callable in our 7.2.4 bindings, as installed. The functions 10.0 has
and 7.2.4 lacks (HIP 7.15 is newer) are listed in docs/releases.md."""

import json
import os
import re
import subprocess
import sys

import pytest

from conftest import REPO, load_ir

FIXTURE = json.loads((REPO / "tests" / "fixtures" / "rocm_bindings_10.0.json").read_text())
ROCM7 = REPO / ".rocm" / "7.2.4" / "usr" / "include"

# rocm-bindings module → our Python module. amdsmi, hipfile, hiptensor and hipdnn_backend have
# no Debian package (no headers to generate from); they are not compared.
OURS = {m: f"hip.{m}" for m in ("hip", "hiprtc", "hipblas", "hipsparse", "hipsolver", "hiprand", "hipfft")}
OURS |= {m: f"hip.{m}" for m in ("rccl", "roctx", "hipblaslt", "hipsparselt")}
OURS["amd_comgr"] = "rocm.amd_comgr.amd_comgr"
# LLVM's headers of types alone (llvm.c.types...) have no functions to compare.
OURS |= {m: f"rocm.{m}" for m, fns in FIXTURE["modules"].items() if m.startswith("llvm.c.") and fns}


def llvm_include():
    out = subprocess.run(["llvm-config-19", "--includedir"], capture_output=True, text=True)
    return out.stdout.strip() if out.returncode == 0 else "/usr/lib/llvm-19/include"


def declared_words(folder):
    """Every identifier in a header tree: a function that is none of them is not declared."""
    words = set()
    for root, _, files in os.walk(folder):
        for f in files:
            words |= set(re.findall(r"\b\w+\b", open(os.path.join(root, f), errors="ignore").read()))
    return words


@pytest.fixture(scope="module")
def missing():
    """Per module, the 10.0 functions our installed 7.2.4 bindings do not have, found by a Python
    of its own that picks the 7.2.4 release."""
    wanted = {ours: sorted(FIXTURE["modules"][theirs]) for theirs, ours in OURS.items()}
    code = (
        "import importlib, json, sys\n"
        "wanted = json.load(sys.stdin)\n"
        "out = {}\n"
        "for name, fns in wanted.items():\n"
        "    m = importlib.import_module(name)\n"
        "    out[name] = [f for f in fns if not callable(getattr(m, f, None))]\n"
        "print(json.dumps(out))\n"
    )
    env = dict(os.environ, HIP_PYTHON_ROCM_RELEASE="7.2.4")
    run = subprocess.run(
        [sys.executable, "-W", "ignore", "-c", code],
        input=json.dumps(wanted),
        capture_output=True,
        text=True,
        env=env,
    )
    assert run.returncode == 0, run.stderr
    found = json.loads(run.stdout)
    # tools/test.sh installs a rocm-llvm-python for bookworm's comgr 2 (test_rocm_llvm.py): comgr
    # is then compared as generated for 7.2.4 (the wheel's own, tests/test_runtime_root.py).
    comgr = load_ir("amd_comgr", REPO / "bindings" / "rocm-7.2.4")
    bound = {f["name"] for f in comgr["functions"]}
    found[OURS["amd_comgr"]] = [f for f in wanted[OURS["amd_comgr"]] if f not in bound]
    return found


@pytest.mark.skipif(not ROCM7.is_dir(), reason="tools/setup.sh fetches ROCm 7.2.4's headers")
def test_every_10_0_function_in_the_7_2_4_headers_is_bound(missing):
    rocm_words = declared_words(ROCM7)
    llvm_words = declared_words(os.path.join(llvm_include(), "llvm-c"))
    unbound = {}
    for theirs, ours in OURS.items():
        words = llvm_words if theirs.startswith("llvm.") else rocm_words
        declared_but_missing = [f for f in missing[ours] if f in words]
        if declared_but_missing:
            unbound[theirs] = declared_but_missing
    assert unbound == {}


def test_the_comparison_covers_most_of_10_0(missing):
    """Guards the test above against comparing nothing: most 10.0 functions are ours too."""
    total = sum(len(FIXTURE["modules"][t]) for t in OURS)
    lacking = sum(len(v) for v in missing.values())
    assert total > 4000
    assert lacking < total * 0.05, {k: len(v) for k, v in missing.items()}
