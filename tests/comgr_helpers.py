"""What the comgr tests share (test_rocm_llvm.py on bookworm's comgr, test_runtime_root.py on
the 6.4.3 and 7.2.4 roots' comgr 3): a kernel comgr compiles without HIP's headers, a status
check, data as bytes."""

import ctypes

from rocm.amd_comgr import amd_comgr as comgr

#: The kernel in clang's own terms: comgr compiles without hiprtc's implicit HIP header.
HIP_SOURCE = (
    b'extern "C" __attribute__((global)) void scale(float *x, float a)'
    b" { x[__builtin_amdgcn_workitem_id_x()] *= a; }"
)


def check(result):
    """The call's outputs after asserting its status is success."""
    status = result[0]
    assert status == comgr.amd_comgr_status_t.AMD_COMGR_STATUS_SUCCESS, result
    return result[1] if len(result) == 2 else None


def read_data(data):
    """A comgr data object's bytes."""
    size = ctypes.c_size_t()
    check(comgr.amd_comgr_get_data(data, ctypes.byref(size), None))
    buf = ctypes.create_string_buffer(size.value)
    check(comgr.amd_comgr_get_data(data, ctypes.byref(size), buf))
    return buf.raw[: size.value]
