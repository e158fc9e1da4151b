"""A handle destroyed through the bindings is refused afterwards, before C sees it.

Real libraries here: hiprtc programs, hipSPARSE descriptors (host objects, no GPU needed) and
LLVM modules. The destroy functions are the spec's `destroys` rule; the mark travels with
copies of the handle and with the object a `createRef()` pointed at, and a handle C writes
anew into the same object is live again.
"""

import ctypes

import pytest

from hip import hiprtc, hipsparse
from hip._util.types import Pointer

RTC_OK = hiprtc.hiprtcResult.HIPRTC_SUCCESS
SPARSE_OK = hipsparse.hipsparseStatus_t.HIPSPARSE_STATUS_SUCCESS
SOURCE = b'extern "C" __global__ void k(float* p) { p[0] = 1.0f; }'


def program():
    status, prog = hiprtc.hiprtcCreateProgram(SOURCE, b"k.hip", 0, None, None)
    assert status == RTC_OK and prog is not None
    return prog


def test_a_destroyed_program_is_refused_by_every_hiprtc_call():
    prog = program()
    assert hiprtc.hiprtcDestroyProgram(prog) == (RTC_OK,)
    with pytest.raises(ValueError, match="destroyed by hiprtcDestroyProgram"):
        hiprtc.hiprtcCompileProgram(prog, 0, None)
    with pytest.raises(ValueError, match="hiprtcProgram"):
        hiprtc.hiprtcGetCodeSize(prog)
    # A second destroy would free it twice.
    with pytest.raises(ValueError):
        hiprtc.hiprtcDestroyProgram(prog)


def test_copies_made_before_the_destroy_are_refused_too():
    prog = program()
    copy = hiprtc.hiprtcProgram(prog)
    assert int(copy) == int(prog)
    assert hiprtc.hiprtcDestroyProgram(copy) == (RTC_OK,)
    for h in (prog, copy):
        with pytest.raises(ValueError):
            hiprtc.hiprtcGetCodeSize(h)
    # Still comparable and printable: only C is kept from it.
    assert copy == prog and "hiprtcProgram" in repr(prog)


def test_a_destroy_through_create_ref_marks_the_program_it_pointed_at():
    prog = program()
    assert hiprtc.hiprtcDestroyProgram(prog.createRef()) == (RTC_OK,)
    with pytest.raises(ValueError):
        hiprtc.hiprtcGetCodeSize(prog)
    with pytest.raises(ValueError):
        hiprtc.hiprtcDestroyProgram(prog.createRef())


def test_live_programs_are_untouched_by_another_ones_destroy():
    keep, drop = program(), program()
    assert hiprtc.hiprtcDestroyProgram(drop) == (RTC_OK,)
    assert hiprtc.hiprtcCompileProgram(keep, 1, [b"--offload-arch=gfx90a"]) == (RTC_OK,)
    status, size = hiprtc.hiprtcGetCodeSize(keep)
    assert status == RTC_OK and size > 0
    assert hiprtc.hiprtcDestroyProgram(keep) == (RTC_OK,)


def test_an_int_address_stays_the_callers_business():
    # Only objects of ours carry the mark; the int of a live program is passed as it is.
    prog = program()
    assert hiprtc.hiprtcGetProgramLogSize(int(prog))[0] == RTC_OK
    assert hiprtc.hiprtcDestroyProgram(prog) == (RTC_OK,)


def test_a_destroyed_sparse_descriptor_is_refused_and_a_recreated_one_accepted():
    descr = Pointer()
    for _ in range(3):
        # hip-python's idiom: C writes the descriptor through createRef(); the same object
        # stands for each new descriptor in turn (the allocator may well hand out the same
        # address again).
        assert hipsparse.hipsparseCreateMatDescr(descr.createRef()) == (SPARSE_OK,)
        assert hipsparse.hipsparseGetMatType(descr)[0] == hipsparse.hipsparseMatrixType_t(0)
        assert hipsparse.hipsparseDestroyMatDescr(descr) == (SPARSE_OK,)
        with pytest.raises(ValueError, match="hipsparseDestroyMatDescr"):
            hipsparse.hipsparseGetMatType(descr)
        with pytest.raises(ValueError):
            hipsparse.hipsparseDestroyMatDescr(descr)


def test_a_failed_destroy_marks_nothing():
    # hiprtc refuses a NULL program pointer: the status says so, nothing was destroyed, and
    # the same call reaches C again (its status again, no ValueError).
    null = Pointer()
    for _ in range(2):
        assert hiprtc.hiprtcDestroyProgram(null)[0] == hiprtc.hiprtcResult.HIPRTC_ERROR_INVALID_INPUT


def test_destroying_null_marks_nothing():
    # hipSPARSE answers success for a NULL descriptor (a no-op, as free(NULL)): NULL names no
    # C object, so the object holding it is not marked and may receive a descriptor later.
    descr = Pointer()
    for _ in range(2):
        assert hipsparse.hipsparseDestroyMatDescr(descr) == (SPARSE_OK,)
    assert hipsparse.hipsparseCreateMatDescr(descr.createRef()) == (SPARSE_OK,)
    assert hipsparse.hipsparseDestroyMatDescr(descr) == (SPARSE_OK,)


def test_a_disposed_llvm_module_is_refused():
    core = pytest.importorskip("rocm.llvm.c.core")
    module = core.LLVMModuleCreateWithName(b"m")
    length = ctypes.c_size_t()
    assert bytes(core.LLVMGetModuleIdentifier(module, ctypes.byref(length))) == b"m"
    core.LLVMDisposeModule(module)
    with pytest.raises(ValueError, match="LLVMDisposeModule"):
        core.LLVMGetModuleIdentifier(module, ctypes.byref(length))
    with pytest.raises(ValueError):
        core.LLVMDisposeModule(module)
