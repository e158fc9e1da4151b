"""What the bindings check before C runs, on the real libraries here (hiprtc and comgr really
compile, LLVM really runs, hipSPARSE's descriptors are host objects): counts against lists,
buffers against the sizes C fills, handles by value against their kind, handles that live in
another one, array interfaces that are not one piece. Each refused call would have made C read
or write past Python memory, or hand a library a handle it never made (docs/conventions.md)."""

import ctypes

import numpy as np
import pytest
from comgr_helpers import HIP_SOURCE, check
from rocm.amd_comgr import amd_comgr as comgr
from rocm.llvm.c import core

from hip import hip, hiprand, hiprtc, hipsparse
from hip._util.types import Pointer

RTC_OK = hiprtc.hiprtcResult.HIPRTC_SUCCESS
SPARSE_OK = hipsparse.hipsparseStatus_t.HIPSPARSE_STATUS_SUCCESS
SOURCE = b'extern "C" __global__ void k(float* p) { p[0] = 1.0f; }'
ARCH = [b"--offload-arch=gfx90a"]


def program():
    status, prog = hiprtc.hiprtcCreateProgram(SOURCE, b"k.hip", 0, None, None)
    assert status == RTC_OK
    return prog


@pytest.fixture(scope="module")
def compiled():
    prog = program()
    assert hiprtc.hiprtcCompileProgram(prog, 1, ARCH) == (RTC_OK,)
    yield prog
    hiprtc.hiprtcDestroyProgram(prog)


# -- counts against lists ---------------------------------------------------------------------


@pytest.mark.parametrize("count", [1000, 2, -1])
def test_a_count_beyond_the_list_or_negative_is_refused(count):
    prog = program()
    with pytest.raises(ValueError, match="numOptions"):
        hiprtc.hiprtcCompileProgram(prog, count, ARCH)
    hiprtc.hiprtcDestroyProgram(prog)


def test_a_count_the_list_holds_compiles_and_a_smaller_one_reads_less():
    prog = program()
    # One of the two options read: the second (a bad flag) never reaches hiprtc.
    assert hiprtc.hiprtcCompileProgram(prog, 1, ARCH + [b"--no-such-flag"]) == (RTC_OK,)
    status, size = hiprtc.hiprtcGetCodeSize(prog)
    assert status == RTC_OK and size > 0
    hiprtc.hiprtcDestroyProgram(prog)


def test_one_count_for_two_lists_is_checked_against_both():
    with pytest.raises(ValueError, match="numHeaders is 50 but headers holds 1"):
        hiprtc.hiprtcCreateProgram(SOURCE, b"k.hip", 50, [b"int y;"], [b"h.h"])
    with pytest.raises(ValueError, match="includeNames holds 1"):
        hiprtc.hiprtcCreateProgram(SOURCE, b"k.hip", 2, [b"int y;", b"int z;"], [b"h.h"])
    status, prog = hiprtc.hiprtcCreateProgram(SOURCE, b"k.hip", 1, [b"int y;"], [b"h.h"])
    assert status == RTC_OK
    hiprtc.hiprtcDestroyProgram(prog)


def test_a_null_list_with_a_count_is_refused_and_an_address_is_the_callers_word():
    prog = program()
    with pytest.raises(ValueError, match="holds 0"):
        hiprtc.hiprtcCompileProgram(prog, 1, None)
    option = ctypes.c_char_p(ARCH[0])
    array = (ctypes.c_char_p * 1)(option.value)
    # An address tells no length: passed as given.
    assert hiprtc.hiprtcCompileProgram(prog, 1, ctypes.addressof(array)) == (RTC_OK,)
    hiprtc.hiprtcDestroyProgram(prog)


def test_an_llvm_handle_list_is_checked_against_its_count():
    ctx = core.LLVMContextCreate()
    i32 = core.LLVMInt32TypeInContext(ctx)
    with pytest.raises(ValueError, match="ParamCount is 5 but ParamTypes holds 2"):
        core.LLVMFunctionType(i32, [i32, i32], 5, 0)
    fty = core.LLVMFunctionType(i32, [i32, i32], 2, 0)
    assert core.LLVMCountParamTypes(fty) == 2
    core.LLVMContextDispose(ctx)


# -- buffers against the size C writes --------------------------------------------------------


def test_an_undersized_code_buffer_is_refused_before_hiprtc_writes(compiled):
    status, size = hiprtc.hiprtcGetCodeSize(compiled)
    assert status == RTC_OK and size > 16
    for small in (bytearray(16), np.zeros(16, np.uint8), bytearray(size - 1)):
        with pytest.raises(ValueError, match=f"holds {len(small)} bytes but C accesses {size}"):
            hiprtc.hiprtcGetCode(compiled, small)
    for fits in (bytearray(size), np.zeros(size + 8, np.uint8)):
        assert hiprtc.hiprtcGetCode(compiled, fits) == (RTC_OK,)
        assert bytes(fits[:4]) == b"\x7fELF"


def test_an_undersized_log_buffer_is_refused():
    status, prog = hiprtc.hiprtcCreateProgram(b"__global__ void k() { no_such(); }", b"k.hip", 0, None, None)
    assert hiprtc.hiprtcCompileProgram(prog, 1, ARCH)[0] != RTC_OK
    status, size = hiprtc.hiprtcGetProgramLogSize(prog)
    assert status == RTC_OK and size > 1
    with pytest.raises(ValueError, match="log holds"):
        hiprtc.hiprtcGetProgramLog(prog, bytearray(size - 1))
    log = bytearray(size)
    assert hiprtc.hiprtcGetProgramLog(prog, log) == (RTC_OK,)
    assert b"no_such" in log
    hiprtc.hiprtcDestroyProgram(prog)


def test_comgr_fills_no_more_than_the_buffer_it_is_given():
    data = check(comgr.amd_comgr_create_data(comgr.amd_comgr_data_kind_t.AMD_COMGR_DATA_KIND_SOURCE))
    check(comgr.amd_comgr_set_data(data, len(HIP_SOURCE), HIP_SOURCE))
    size = ctypes.c_size_t(len(HIP_SOURCE))
    with pytest.raises(ValueError, match=f"bytes holds 16 bytes but C accesses {len(HIP_SOURCE)}"):
        comgr.amd_comgr_get_data(data, ctypes.byref(size), bytearray(16))
    out = bytearray(len(HIP_SOURCE))
    check(comgr.amd_comgr_get_data(data, ctypes.byref(size), out))
    assert bytes(out) == HIP_SOURCE
    # NULL asks the size.
    check(comgr.amd_comgr_get_data(data, ctypes.byref(size), None))
    assert size.value == len(HIP_SOURCE)
    check(comgr.amd_comgr_release_data(data))


def test_a_host_copy_destination_must_hold_the_bytes_copied():
    with pytest.raises(ValueError, match="dst holds 16 bytes but C accesses 1024"):
        hip.hipMemcpy(np.zeros(4, np.float32), 0, 1024, hip.hipMemcpyKind.hipMemcpyDeviceToHost)
    with pytest.raises(ValueError, match="src holds 8 bytes"):
        hip.hipMemcpyHtoD(0, bytearray(8), 64)


# -- handles by value -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "call",
    [
        lambda bad: hiprtc.hiprtcGetCodeSize(bad),
        lambda bad: hipsparse.hipsparseDestroy(bad),
        lambda bad: hipsparse.hipsparseDestroyMatDescr(bad),
        lambda bad: hiprand.hiprandDestroyGenerator(bad),
        lambda bad: core.LLVMContextDispose(bad),
        lambda bad: core.LLVMPrintValueToString(bad),
        lambda bad: hip.hipStreamSynchronize(bad),
    ],
)
def test_a_struct_a_buffer_or_an_array_is_no_handle(call):
    for bad in (hip.hipDeviceProp_t(), comgr.amd_comgr_data_s(), bytearray(b"\xab" * 256), np.zeros(8)):
        with pytest.raises(TypeError, match="handle"):
            call(bad)


def test_a_handle_of_another_kind_is_refused_and_its_own_kind_taken(compiled):
    ctx = core.LLVMContextCreate()
    module = core.LLVMModuleCreateWithNameInContext(b"m", ctx)
    with pytest.raises(TypeError, match="hiprtcProgram|_hiprtcProgram"):
        hiprtc.hiprtcGetCodeSize(module)
    with pytest.raises(TypeError, match="LLVMOpaqueContext|LLVMContextRef"):
        core.LLVMContextDispose(module)
    with pytest.raises(TypeError):
        core.LLVMGetDataLayoutStr(compiled)
    assert hiprtc.hiprtcGetCodeSize(compiled)[0] == RTC_OK
    # The generic forms stay: a Pointer, an int address, a ctypes pointer.
    assert hiprtc.hiprtcGetCodeSize(Pointer(int(compiled)))[0] == RTC_OK
    assert hiprtc.hiprtcGetCodeSize(int(compiled))[0] == RTC_OK
    assert hiprtc.hiprtcGetCodeSize(ctypes.c_void_p(int(compiled)))[0] == RTC_OK
    core.LLVMDisposeModule(module)
    core.LLVMContextDispose(ctx)


def test_void_pointer_handles_refuse_memory_and_structs():
    descr = Pointer()
    status = hipsparse.hipsparseCreateMatDescr(descr.createRef())[0]
    assert status == SPARSE_OK
    with pytest.raises(TypeError, match="hipsparseMatDescr_t"):
        hipsparse.hipsparseGetMatType(hip.hipDeviceProp_t())
    general = hipsparse.hipsparseMatrixType_t.HIPSPARSE_MATRIX_TYPE_GENERAL
    assert hipsparse.hipsparseGetMatType(descr)[0] == general
    assert hipsparse.hipsparseDestroyMatDescr(descr)[0] == SPARSE_OK


def test_a_comgr_handle_struct_refuses_a_buffer_and_its_destroy_marks_it():
    with pytest.raises(TypeError, match="amd_comgr_data_s"):
        comgr.amd_comgr_release_data(bytearray(b"\xab" * 256))
    with pytest.raises(TypeError, match="amd_comgr_data_s"):
        comgr.amd_comgr_release_data(hip.hipDeviceProp_t())
    info = check(comgr.amd_comgr_create_action_info())
    check(comgr.amd_comgr_destroy_action_info(info))
    with pytest.raises(ValueError, match="destroyed by amd_comgr_destroy_action_info"):
        comgr.amd_comgr_destroy_action_info(info)
    with pytest.raises(ValueError):
        comgr.amd_comgr_action_info_set_isa_name(info, b"amdgcn-amd-amdhsa--gfx90a")


# -- handles living in another ----------------------------------------------------------------


def test_a_module_and_its_types_end_with_their_context():
    ctx = core.LLVMContextCreate()
    module = core.LLVMModuleCreateWithNameInContext(b"m", ctx)
    i32 = core.LLVMInt32TypeInContext(ctx)
    fn = core.LLVMAddFunction(module, b"f", core.LLVMFunctionType(i32, [i32], 1, 0))
    assert core.LLVMCountParams(fn) == 1
    core.LLVMContextDispose(ctx)
    for use in (
        lambda: core.LLVMGetDataLayoutStr(module),
        lambda: core.LLVMGetIntTypeWidth(i32),
        lambda: core.LLVMCountParams(fn),
        lambda: core.LLVMDisposeModule(module),
    ):
        with pytest.raises(ValueError, match="LLVMContextDispose"):
            use()


def test_a_function_ends_with_its_module_and_the_context_lives_on():
    ctx = core.LLVMContextCreate()
    module = core.LLVMModuleCreateWithNameInContext(b"m", ctx)
    i32 = core.LLVMInt32TypeInContext(ctx)
    fn = core.LLVMAddFunction(module, b"f", core.LLVMFunctionType(i32, [i32], 1, 0))
    core.LLVMDisposeModule(module)
    with pytest.raises(ValueError, match="LLVMDisposeModule"):
        core.LLVMCountParams(fn)
    # The context and what it made outside the module stay usable.
    assert core.LLVMGetIntTypeWidth(i32) == 32
    other = core.LLVMModuleCreateWithNameInContext(b"n", ctx)
    core.LLVMDisposeModule(other)
    core.LLVMContextDispose(ctx)


# -- array interfaces -------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["__cuda_array_interface__", "__array_interface__"])
def test_an_array_interface_with_gaps_is_refused_as_a_buffer_is(name):
    a = np.zeros((4, 4), np.float32)

    class Strided:
        pass

    setattr(Strided, name, property(lambda _: a[:, ::2].__array_interface__))
    with pytest.raises(ValueError, match="not contiguous"):
        hip.hipMemset(Strided(), 0, 8)

    class Whole:
        pass

    # One piece, with explicit strides (C order, then Fortran order): taken.
    setattr(Whole, name, property(lambda _: dict(a.__array_interface__, strides=(16, 4))))
    assert isinstance(hip.hipMemset(Whole(), 0, 0)[0], hip.hipError_t)
    setattr(Whole, name, property(lambda _: dict(a.T.__array_interface__)))
    assert isinstance(hip.hipMemset(Whole(), 0, 0)[0], hip.hipError_t)
