"""Every function the installed wheel binds, for each ROCm release it carries whose libraries
tools/setup.sh unpacks (7.2.4 from experimental, 6.4.3 from sid), resolves in that release's
own libraries: the symbol table each release's extension really looks up, against `nm -D`."""

import json
import os
import subprocess
import sys

import pytest

from conftest import REPO, load_ir, manifest

# Declared in a release's headers but not exported by Debian's build of its libamdhip64. They
# stay bound: calling one raises HipLoadError naming the symbol, as for any older runtime.
DECLARED_NOT_EXPORTED = {
    "7.2.4": {"hip": {"hipExternalMemoryGetMappedMipmappedArray"}},
    "6.4.3": {
        "hip": {
            "hipDeviceGetTexture1DLinearMaxWidth",
            "hipExternalMemoryGetMappedMipmappedArray",
            "hipGraphAddExternalSemaphoresWaitNode",
            "hipGraphAddExternalSemaphoresSignalNode",
            "hipGraphExternalSemaphoresSignalNodeSetParams",
            "hipGraphExternalSemaphoresWaitNodeSetParams",
            "hipGraphExternalSemaphoresSignalNodeGetParams",
            "hipGraphExternalSemaphoresWaitNodeGetParams",
            "hipGraphExecExternalSemaphoresSignalNodeSetParams",
            "hipGraphExecExternalSemaphoresWaitNodeSetParams",
        },
    },
}
# Libraries whose packages tools/setup.sh does not unpack (hundreds of MB of GPU kernels for a
# symbol list): their symbols are not checked here.
NOT_UNPACKED = {"rccl", "hipblaslt", "hipsparselt", "miopen"}
RELEASES = [r for r in DECLARED_NOT_EXPORTED if (REPO / ".rocm" / r / "usr" / "lib").is_dir()]


def defined_symbols(path):
    out = subprocess.run(
        ["nm", "-D", "--defined-only", str(path)], capture_output=True, text=True, check=True
    )
    return {line.split()[-1].split("@")[0] for line in out.stdout.splitlines() if line.strip()}


@pytest.fixture(scope="module", params=RELEASES)
def release(request):
    """(release, {module: [(python name, symbol)]} of that release's extension, manifest)."""
    code = "import json, hip._select as s; print(json.dumps(dict(s.native().symbols())))"
    env = dict(os.environ, HIP_PYTHON_ROCM_RELEASE=request.param)
    run = subprocess.run(
        [sys.executable, "-W", "ignore", "-c", code], capture_output=True, text=True, env=env
    )
    assert run.returncode == 0, run.stderr
    folder = REPO / "bindings" / f"rocm-{request.param}"
    return request.param, json.loads(run.stdout), manifest.load(folder)


def test_every_symbol_is_exported_by_its_release_library(release):
    name, tables, mani = release
    libdir = REPO / ".rocm" / name / "usr" / "lib"
    checked = set()
    for lib in mani["libraries"]:
        module = lib["name"]
        if module not in tables or module in NOT_UNPACKED:
            continue
        soname = lib["loads"]["sonames"][0]
        path = next(libdir.rglob(soname), None)
        assert path is not None, f"{soname} of ROCm {name} is not under {libdir}"
        exported = defined_symbols(path)
        missing = {sym for _, sym in tables[module] if sym not in exported}
        assert missing == DECLARED_NOT_EXPORTED[name].get(module, set()), module
        # The extension's table is the IR's function list: nothing dropped on the way.
        ir = load_ir(module, REPO / "bindings" / f"rocm-{name}")
        assert len(tables[module]) == len(ir["functions"]), module
        checked.add(module)
    # Guards against checking nothing: hip, hiprtc and the math libraries at least.
    assert {"hip", "hiprtc", "hipblas", "hipsparse", "hipsolver", "hiprand", "hipfft"} <= checked


def test_renamed_api_keeps_python_name():
    from hip import _native

    names = dict(dict(_native.symbols())["hip"])
    assert names["hipGetDeviceProperties"] == "hipGetDevicePropertiesR0600"
    assert names["hipMalloc"] == "hipMalloc"


def test_unexported_symbol_raises_our_error():
    from hip import hip

    with pytest.raises(RuntimeError, match="hipExternalMemoryGetMappedMipmappedArray"):
        hip.hipExternalMemoryGetMappedMipmappedArray(None, None)
