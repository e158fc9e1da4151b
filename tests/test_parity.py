"""Every module against hip-python 6.4.3's public API (tests/fixtures/hip_python_6.4.3.json), on our
bindings of the release it was generated from: tools/test.sh runs this file with
HIPGEN_SESSION_RELEASE=6.4.3 (the wheel's default release is newer; ROCm 7 removed hipBLAS's
`_v2` names, for one)."""

import enum
import inspect

import pytest

import hip as hip_package
from conftest import SESSION_RELEASE
from hip import hip

pytestmark = pytest.mark.skipif(
    SESSION_RELEASE != "6.4.3", reason="compares with hip-python 6.4.3: HIPGEN_SESSION_RELEASE=6.4.3 runs it"
)

ALL = ("hip", "hiprtc", "hipblas", "hipsparse", "rccl", "hiprand", "hipfft", "hipsolver", "roctx")
MODULES = {name: getattr(hip_package, name) for name in ALL if hasattr(hip_package, name)}

# hip-python passes the dependency arrays of these graph functions as NULL outputs, so code
# written for it cannot give dependencies at all; we keep the C meaning (an input array).
GRAPH_DEPENDENCY_INPUTS = {"pDependencies", "dependencies", "from_", "to"}

# Debian's newest RCCL header is RCCL 5.4.3 (NCCL 2.13); hip-python 6.4.3 was generated from
# a newer one. These names do not exist in the header we generate from.
NEWER_RCCL_FUNCTIONS = {
    f"{p}{n}"
    for p in ("nccl", "pnccl")
    for n in (
        "CommDeregister",
        "CommFinalize",
        "CommInitRankConfig",
        "CommRegister",
        "CommSplit",
        "GroupSimulateEnd",
        "MemAlloc",
        "MemFree",
    )
} | {"pncclGetLastError"}
NEWER_RCCL_MEMBERS = {
    ("ncclDataType_t", "ncclFp8E4M3"),
    ("ncclDataType_t", "ncclFp8E5M2"),
    ("ncclDataType_t", "ncclNumTypes"),
    ("ncclResult_t", "ncclInProgress"),
    ("ncclResult_t", "ncclNumResults"),
}
NEWER_RCCL_CLASSES = {"ncclConfig_t", "ncclConfig_v21700", "ncclSimInfo_t", "ncclSimInfo_v22200"}

# Names hip-python exposes that no function or field of the library uses: glibc's FP_*
# enumerators and hip's anonymous-enum constants in hipblas/hipsolver.
UNUSED_FOREIGN_CONSTANTS = {
    "FP_INFINITE",
    "FP_NAN",
    "FP_NORMAL",
    "FP_SUBNORMAL",
    "FP_ZERO",
    "HIP_ERROR_INVALID_VALUE",
    "HIP_ERROR_LAUNCH_OUT_OF_RESOURCES",
    "HIP_ERROR_NOT_INITIALIZED",
    "HIP_SUCCESS",
}
KNOWN_MISSING = {
    "functions": {"rccl": NEWER_RCCL_FUNCTIONS},
    "classes": {"rccl": NEWER_RCCL_CLASSES},
    "constants": {"hipblas": UNUSED_FOREIGN_CONSTANTS, "hipsolver": UNUSED_FOREIGN_CONSTANTS},
}


def py_params(fn):
    return list(inspect.signature(fn).parameters)


def missing(name, kind, api):
    module = MODULES[name]
    return {n for n in api[name][kind] if not hasattr(module, n)}


@pytest.mark.parametrize("name", sorted(MODULES))
@pytest.mark.parametrize("kind", ["functions", "enums", "classes", "constants"])
def test_every_name_is_there(name, kind, hip_python_api):
    assert missing(name, kind, hip_python_api) == KNOWN_MISSING.get(kind, {}).get(name, set())


@pytest.mark.parametrize("name", sorted(MODULES))
def test_parameters_match(name, hip_python_api):
    module = MODULES[name]
    different = {}
    for fname, theirs in hip_python_api[name]["functions"].items():
        if not hasattr(module, fname):
            continue
        ours = py_params(getattr(module, fname))
        if ours != theirs and not set(ours) - set(theirs) <= GRAPH_DEPENDENCY_INPUTS:
            different[fname] = (ours, theirs)
        elif ours != theirs:
            assert [p for p in ours if p not in GRAPH_DEPENDENCY_INPUTS] == theirs, fname
    assert different == {}


@pytest.mark.parametrize("name", sorted(MODULES))
def test_enums_have_equal_members(name, hip_python_api):
    module = MODULES[name]
    off = set()
    for ename, members in hip_python_api[name]["enums"].items():
        cls = getattr(module, ename, None)
        if cls is None:
            continue
        assert issubclass(cls, enum.IntEnum), ename
        off |= {(ename, m) for m, v in members.items() if getattr(cls, m, None) != v}
    assert off == (NEWER_RCCL_MEMBERS if name == "rccl" else set())


@pytest.mark.parametrize("name", sorted(MODULES))
def test_struct_fields(name, hip_python_api):
    module = MODULES[name]
    for cname, fields in hip_python_api[name]["classes"].items():
        cls = getattr(module, cname, None)
        if cls is None:
            continue
        assert inspect.isclass(cls), cname
        if fields:
            # hip-python leaves out fields it cannot wrap (handles, enum arrays); we bind
            # every field, so theirs must appear in ours, in the same order.
            ours = list(cls.PROPERTIES())
            assert [f for f in ours if f in set(fields)] == fields, cname


def test_graph_deviation_is_only_those_functions(hip_python_api):
    """The deviation above stays confined to functions that take dependency arrays."""
    for fname, theirs in hip_python_api["hip"]["functions"].items():
        ours = py_params(getattr(hip, fname))
        if ours != theirs:
            assert "Graph" in fname or "Capture" in fname, fname


def test_dir_lists_lazy_types():
    names = dir(hip)
    assert "hipError_t" in names and "hipDeviceProp_t" in names and "hipMalloc" in names


def test_libraries_share_hip_types():
    """A stream or data type from hip.hip is the very class the libraries use."""
    if "hipblas" not in MODULES:
        pytest.skip("hipblas not built")
    assert MODULES["hipblas"].hipDataType is hip.hipDataType
    assert MODULES["hipsparse"].ihipStream_t is hip.ihipStream_t
