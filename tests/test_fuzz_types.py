"""Every generated function of every installed module, for every release the wheel carries,
refuses arguments C must never get, before C is called (tools/fuzz_types.py: each module in
child processes restarted after a crash, so a crash is a finding, not the end of the run)."""

import importlib.util
import json
import subprocess
import sys
from types import SimpleNamespace

import pytest

from conftest import REPO

_spec = importlib.util.spec_from_file_location("fuzz_types", REPO / "tools" / "fuzz_types.py")
fuzz = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(fuzz)

RELEASE = "7.2.4"  # the newest shipped release: its IR has every library the probes know


def library(*names):
    parts = [(f"hip.{n}", fuzz.load_ir(RELEASE, n)) for n in names]
    if any(ir is None for _, ir in parts):
        pytest.skip(f"no IR of {names} in bindings/rocm-{RELEASE}")
    return fuzz.Library(names[0], parts)


def function(lib, name):
    """The IR function `name` as the probes see it."""
    return SimpleNamespace(fir=lib.functions[name][1], name=name)


def test_no_generated_function_accepts_a_wrong_argument_or_crashes(tmp_path):
    report = tmp_path / "fuzz.json"
    out = subprocess.run(
        [sys.executable, str(REPO / "tools" / "fuzz_types.py"), "--json", str(report)],
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert out.returncode == 0, out.stdout[-6000:] + out.stderr[-2000:]
    data = json.loads(report.read_text())
    assert data["functions"] > 5000, out.stdout
    for name, c in data["classes"].items():
        # A class that made no call would pass without testing anything.
        assert c["calls"] > 0, (name, out.stdout)
        assert c["calls"] == c["refused"] + c["accepted"] + c["crashes"], (name, c)


def test_count_parameters_are_found():
    """The fuzz reads the pairs the generator wrote into the IR (its rule and the spec's
    `counts`), not a rule of its own."""
    hiprtc = library("hiprtc")
    pairs = fuzz.count_pairs(function(hiprtc, "hiprtcCompileProgram"))
    assert {c: [p["name"] for p in ps] for c, ps in pairs.items()} == {"numOptions": ["options"]}
    pairs = fuzz.count_pairs(function(hiprtc, "hiprtcCreateProgram"))
    assert {c: [p["name"] for p in ps] for c, ps in pairs.items()} == {
        "numHeaders": ["headers", "includeNames"]
    }
    comgr = fuzz.Library("amd_comgr", [("rocm.amd_comgr.amd_comgr", fuzz.load_ir(RELEASE, "amd_comgr"))])
    pairs = fuzz.count_pairs(function(comgr, "amd_comgr_action_info_set_option_list"))
    assert list(pairs) == ["count"]


def test_sized_outputs_are_found():
    """As counts: the IR's `sized_by` (the spec's `sizes`)."""
    hiprtc = library("hiprtc")
    sized = fuzz.sized_params(function(hiprtc, "hiprtcGetCode"))
    assert [(p["name"], s) for p, s in sized] == [("code", {"function": "hiprtcGetCodeSize"})]
    comgr = fuzz.Library("amd_comgr", [("rocm.amd_comgr.amd_comgr", fuzz.load_ir(RELEASE, "amd_comgr"))])
    sized = fuzz.sized_params(function(comgr, "amd_comgr_get_data"))
    assert [(p["name"], s) for p, s in sized] == [("bytes", {"param": "size"})]


def test_handle_parameters_are_found():
    kinds = {}
    for names in (("hip",), ("hiprtc",), ("hipsparse",)):
        lib = library(*names)
        for fname in ("hipMemcpyHtoD", "hipDestroyExternalMemory", "hiprtcGetCode", "hiprtcDestroyProgram"):
            if fname in lib.functions:
                kinds[fname] = [lib.kind(p) for p in lib.functions[fname][1]["params"]]
        if "hipsparseSetMatType" in lib.functions:
            kinds["hipsparseSetMatType"] = [
                lib.kind(p) for p in lib.functions["hipsparseSetMatType"][1]["params"]
            ]
    assert kinds["hipMemcpyHtoD"][0] is None  # hipDeviceptr_t is memory, not a handle
    assert kinds["hipDestroyExternalMemory"] == ["hipExternalMemory_t"]
    assert kinds["hiprtcGetCode"][0] == "_hiprtcProgram"
    assert kinds["hiprtcDestroyProgram"] == ["_hiprtcProgram"]  # by reference
    assert kinds["hipsparseSetMatType"][0] == "hipsparseMatDescr_t"
    comgr = fuzz.Library("amd_comgr", [("rocm.amd_comgr.amd_comgr", fuzz.load_ir(RELEASE, "amd_comgr"))])
    assert [comgr.kind(p) for p in comgr.functions["amd_comgr_release_data"][1]["params"]] == [
        "amd_comgr_data_s"
    ]
