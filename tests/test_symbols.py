"""Every generated function resolves in the ROCm 6.4.3 libraries it was generated for."""

import subprocess

import pytest

from hip import _native

LIBRARIES = {
    "hip": "libamdhip64.so.6",
    "hiprtc": "libhiprtc.so.6",
    "hipblas": "libhipblas.so.2",
    "hipsparse": "libhipsparse.so.1",
    "rccl": "librccl.so.1",
    "hiprand": "libhiprand.so.1",
    "hipfft": "libhipfft.so.0",
    "hipsolver": "libhipsolver.so.0",
    "roctx": "libroctx64.so.4",
}
COUNTS = {
    "hip": 466,
    "hiprtc": 18,
    "hipblas": 1849,
    "hipsparse": 546,
    "rccl": 58,
    "hiprand": 30,
    "hipfft": 33,
    "hipsolver": 526,
    "roctx": 7,
}

# Declared in the 6.4.3 headers but not exported by Debian's libamdhip64.so.6 (6.4.43484).
# They stay bound: calling one raises HipLoadError naming the symbol, as for any older runtime.
DECLARED_NOT_EXPORTED = {
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
}


def defined_symbols(path):
    out = subprocess.run(
        ["nm", "-D", "--defined-only", str(path)], capture_output=True, text=True, check=True
    )
    return {line.split()[-1].split("@")[0] for line in out.stdout.splitlines() if line.strip()}


@pytest.mark.parametrize("module, symbols", _native.symbols())
def test_every_symbol_is_exported_by_the_643_library(module, symbols, rocm_643):
    lib = next((rocm_643 / "lib").rglob(LIBRARIES[module]))
    exported = defined_symbols(lib)
    missing = {sym for _, sym in symbols if sym not in exported}
    if module == "hip":
        assert missing == DECLARED_NOT_EXPORTED
    elif module == "rccl":
        # Debian's RCCL build exports none of the pnccl* profiling entry points it declares.
        assert missing == {sym for _, sym in symbols if sym.startswith("pnccl")}
    else:
        assert missing == set()
    assert len(symbols) == COUNTS[module]


def test_renamed_api_keeps_python_name():
    names = dict(dict(_native.symbols())["hip"])
    assert names["hipGetDeviceProperties"] == "hipGetDevicePropertiesR0600"
    assert names["hipMalloc"] == "hipMalloc"


def test_unexported_symbol_raises_our_error():
    from hip import hip

    with pytest.raises(RuntimeError, match="hipDeviceGetTexture1DLinearMaxWidth"):
        hip.hipDeviceGetTexture1DLinearMaxWidth(0)
