"""How Python calls a generated function (METH_FASTCALL with a static method definition,
`runtime/src/convert/call.rs`): by position and by keyword alike, with CPython's messages for a
wrong call, a signature `inspect` reads, and the module a function belongs to. Checked against
the real HIP runtime and hiprtc."""

import inspect
import pickle

import pytest

from hip import hip, hiprtc

NO_DEVICE = hip.hipError_t.hipErrorNoDevice


def test_positional_and_keyword_calls_give_the_same_result():
    by_position = hip.hipGetErrorString(NO_DEVICE)
    assert by_position[1] == b"hipErrorNoDevice"
    assert hip.hipGetErrorString(hipError=NO_DEVICE) == by_position
    # A function of several parameters, keywords in any order and mixed with positions.
    status, prog = hiprtc.hiprtcCreateProgram(b"__global__ void k() {}", b"k.hip", 0, [], [])
    assert status == hiprtc.hiprtcResult.HIPRTC_SUCCESS
    status, other = hiprtc.hiprtcCreateProgram(
        b"__global__ void k() {}", b"k.hip", includeNames=[], headers=[], numHeaders=0
    )
    assert status == hiprtc.hiprtcResult.HIPRTC_SUCCESS
    hiprtc.hiprtcDestroyProgram(prog.createRef())
    hiprtc.hiprtcDestroyProgram(other.createRef())


def test_a_result_of_shared_objects_is_a_tuple_made_once():
    # A lone status (an enum member), a status and small ints, a cached error string: the
    # tuple of them is kept.
    first = hip.hipDeviceSynchronize()
    assert type(first) is tuple and len(first) == 1 and first[0] is hip.hipDeviceSynchronize()[0]
    assert hip.hipDeviceSynchronize() is first
    version = hiprtc.hiprtcVersion()
    assert version[0] == hiprtc.hiprtcResult.HIPRTC_SUCCESS and version[1] >= 5
    assert hiprtc.hiprtcVersion() is version
    # A tuple holding a fresh object (an int past CPython's small ones) is never kept: keeping
    # it would keep the object alive.
    runtime = hip.hipRuntimeGetVersion()
    assert runtime[1] > 256 and hip.hipRuntimeGetVersion() == runtime
    assert hip.hipRuntimeGetVersion() is not runtime
    # Each item keeps its own tuple, whatever shares a slot of the table: twice over every
    # hiprtcResult member, each answer the string of that member.
    texts = {m: hiprtc.hiprtcGetErrorString(m) for m in hiprtc.hiprtcResult}
    assert len({t[0] for t in texts.values()}) > 1
    for _ in range(2):
        for m, t in texts.items():
            again = hiprtc.hiprtcGetErrorString(m)
            assert again == t and type(again) is tuple and len(again) == 1


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (
            lambda: hip.hipGetErrorString(),
            "hipGetErrorString() missing 1 required positional argument: 'hipError'",
        ),
        (
            lambda: hip.hipGetErrorString(1, 2),
            "hipGetErrorString() takes 1 positional arguments but 2 were given",
        ),
        (lambda: hip.hipGetErrorString(x=1), "hipGetErrorString() got an unexpected keyword argument 'x'"),
        (
            lambda: hip.hipGetErrorString(NO_DEVICE, hipError=NO_DEVICE),
            "hipGetErrorString() got multiple values for argument 'hipError'",
        ),
        (lambda: hiprtc.hiprtcVersion(1), "hiprtcVersion() takes 0 positional arguments but 1 was given"),
        (
            lambda: hip.hipMemcpy(None, None, "a", hip.hipMemcpyKind.hipMemcpyDefault),
            "argument 'sizeBytes': 'str' object cannot be interpreted as an integer",
        ),
    ],
)
def test_a_wrong_call_is_a_type_error_that_says_what_is_wrong(call, message):
    with pytest.raises(TypeError) as e:
        call()
    assert str(e.value) == message


def test_functions_describe_themselves():
    f = hip.hipMemcpy
    assert list(inspect.signature(f).parameters) == ["dst", "src", "sizeBytes", "kind"]
    assert list(inspect.signature(hiprtc.hiprtcVersion).parameters) == []
    assert f.__name__ == "hipMemcpy" and f.__module__ == "hip.hip"
    assert f.__self__.__name__ == "hip.hip"
    # The docstring after the signature line is the header's documentation.
    assert f.__doc__.startswith("Copy data from src to dst.")
    assert "hipMemcpy" in repr(f)


def test_a_function_pickles_by_name():
    assert pickle.loads(pickle.dumps(hip.hipGetErrorString)) is hip.hipGetErrorString


def test_the_filled_module_is_a_plain_module():
    """After the first use the module is a plain `module` again (a subclass would look every
    attribute up through its class's hook), and still lists and makes its classes lazily."""
    hip.hipGetErrorString  # noqa: B018 - fills the module
    assert type(hip) is type(inspect)
    assert "hipDeviceProp_t" in dir(hip)
    assert hip.hipDeviceProp_t is hip.hipDeviceProp_t
    with pytest.raises(AttributeError, match="no attribute 'hipNoSuchName'"):
        hip.hipNoSuchName  # noqa: B018
