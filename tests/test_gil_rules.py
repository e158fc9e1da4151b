"""Which generated calls keep the GIL: only lookups that cannot block (a spec rule,
`keep_gil`), so every call that can block or take long still releases it."""

import re

import pytest

from conftest import load_ir

# What a call that keeps the GIL may be: an error or status string, a version, the last
# error, a name, a descriptor built from its arguments, the current device or its count or
# attributes, the current context or its device (thread-local values).
CHEAP = re.compile(
    r"(GetErrorString|GetErrorName|StatusToString|Version|GetLastError|PeekAtLastError|ApiName"
    r"|KernelNameRef|CreateChannelDesc|^hipGetDevice|^hipGetDeviceCount|^hipDeviceGetAttribute"
    r"|^hipCtxGetCurrent|^hipCtxGetDevice)$"
)
BLOCKING = [
    ("hip", "hipDeviceSynchronize"),
    ("hip", "hipStreamSynchronize"),
    ("hip", "hipEventSynchronize"),
    ("hip", "hipMemcpy"),
    ("hip", "hipMalloc"),
    ("hip", "hipModuleLoadData"),
    ("hiprtc", "hiprtcCompileProgram"),
    ("hiprtc", "hiprtcLinkComplete"),
    ("rccl", "ncclAllReduce"),
    ("hipblas", "hipblasSgemm"),
]


def functions(lib):
    return {f["name"]: f for f in load_ir(lib)["functions"]}


@pytest.mark.parametrize("lib", ["hip", "hiprtc", "hipblas", "hipsparse", "rccl", "hipsolver"])
def test_only_cheap_lookups_keep_the_gil(lib):
    kept = [n for n, f in functions(lib).items() if f.get("keep_gil")]
    assert all(CHEAP.search(n) for n in kept), kept


def test_blocking_calls_release_the_gil():
    for lib, name in BLOCKING:
        assert not functions(lib)[name].get("keep_gil"), name
    assert functions("hiprtc")["hiprtcVersion"].get("keep_gil")
    assert functions("hip")["hipGetErrorString"].get("keep_gil")
