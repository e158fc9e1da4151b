"""cuda-python's calling conventions on the HIP runtime (without a GPU it answers
hipErrorNoDevice / hipErrorInvalidDevice, which is enough to see each convention at work:
who takes which argument, what comes back, in which order and of which type)."""

import ctypes
import inspect
import itertools
import json
import os
import subprocess
import sys

import pytest

from hip import _native as hip_native

cuda = pytest.importorskip("cuda.bindings.driver")
from cuda import _conventions, _plan  # noqa: E402
from cuda.bindings import nvrtc  # noqa: E402
from cuda.bindings import runtime as cudart  # noqa: E402

from hip import HipLoadError, hip  # noqa: E402


def params(fn):
    return list(inspect.signature(fn).parameters)


SIGNATURE = (
    "import inspect; from cuda.bindings import driver as d; print(list(inspect.signature(d.{}).parameters))"
)


def in_api(version, code):
    """Runs `code` in a fresh interpreter with HIP_PYTHON_CUDA_API=version; its stdout."""
    env = dict(os.environ, HIP_PYTHON_CUDA_API=version)
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    return out.stdout.strip()


def test_same_convention_is_the_hip_object():
    assert cudart.cudaFree is hip.hipFree
    assert cuda.cuStreamSynchronize is hip.hipStreamSynchronize


def test_void_pointer_outputs_are_ints():
    # cuda-python returns `void **` outputs as int addresses (ctypes.c_void_p(p),
    # Struct.from_address(p) take them); HIP's bindings return pointer objects.
    for name in ("cudaMalloc", "cudaHostAlloc", "cudaMallocHost", "cudaMallocManaged"):
        (result,) = _plan.tables().adapted[name]["results"]
        assert result.get("address"), name
        assert _conventions.hip_function(getattr(cudart, name)) is not None
    assert "address" not in _plan.tables().adapted["cuMemAlloc"]["results"][0]  # a CUdeviceptr


def test_struct_output_is_returned():
    # cuda-python: err, prop = cudaGetDeviceProperties(device); HIP takes the struct from the caller.
    assert params(cudart.cudaGetDeviceProperties) == ["device"]
    assert params(hip.hipGetDeviceProperties) == ["prop", "deviceId"]


def test_hip_parameter_cuda_lacks_is_zero():
    # cudaMallocHost(size) → hipHostMalloc(size, 0)
    assert params(cudart.cudaMallocHost) == ["size"]
    err, ptr = cudart.cudaMallocHost(64)
    want = hip.hipHostMalloc(64, 0)[0]
    assert err == want
    if err != 0:
        assert ptr is None  # cuda-python returns None outputs with an error status


def test_api_13_is_default_and_12_selectable():
    assert _plan.api_version() == "13"
    assert params(cuda.cuCtxCreate) == ["ctxCreateParams", "flags", "dev"]
    code = SIGNATURE.format("cuCtxCreate")
    assert len(eval(in_api("12", code))) == 2  # HIP's own names: no adapter for names alone
    # cuMemAdvise: a CUdevice in 12, a CUmemLocation in 13.
    code = SIGNATURE.format("cuMemAdvise")
    assert in_api("12", code).endswith("'device']")
    assert in_api("13", code).endswith("'location']")


def test_bad_api_version_is_a_value_error():
    env = dict(os.environ, HIP_PYTHON_CUDA_API="11")
    out = subprocess.run(
        [sys.executable, "-c", "from cuda.bindings import driver as d; d.cuCtxCreate"],
        env=env,
        capture_output=True,
        text=True,
    )
    assert out.returncode != 0
    assert "HIP_PYTHON_CUDA_API='11'" in out.stderr and "ValueError" in out.stderr


def test_input_hip_lacks_accepts_only_null():
    # CUDA 13's ctxCreateParams has no HIP counterpart: None passes through, anything else is
    # refused with CUDA_ERROR_NOT_SUPPORTED before HIP is called.
    err, ctx = cuda.cuCtxCreate(None, 0, 0)
    assert err == hip.hipCtxCreate(0, 0)[0]
    err, ctx = cuda.cuCtxCreate(5, 0, 0)
    assert err == cuda.CUresult.CUDA_ERROR_NOT_SUPPORTED
    assert ctx is None


def test_keywords_use_cuda_names():
    err, ctx = cuda.cuCtxCreate(ctxCreateParams=None, flags=0, dev=0)
    assert isinstance(err, cuda.CUresult)
    with pytest.raises(TypeError):
        cuda.cuCtxCreate(None, 0, device=0)  # HIP's name, not CUDA's


def test_unsupported_function_returns_status():
    assert "cuDeviceGetLuid" in dir(cuda)
    result = cuda.cuDeviceGetLuid(0)
    assert result[0] == cuda.CUresult.CUDA_ERROR_NOT_SUPPORTED
    assert all(r is None for r in result[1:])
    assert "not supported" in cuda.cuDeviceGetLuid.__doc__


def test_integer_typedef_classes():
    d = cuda.CUdeviceptr(7)
    assert str(d) == "<CUdeviceptr 7>" and int(d) == 7
    assert int(cuda.CUdeviceptr(2**64 - 1)) == 2**64 - 1
    assert str(cuda.cuuint32_t(7)) == "<cuuint32_t 7>"
    with pytest.raises(OverflowError):
        cuda.cuuint32_t(2**64 - 1)
    with pytest.raises(OverflowError):
        cuda.CUdeviceptr(-1)
    # getPtr(): the address of a C value holding it
    v = cuda.cuuint64_t(0x1234)
    assert ctypes.c_uint64.from_address(v.getPtr()).value == 0x1234
    assert cuda.cuuint64_t(_ptr=v.getPtr()) == 0x1234
    assert str(cudart.cudaSurfaceObject_t(248)) == "<cudaSurfaceObject_t 248>"
    # HIP functions take them where they take integers and pointers
    assert isinstance(hip.hipFree(cuda.CUdeviceptr(0))[0], hip.hipError_t)


def test_outputs_of_typedef_type_are_wrapped():
    err, dev = cuda.cuDeviceGet(0)
    assert err == hip.hipDeviceGet(0)[0]
    if err == 0:
        assert type(dev).__name__ == "CUdevice"


def _packed(obj):
    """The 8 bytes per argument a launch passes for `kernelParams` form `obj`."""
    return hip_native._kernel_param_values(obj)


def test_kernel_params_forms():
    dptr = cuda.CUdeviceptr(0xABC0)
    args = _packed(
        (
            (1, 2.5, dptr, ctypes.c_float(1.5), 0xDEAD, cudart.cudaError_t.cudaErrorUnknown),
            (ctypes.c_int, ctypes.c_double, None, ctypes.c_float, ctypes.c_void_p, None),
        )
    )
    assert args[0] & 0xFFFFFFFF == 1
    assert ctypes.c_double.from_buffer_copy(args[1].to_bytes(8, "little")).value == 2.5
    assert args[2] == 0xABC0
    assert ctypes.c_float.from_buffer_copy((args[3] & 0xFFFFFFFF).to_bytes(4, "little")).value == 1.5
    assert args[4] == 0xDEAD
    assert args[5] & 0xFFFFFFFF == int(cudart.cudaError_t.cudaErrorUnknown)
    assert _packed(None) == []
    with pytest.raises(TypeError, match="differ in length"):
        _packed(((1, 2), (ctypes.c_int,)))
    with pytest.raises(TypeError, match="getPtr"):
        _packed(((object(),), (None,)))


def test_launch_takes_cuda_forms():
    # No device here: HIP answers with a status for a null function; what matters is that the
    # forms convert and the call reaches HIP.
    for form in (None, 0, ((), ()), ((1,), (ctypes.c_int,))):
        result = cuda.cuLaunchKernel(0, 1, 1, 1, 1, 1, 1, 0, 0, form, 0)
        assert len(result) == 1 and isinstance(result[0], cuda.CUresult)
    assert params(cuda.cuLaunchKernel)[8:] == ["hStream", "kernelParams", "extra"]


def test_nvrtc_overrides_stay():
    from cuda import _nvrtc

    assert nvrtc.nvrtcCompileProgram is _nvrtc.nvrtcCompileProgram
    assert nvrtc.nvrtcCompileProgram.__module__ == "cuda._native"


def test_tables_cover_both_versions():
    from cuda import _native

    assert set(_native.api_versions()) == {"12", "13"}
    t12 = json.loads(_native.conventions("12"))
    t13 = json.loads(_native.conventions("13"))
    assert t12["not_supported"]["CUresult"] == "CUDA_ERROR_NOT_SUPPORTED"
    names12 = {a["cuda"] for a in t12["adapted"]}
    assert {"cudaGetDeviceProperties", "cuLaunchKernel", "cuMemAlloc"} <= names12
    assert "cuCtxCreate_v4" in names12 | {s["cuda"] for s in t12["stubs"]}  # 12 names both
    assert "cuCtxCreate_v4" not in {a["cuda"] for a in t13["adapted"]} | {s["cuda"] for s in t13["stubs"]}


def test_cubin_is_the_code_object():
    src = b'extern "C" __global__ void k(int *x) { *x = 1; }'
    err, prog = nvrtc.nvrtcCreateProgram(src, b"k.cu", 0, None, None)
    assert err == nvrtc.nvrtcResult.NVRTC_SUCCESS
    (err,) = nvrtc.nvrtcCompileProgram(prog, 1, [b"--offload-arch=gfx90a"])
    assert err == nvrtc.nvrtcResult.NVRTC_SUCCESS
    err, size = nvrtc.nvrtcGetCUBINSize(prog)
    assert err == nvrtc.nvrtcResult.NVRTC_SUCCESS and size > 0
    cubin, ptx = b" " * size, b" " * size
    assert nvrtc.nvrtcGetCUBIN(prog, cubin)[0] == nvrtc.nvrtcResult.NVRTC_SUCCESS
    assert nvrtc.nvrtcGetPTX(prog, ptx)[0] == nvrtc.nvrtcResult.NVRTC_SUCCESS
    assert cubin == ptx and cubin[:4] == b"\x7fELF"


# --- CUDA's own types and the runtime module's helpers -------------------------------------


def test_cuda_only_enum_has_cuda_values():
    # HIP has no counterpart of CUdevResourceType: the class holds CUDA's members and values.
    members = dict(_plan.enum_members("CUdevResourceType"))
    assert members, "CUDA 13's cuda.h declares CUdevResourceType"
    cls = cuda.CUdevResourceType
    assert {m.name: int(m) for m in cls} == {n: v for n, v in members.items() if n in cls.__members__}
    assert int(cuda.CUmemAttach_flags.CU_MEM_ATTACH_GLOBAL) == 1
    assert "CUdevResourceType" in cuda.__all__


def test_cuda_member_hip_lacks_gets_a_value_no_hip_member_has():
    attr = cudart.cudaDeviceAttr.cudaDevAttrSparseCudaArraySupported
    hip_values = {int(m) for m in hip.hipDeviceAttribute_t}
    assert int(attr) not in hip_values
    # HIP answers with an error status, never a value of another attribute.
    err, _ = cudart.cudaDeviceGetAttribute(attr, 0)
    assert err != 0
    # A member HIP has keeps HIP's value.
    assert int(cudart.cudaDeviceAttr.cudaDevAttrWarpSize) == int(
        hip.hipDeviceAttribute_t.hipDeviceAttributeWarpSize
    )


def test_cuda_only_handles_are_pointer_classes():
    a, b, c = cuda.CUlibrary(123), cuda.CUlibrary(123), cuda.CUkernel(456)
    assert a == b and hash(a) == hash(b) and a != cuda.CUlibrary(7)
    assert int(c) == 456
    # getPtr(): the address of a slot holding the handle's value.
    assert ctypes.c_void_p.from_address(c.getPtr()).value == 456


def test_handle_constants():
    assert isinstance(cudart.cudaStreamLegacy, cudart.cudaStream_t)
    assert int(cudart.cudaStreamLegacy) == 1 and int(cudart.cudaStreamPerThread) == 2
    assert int(cuda.CU_STREAM_PER_THREAD) == 2
    assert int(cudart.cudaStream_t(cudart.cudaStreamLegacy)) == 1


def test_runtime_helpers():
    assert issubclass(cudart.dim3, hip.dim3) and isinstance(hip.dim3(), cudart.dim3)
    assert cudart.sizeof(cudart.dim3) == 12
    assert cudart.sizeof(cudart.cudaSurfaceObject_t) == 8
    assert cudart.sizeof(cudart.cudaStream_t) == ctypes.sizeof(ctypes.c_void_p)
    e = cudart.make_cudaExtent(1, 2, 3)
    assert (e.width, e.height, e.depth) == (1, 2, 3)
    p = cudart.make_cudaPos(4, 5, 6)
    assert (p.x, p.y, p.z) == (4, 5, 6)
    pp = cudart.make_cudaPitchedPtr(0x1000, 64, 16, 4)
    assert (int(pp.ptr), pp.pitch, pp.xsize, pp.ysize) == (0x1000, 64, 16, 4)
    err, version = cudart.getLocalRuntimeVersion()
    assert err == 0 and version == hip.hipRuntimeGetVersion()[1]
    with pytest.raises(TypeError):
        cudart.sizeof(object())


def test_struct_ptr_view_and_get_ptr():
    memory = (ctypes.c_uint32 * 3)(4, 5, 6)
    d = cudart.dim3(_ptr=ctypes.addressof(memory))
    assert (d.x, d.y, d.z) == (4, 5, 6)
    d.y = 50  # a view: the memory changes
    assert memory[1] == 50
    assert d.getPtr() == ctypes.addressof(memory)
    fresh = cudart.dim3(_ptr=0)
    assert fresh.getPtr() != 0 and (fresh.x, fresh.y, fresh.z) == (1, 1, 1)
    with pytest.raises(ValueError):
        cudart.dim3(1, _ptr=ctypes.addressof(memory))


def test_ptr_view_clears_the_pointer_fields_it_set_when_it_goes():
    # cuda-python's test_dealloc_clears_array_field_in_external_struct: a list given to a
    # pointer field of a `_ptr=` view is packed into a C array the view keeps; when the view
    # goes, the owner of the memory must not be left holding that array's freed address.
    outer = cuda.CUlaunchConfig()
    attrs = type(outer).attrs.offset
    word = ctypes.c_void_p.from_address(outer.getPtr() + attrs)
    inner = cuda.CUlaunchConfig(_ptr=outer.getPtr())
    inner.attrs = [cuda.CUlaunchAttribute() for _ in range(4)]
    assert word.value and outer.attrs == word.value
    del inner
    assert word.value is None
    # A field set through the owner since then is the owner's: the view leaves it alone.
    kept = [cuda.CUlaunchAttribute() for _ in range(2)]
    inner = cuda.CUlaunchConfig(_ptr=outer.getPtr())
    inner.attrs = kept
    outer.attrs = kept
    now = word.value
    del inner
    assert word.value == now and now


def test_unsigned_char_arrays_read_as_all_their_bytes():
    # cuda-python reads `unsigned char reserved[5]` as 5 bytes, NULs included, and sets it
    # item by item from bytes or integers (`ed.reserved == b"\x00" * 5` in its tests).
    ed = cudart.cudaGraphEdgeData()
    assert ed.reserved == b"\x00" * 5
    ed.reserved = b"\x01\x00\x02"
    assert ed.reserved == b"\x01\x00\x02\x00\x00"
    ed.reserved = [255, 0, 7, 0, 1]
    assert ed.reserved == bytes([255, 0, 7, 0, 1])
    assert cuda.CUgraphEdgeData().reserved == b"\x00" * 5
    with pytest.raises(OverflowError):
        ed.reserved = [256]
    with pytest.raises(OverflowError):
        ed.reserved = [-1]
    with pytest.raises(ValueError):
        ed.reserved = bytes(6)
    with pytest.raises(TypeError):
        ed.reserved = "abc"


def test_device_addresses_take_floats_as_cuda_pythons_integers_do():
    # CUdeviceptr is an integer in CUDA: cuda-python truncates a float given there
    # (vectorAddMMAP maps at `int(dptr) + stripeSize * idx`, stripeSize = size / n). HIP's
    # `void *` refuses one; the CUDA name converts it first, and still refuses what is no
    # number or address.
    (err,) = cuda.cuMemMap(4096.0, 4096, 0, 0, 0)
    assert isinstance(err, cuda.CUresult) and err != cuda.CUresult.CUDA_SUCCESS
    (err,) = cuda.cuMemsetD8(4096.5, 1, 16)
    assert isinstance(err, cuda.CUresult)
    with pytest.raises(TypeError, match="ptr"):
        hip.hipMemMap(4096.0, 4096, 0, 0, 0)
    with pytest.raises(TypeError, match="'ptr'"):
        cuda.cuMemMap("4096", 4096, 0, 0, 0)
    with pytest.raises(ValueError):
        cuda.cuMemMap(float("nan"), 4096, 0, 0, 0)


def test_struct_arrays_from_lists_where_c_reads_them():
    # cuda-python: cuMemSetAccess(ptr, size, [CUmemAccessDesc, ...], count). A `const T *`
    # struct parameter takes a list of T, packed side by side for the call; HIP's name too.
    desc = cuda.CUmemAccessDesc()
    desc.flags = cuda.CUmemAccess_flags.CU_MEM_ACCESS_FLAGS_PROT_READWRITE
    (err,) = cuda.cuMemSetAccess(0, 4096, [desc, desc], 2)
    assert err == hip.hipMemSetAccess(0, 4096, desc, 1)[0]
    assert hip.hipMemSetAccess(0, 4096, (hip.hipMemAccessDesc(),), 1)[0] == err
    with pytest.raises(TypeError, match="item 1"):
        cuda.cuMemSetAccess(0, 4096, [desc, cuda.CUuuid()], 2)
    with pytest.raises(TypeError, match="item 0"):
        hip.hipMemSetAccess(0, 4096, [4096], 1)


def test_handle_from_ptr_reads_the_stored_pointer():
    # cuda-python: cudaStreamCallback_t(_ptr=ctypes.addressof(c_callback)).
    callback = ctypes.CFUNCTYPE(None)(lambda: None)
    fn = cudart.cudaHostFn_t(_ptr=ctypes.addressof(callback))
    assert int(fn) == ctypes.cast(callback, ctypes.c_void_p).value
    with pytest.raises(ValueError):
        cudart.cudaStream_t(5, _ptr=ctypes.addressof(callback))


def test_program_log_into_a_one_byte_bytes():
    # cuda-python's idiom: log = b" " * logSize, and an empty log is 1 byte (the NUL).
    err, prog = nvrtc.nvrtcCreateProgram(b'extern "C" __global__ void k() {}', b"k.cu", 0, None, None)
    assert err == 0
    (err,) = nvrtc.nvrtcCompileProgram(prog, 1, [b"--offload-arch=gfx90a"])
    assert err == 0
    err, size = nvrtc.nvrtcGetProgramLogSize(prog)
    # A clean compile: empty (hiprtc) or the NUL alone (NVRTC; tests/test_gpu.py covers it).
    assert err == 0 and size in (0, 1)
    log = b" " * size
    (err,) = nvrtc.nvrtcGetProgramLog(prog, log)
    assert err == 0
    assert b" " == bytes([32])  # the shared one-byte object is untouched
    nvrtc.nvrtcDestroyProgram(prog)


def test_kernel_params_storage_forms():
    # cuda-python's test_kernelParams idioms: a typedef object over caller memory with type
    # c_void_p passes that memory's address (the kernel writes there); a struct with type
    # None passes its bytes; a struct over caller memory with c_void_p passes its address;
    # a handle with type None passes its value.
    surface_mem = ctypes.c_uint64(7)
    dim_mem = (ctypes.c_uint32 * 3)()
    surface = cudart.cudaSurfaceObject_t(_ptr=ctypes.addressof(surface_mem))
    assert int(surface) == 7 and surface.getPtr() == ctypes.addressof(surface_mem)
    assert isinstance(surface, cudart.cudaSurfaceObject_t)
    surface_mem.value = 248  # as a kernel writing there: the object reads the memory
    assert int(surface) == 248 and surface == cudart.cudaSurfaceObject_t(248)
    dim = cudart.dim3(4, 5, 6)
    dim_view = cudart.dim3(_ptr=ctypes.addressof(dim_mem))
    stream = cudart.cudaStream_t(0x5000)
    args = _packed(((surface, dim, dim_view, stream), (ctypes.c_void_p, None, ctypes.c_void_p, None)))
    assert args[0] == ctypes.addressof(surface_mem)
    assert args[1] == 4 | 5 << 32  # the struct's own bytes (its first 8)
    assert args[2] == ctypes.addressof(dim_mem)
    assert args[3] == 0x5000


def test_cuda_only_structs_have_cuda_layout_and_fields():
    # CUexecAffinityParam_st has no HIP counterpart: its class is made from cuda.h's layout.
    a, b = cuda.CUexecAffinityParam_st(), cuda.CUexecAffinityParam_st()
    assert cuda.CUexecAffinityParam_st is cuda.CUexecAffinityParam  # tag and typedef
    assert a.param.smCount.val == 0
    a.param.smCount.val = 5
    b.param.smCount.val = 11
    assert a.param.smCount.val == 5
    a.param = b.param  # assigning a nested record copies its bytes
    assert a.param.smCount.val == 11
    # The memory is C's layout: `type` (an enum) at 0, the union at 4.
    assert ctypes.c_uint32.from_address(a.getPtr() + 4).value == 11
    with pytest.raises(OverflowError, match="val"):
        a.param.smCount.val = -1
    # Nested HIP structs are HIP's classes, viewing this record's memory (kept alive).
    assert cudart.sizeof(cudart.cudaMemcpy3DPeerParms) == 168  # CUDA's layout
    params = cudart.cudaMemcpy3DPeerParms()
    params.srcPtr = cudart.make_cudaPitchedPtr(0x1000, 64, 16, 4)
    ptr = cudart.cudaMemcpy3DPeerParms().srcPtr
    del params
    assert ptr.pitch == 0  # a fresh record's view, still valid
    # `unsigned char` arrays are bytes, as cuda-python reads them; `_ptr=` views caller memory.
    memory = ctypes.create_string_buffer(64)
    desc = cuda.CUmemDecompressParams_st(_ptr=ctypes.addressof(memory))
    desc.srcNumBytes = 7
    assert ctypes.c_size_t.from_address(ctypes.addressof(memory)).value == 7
    assert desc.padding == bytes(20)
    assert "CUexecAffinityParam_st" in cuda.__all__
    assert "srcNumBytes : 7" in str(desc)
    # A union whose members are named structs declared inside it; the members overlap.
    ops = cuda.CUstreamBatchMemOpParams()
    ops.waitValue.value64 = 666
    assert int(ops.waitValue.value64) == 666
    assert ops.writeValue.value64 == 666  # the same bytes through another member


def test_attribute_values_are_values():
    # cuda-python: err, value = cuMemPoolGetAttribute(pool, attr); cuMemPoolSetAttribute(pool,
    # attr, value). HIP takes the value's address in both.
    assert params(cuda.cuMemPoolGetAttribute) == ["pool", "attr"]
    assert params(cuda.cuMemPoolSetAttribute) == ["pool", "attr", "value"]
    assert params(cudart.cudaDeviceGetGraphMemAttribute) == ["device", "attr"]
    attr = cuda.CUmemPool_attribute.CU_MEMPOOL_ATTR_RELEASE_THRESHOLD
    err, value = cuda.cuMemPoolGetAttribute(None, attr)
    assert err == hip.hipMemPoolGetAttribute(None, attr, ctypes.c_uint64())[0]
    if err != 0:
        assert value is None
    # An integer value reaches C in memory of its own, never as an address.
    (err,) = cuda.cuMemPoolSetAttribute(None, attr, cuda.cuuint64_t(1 << 40))
    assert err == hip.hipMemPoolSetAttribute(None, attr, ctypes.c_uint64(1 << 40))[0]
    with pytest.raises(OverflowError):
        cuda.cuMemPoolSetAttribute(None, attr, 1 << 64)


def test_pointer_attributes_are_values():
    # cuda-python: err, value = cuPointerGetAttribute(attribute, ptr);
    # (err,) = cuPointerSetAttribute(value, attribute, ptr). HIP takes the value's address.
    assert params(cuda.cuPointerGetAttribute) == ["attribute", "ptr"]
    assert params(cuda.cuPointerSetAttribute) == ["value", "attribute", "ptr"]
    attr = cuda.CUpointer_attribute.CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL
    err, value = cuda.cuPointerGetAttribute(attr, 0)
    assert err == hip.hipPointerGetAttribute(ctypes.c_uint64(), attr, 0)[0]
    if err != 0:
        assert value is None
    sync = cuda.CUpointer_attribute.CU_POINTER_ATTRIBUTE_SYNC_MEMOPS
    try:
        expected = hip.hipPointerSetAttribute(ctypes.c_uint64(1), sync, 0)[0]
    except HipLoadError:  # the HIP 5 runtime here lacks it: the CUDA name says the same
        with pytest.raises(HipLoadError, match="hipPointerSetAttribute"):
            cuda.cuPointerSetAttribute(True, sync, 0)
    else:
        assert cuda.cuPointerSetAttribute(True, sync, 0) == (expected,)


def test_has_symbol_resolves_without_calling():
    assert hip.has_symbol("hipMalloc")
    assert not hip.has_symbol("hipNoSuchFunction")
    # The HIP 5 runtime here lacks hipPointerSetAttribute: calling it raises, asking does not.
    try:
        hip.hipPointerSetAttribute(ctypes.c_uint64(1), 1, 0)
    except HipLoadError:
        assert not hip.has_symbol("hipPointerSetAttribute")
    else:
        assert hip.has_symbol("hipPointerSetAttribute")
    with pytest.raises(HipLoadError, match="hipNoSuchFunction"):
        hip._symbol_address("hipNoSuchFunction")


def test_in_out_counts_and_handle_arrays():
    # cuda-python: err, nodes, numNodes = cudaGraphGetNodes(graph, numNodes=0): the count
    # goes in and comes back, the nodes are a list of that many handles.
    assert params(cudart.cudaGraphGetNodes) == ["graph", "numNodes"]
    assert inspect.signature(cudart.cudaGraphGetNodes).parameters["numNodes"].default == 0
    err, nodes, num = cudart.cudaGraphGetNodes(None)
    assert err == hip.hipGraphGetNodes(None)[0]
    if err != 0:
        assert (nodes, num) == (None, None)
    assert params(cuda.cuGraphGetEdges) == ["hGraph", "numEdges"]
    # cuda-bindings 13 also returns the edges' data, which HIP 6.4 does not keep.
    assert len(cudart.cudaGraphGetEdges(None, 0)) == 5
    code = "from cuda.bindings import runtime as r; print(len(r.cudaGraphGetEdges(None, 0)))"
    assert in_api("12", code) == "4"
    # A swapped mode goes in and comes back (a CUDA enum member on success).
    mode = cudart.cudaStreamCaptureMode.cudaStreamCaptureModeRelaxed
    err, old = cudart.cudaThreadExchangeStreamCaptureMode(mode)
    assert err == hip.hipThreadExchangeStreamCaptureMode()[0]
    if err == 0:
        assert isinstance(old, cudart.cudaStreamCaptureMode)
        cudart.cudaThreadExchangeStreamCaptureMode(old)


def test_lists_and_attribute_value_lists():
    # cuda-python: cuModuleLoadDataEx(image, numOptions, options, optionValues) takes lists;
    # cuPointerGetAttributes(n, attributes, ptr) and cuMemRangeGetAttributes(sizes, attributes,
    # n, ptr, count) return one value per attribute.
    assert params(cuda.cuModuleLoadDataEx) == ["image", "numOptions", "options", "optionValues"]
    keys = [cuda.CUjit_option.CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES, cuda.CUjit_option.CU_JIT_LOG_VERBOSE]
    err, module = cuda.cuModuleLoadDataEx(b"\0" * 64, 2, keys, [1024, 1])
    assert err == hip.hipModuleLoadData(b"\0" * 64)[0]
    assert module is None or err == 0
    ordinal = cuda.CUpointer_attribute.CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL
    one = cuda.cuPointerGetAttribute(ordinal, 0)
    many = cuda.cuPointerGetAttributes(1, [ordinal], 0)
    assert many[0] == one[0]
    if many[0] == 0:
        assert str(many[1][0]) == str(one[1])
        assert abs(many[1][0]) < 256  # an `int` attribute, read as one (signed)
    read_mostly = cuda.CUmem_range_attribute.CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY
    accessed_by = cuda.CUmem_range_attribute.CU_MEM_RANGE_ATTRIBUTE_ACCESSED_BY
    err, value = cuda.cuMemRangeGetAttribute(4, read_mostly, 0, 4096)
    assert err == hip.hipMemRangeGetAttribute(ctypes.c_int(), 4, read_mostly, 0, 4096)[0]
    err, values = cuda.cuMemRangeGetAttributes([4, 12], [read_mostly, accessed_by], 2, 0, 4096)
    assert err != 0 or (isinstance(values[0], int) and len(values[1]) == 3)
    with pytest.raises(TypeError, match="'image'"):
        cuda.cuModuleLoadDataEx(object(), 0, [], [])


def test_location_where_hip_takes_a_device():
    # cuda-bindings 13: cuMemAdvise(ptr, size, advice, CUmemLocation); HIP 6.4 takes a device
    # ordinal (the host: hipCpuDeviceId, -1).
    advice = cuda.CUmem_advise.CU_MEM_ADVISE_SET_PREFERRED_LOCATION
    host = cuda.CUmemLocation()
    host.type = cuda.CUmemLocationType.CU_MEM_LOCATION_TYPE_HOST
    assert cuda.cuMemAdvise(0, 4096, advice, host) == hip.hipMemAdvise(0, 4096, advice, -1)
    dev = cuda.CUmemLocation()
    dev.type = cuda.CUmemLocationType.CU_MEM_LOCATION_TYPE_DEVICE
    dev.id = 0
    assert cuda.cuMemAdvise(0, 4096, advice, dev) == hip.hipMemAdvise(0, 4096, advice, 0)
    # cuda-bindings 12 takes the device, as HIP does (its address an integer, as CUDA's).
    code = (
        "from cuda.bindings import driver as d; from hip import hip; "
        "a = d.CUmem_advise.CU_MEM_ADVISE_SET_PREFERRED_LOCATION; "
        "print(d.cuMemAdvise(0.0, 4096, a, 0) == hip.hipMemAdvise(0, 4096, a, 0))"
    )
    assert in_api("12", code) == "True"


def test_egl_frames_from_cuda_headers():
    # cudaEGL.h (EGL's types from Khronos's headers): CUeglFrame's union of handle and pitch
    # arrays; an array's structs read as copies, as cuda-python's do.
    val = cuda.CUeglFrame()
    assert [int(a) for a in val.frame.pArray] == [0, 0, 0]
    val.frame.pArray = [cuda.CUarray(4), 2, 3]
    assert [int(a) for a in val.frame.pArray] == [4, 2, 3]
    assert str(val.frame.pArray[0]) == "<CUarray 0x4>"
    frame = cudart.cudaEglFrame()
    x = frame.frame.pPitch[0]
    x.pitch = 123
    assert frame.frame.pPitch[0].pitch == 0  # a copy
    frame.frame.pPitch = [x, x, x]
    x.pitch = 1234
    assert [p.pitch for p in frame.frame.pPitch] == [123, 123, 123]
    err, *_ = cuda.cuGraphicsEGLRegisterImage(0, 0)
    assert err == cuda.CUresult.CUDA_ERROR_NOT_SUPPORTED


# --- structs: HIP's classes as cuda-python presents them, CUDA's layout where HIP lacks names


def test_structs_hip_has_print_and_list_as_cuda_pythons():
    params = cuda.CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS()
    assert isinstance(params, hip.hipExternalSemaphoreSignalParams)  # HIP's functions take it
    assert isinstance(hip.hipExternalSemaphoreSignalParams(), cuda.CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS)
    # As cuda-bindings 13 prints it: a void * as hex, `reserved` fields (of the union in
    # nvSciSync too) left out.
    assert (
        repr(params).split()
        == ("params : fence : value : 0 nvSciSync : fence : 0x0 keyedMutex : key : 0 flags : 0").split()
    )
    desc = cudart.cudaChannelFormatDesc()
    assert [a for a in dir(desc) if not a.startswith("_")] == ["f", "getPtr", "w", "x", "y", "z"]


def test_char_arrays_are_bytes_set_from_either_sign():
    handle = cuda.CUipcMemHandle_st()
    for x in (-128, -1, 0, 1, 255):
        handle.reserved = [x] * 64
        assert handle.reserved == bytes([x & 0xFF]) * 64
    with pytest.raises(OverflowError):
        handle.reserved = [256] * 64
    with pytest.raises(ValueError):
        handle.reserved = [0] * 65


def test_structs_hip_lacks_names_of_have_cudas_layout():
    tables = _plan.tables()
    assert "CUlaunchAttributeValue" in tables.reshaped
    value = cuda.CUlaunchAttributeValue()
    value.clusterDim.x, value.clusterDim.y, value.clusterDim.z = 9, 8, 7
    attr = cuda.CUlaunchAttribute()
    attr.value = value
    assert (attr.value.clusterDim.x, attr.value.clusterDim.z) == (9, 7)
    assert cudart.sizeof(cuda.CUlaunchAttributeValue) == 64  # CUDA's size (HIP's is 32)
    node = cuda.CUDA_KERNEL_NODE_PARAMS()
    assert repr(node).splitlines()[:2] == ["func : <CUfunction 0x0>", "gridDimX : 0"]


def test_pointer_fields_keep_what_they_were_given():
    np = pytest.importorskip("numpy")
    params = cuda.CUgraphNodeParams()
    host = np.full(1024, 2, dtype=np.uint8)
    params.memcpy.copyParams.dstHost = host
    address = host.__array_interface__["data"][0]
    del host
    assert params.memcpy.copyParams.dstHost == address
    data = np.ctypeslib.as_array(ctypes.cast(address, ctypes.POINTER(ctypes.c_uint8)), shape=(1024,))
    assert (data == 2).all()


def test_cuda_layout_converts_by_field_name_at_hip_calls():
    from cuda import _structs

    desc = cudart.cudaTextureDesc()
    desc.addressMode = [cudart.cudaTextureAddressMode.cudaAddressModeClamp] * 3
    desc.normalizedCoords = 1
    as_hip = _structs.to_hip(desc, hip.hipTextureDesc)
    assert as_hip.normalizedCoords == 1 and int(as_hip.addressMode[2]) == int(
        hip.hipTextureAddressMode.hipAddressModeClamp
    )
    back = _structs.present(as_hip, cudart.cudaTextureDesc)
    assert isinstance(back, cudart.cudaTextureDesc) and back.addressMode == desc.addressMode
    # A field HIP's struct lacks cannot be dropped silently when it is set.
    desc.seamlessCubemap = 1
    with pytest.raises(ValueError, match="seamlessCubemap"):
        cudart.cudaCreateTextureObject(cudart.cudaResourceDesc(), desc, None)
    desc.seamlessCubemap = 0
    err, _ = cudart.cudaCreateTextureObject(cudart.cudaResourceDesc(), desc, None)
    assert err != cudart.cudaError_t.cudaSuccess  # HIP's answer (no device here), not a TypeError
    # Returned structs: HIP's values in cuda-python's class; HIP's extra fields dropped.
    prop = hip.hipDeviceProp_t()
    prop.name, prop.major, prop.uuid.bytes = b"GPU", 9, b"0123456789abcdef"
    cuda_prop = _structs.present(prop, cudart.cudaDeviceProp)
    assert (cuda_prop.name, cuda_prop.major, cuda_prop.uuid.bytes) == (b"GPU", 9, b"0123456789abcdef")
    assert cuda_prop.sparseCudaArraySupported == 0 and not hasattr(cuda_prop, "gcnArchName")


def test_peer_3d_copy_is_hips_3d_copy():
    from cuda import _emulated

    assert not getattr(cudart.cudaMemcpy3DPeer, "hip_not_supported", False)
    p = cudart.cudaMemcpy3DPeerParms()
    p.srcPtr = cudart.make_cudaPitchedPtr(0x1000, 1024, 1024, 1)
    p.dstPos = cudart.make_cudaPos(1, 2, 3)
    p.extent = cudart.make_cudaExtent(1024, 1, 1)
    p.srcDevice, p.dstDevice = 0, 1
    q = _emulated.memcpy3d_params(p)
    assert isinstance(q, hip.hipMemcpy3DParms)
    assert (int(q.srcPtr.ptr), q.srcPtr.pitch, q.srcPtr.xsize) == (0x1000, 1024, 1024)
    assert (q.dstPos.x, q.dstPos.y, q.dstPos.z) == (1, 2, 3) and q.extent.width == 1024
    assert q.kind == hip.hipMemcpyKind.hipMemcpyDefault
    if hasattr(hip, "hipMemcpy3DPeer"):
        # HIP 7 has its own, which HIPIFY 7.2 maps to: the CUDA names are those functions.
        assert cudart.cudaMemcpy3DPeer is hip.hipMemcpy3DPeer
        assert cudart.cudaMemcpy3DPeerAsync is hip.hipMemcpy3DPeerAsync
        assert isinstance(p, hip.hipMemcpy3DPeerParms)
        return
    # HIP's answer with no device here, through HIP's call: not "not supported".
    for result in (cudart.cudaMemcpy3DPeer(p), cudart.cudaMemcpy3DPeerAsync(p, None)):
        assert len(result) == 1 and result[0] not in (
            cudart.cudaError_t.cudaSuccess,
            cudart.cudaError_t.cudaErrorNotSupported,
        )
    with pytest.raises(TypeError, match="cudaMemcpy3DPeerParms"):
        cudart.cudaMemcpy3DPeer(q)


def test_array_to_array_copy_splits_at_row_ends():
    from cuda import _emulated

    # 10 bytes from row 1 of 4-byte rows into 8-byte rows at x=3: each piece in one row of both.
    pieces = list(_emulated.row_segments(10, (3, 0, 8), (0, 1, 4)))
    assert pieces == [(3, 0, 0, 1, 4), (7, 0, 0, 2, 1), (0, 1, 1, 2, 3), (3, 1, 0, 3, 2)]
    assert sum(p[4] for p in pieces) == 10
    assert list(_emulated.row_segments(0, (0, 0, 0), (0, 0, 0))) == []
    with pytest.raises(ValueError):
        list(_emulated.row_segments(1, (8, 0, 8), (0, 0, 4)))
    # The copy itself asks HIP for each array's shape first: HIP's status for a NULL array.
    if hip.has_symbol("hipArrayGetInfo"):
        kind = cudart.cudaMemcpyKind.cudaMemcpyDeviceToDevice
        (err,) = cudart.cudaMemcpyArrayToArray(None, 0, 0, None, 0, 0, 4, kind)
        assert err not in (cudart.cudaError_t.cudaSuccess, cudart.cudaError_t.cudaErrorNotSupported)


def read_words(address: int, count: int) -> list[int]:
    return list((ctypes.c_uint64 * count).from_address(address))


def test_pointer_fields_take_lists_as_arrays_they_keep():
    # A struct HIP has (HIP's layout): a list of handles becomes an array the struct keeps.
    node = cudart.cudaExternalSemaphoreSignalNodeParams()
    node.extSemArray = [cudart.cudaExternalSemaphore_t(0), cudart.cudaExternalSemaphore_t(123), 999]
    assert read_words(int(node.extSemArray), 3) == [0, 123, 999]
    # An array of structs is a copy of each, in the layout HIP's function reads.
    first = cudart.cudaExternalSemaphoreSignalParams()
    first.params.fence.value, first.flags = 7, 3
    node.paramsArray = [first, cudart.cudaExternalSemaphoreSignalParams()]
    first.params.fence.value = 4  # set by value: the array keeps 7
    size = hip.hipExternalSemaphoreSignalParams().c_sizeof()
    copied = hip.hipExternalSemaphoreSignalParams.fromObj(int(node.paramsArray))
    assert (copied.params.fence.value, copied.flags) == (7, 3)
    second = hip.hipExternalSemaphoreSignalParams.fromObj(int(node.paramsArray) + size)
    assert second.flags == 0
    node.extSemArray = 0
    assert int(node.extSemArray) == 0
    with pytest.raises(TypeError, match="extSemArray"):
        node.extSemArray = [object()]
    # A result of HIP's class still becomes this class (with room for the arrays it keeps).
    from cuda import _structs

    presented = _structs.present(hip.hipExternalSemaphoreSignalNodeParams(numExtSems=2), type(node))
    assert type(presented) is type(node) and presented.numExtSems == 2
    # A struct in CUDA's layout: numbers and structs the same way.
    batch = cuda.CUDA_BATCH_MEM_OP_NODE_PARAMS()
    op = cuda.CUstreamBatchMemOpParams()
    op.operation = cuda.CUstreamBatchMemOpType.CU_STREAM_MEM_OP_WRITE_VALUE_32
    batch.paramArray = [op, op]
    assert ctypes.c_uint32.from_address(int(batch.paramArray)).value == int(op.operation)


def test_generated_modules_name_their_release():
    import cuda.bindings
    from rocm.llvm.c import core

    from hip import hiprtc

    assert hip.__rocm_release__ == hiprtc.__rocm_release__ == cuda.bindings.ROCM_RELEASE
    # rocm-llvm-python uses the bindings of the LLVM found here, of another release.
    assert core.__rocm_release__ in ("5.2.3", "5.7.1", "6.4.3", "7.2.4")


def _copy_by_value(dst, src) -> None:
    """Sets each field of `dst` that `src` has to `src`'s value (nested structs likewise)."""
    from hip._util.types import Struct

    for name in src.PROPERTIES():
        if not hasattr(type(dst), name):
            continue
        value = getattr(src, name)
        if isinstance(value, Struct):
            _copy_by_value(getattr(dst, name), value)
        elif isinstance(value, list) and len(value) > len(getattr(dst, name)):
            setattr(dst, name, value[: len(getattr(dst, name))])
        else:
            setattr(dst, name, value)


def test_struct_results_copied_natively_equal_the_copy_by_value():
    # A HIP struct presented in CUDA's layout (cudaGetDeviceProperties' result) is copied by
    # the runtime, field by field by name: each field must read as a copy by value gives it.
    from cuda import _structs

    from hip._util.types import Struct

    cls = cudart.cudaDeviceProp
    src = hip.hipDeviceProp_t()
    pattern = bytes(i % 250 + 1 for i in range(src.c_sizeof()))  # no NUL: strings fill their arrays
    ctypes.memmove(src.getPtr(), pattern, len(pattern))
    fast = _structs.present(src, cls)
    by_value = cls()
    _copy_by_value(by_value, src)
    for f in cls._record["fields"]:
        a, b = getattr(fast, f["name"]), getattr(by_value, f["name"])
        if isinstance(a, Struct):
            a, b = repr(a), repr(b)
        assert a == b, f["name"]


def test_a_handle_to_a_struct_is_its_address():
    # cuda-python's CUarray(address) is a handle holding that address; HIP's hipArray_t is a
    # pointer to a struct HIP declares, and the CUDA class over it views, never makes one.
    for cls in (cuda.CUarray, cudart.cudaArray_t):
        assert int(cls(0x1234)) == 0x1234
        assert int(cls(0)) == 0 and int(cls()) == 0
        assert repr(cls(0x10)) == f"<{cls.__name__} 0x10>"
    # `_ptr=` reads the handle stored there, as a plain handle class does.
    cell = ctypes.c_uint64(0x5000)
    assert int(cuda.CUarray(_ptr=ctypes.addressof(cell))) == int(cuda.CUstream(_ptr=ctypes.addressof(cell)))
    assert int(cuda.CUarray(_ptr=0)) == 0
    # A record field of that handle type reads the address it holds, as the class's object.
    op = cuda.CUDA_MEMCPY3D_BATCH_OP()
    op.src.op.array.array = cuda.CUarray(0x4000)
    assert int(op.src.op.array.array) == 0x4000


def test_record_fields_keep_what_they_point_at_or_refuse():
    import gc

    # A list given to a T * field of a view whose outermost record cannot keep its C array
    # (HIP's struct viewed as CUDA's class) is refused before anything is written.
    h = hip.hipMemAllocNodeParams()
    view = cuda.CUDA_MEM_ALLOC_NODE_PARAMS_v2.fromObj(h)
    with pytest.raises(TypeError, match="accessDescs"):
        view.accessDescs = [cuda.CUmemAccessDesc()]
    assert int(h.accessDescs) == 0
    # A record made by this package keeps it, through any view of it.
    params = cuda.CUDA_MEM_ALLOC_NODE_PARAMS_v2()
    access = cuda.CUmemAccessDesc()
    access.flags = cuda.CUmemAccess_flags.CU_MEM_ACCESS_FLAGS_PROT_READWRITE
    cuda.CUDA_MEM_ALLOC_NODE_PARAMS_v2.fromObj(params).accessDescs = [access]
    gc.collect()
    junk = [bytearray(b"\xaa" * 12) for _ in range(1000)]  # noqa: F841 (reuses freed memory)
    first = cuda.CUmemAccessDesc.fromObj(int(params.accessDescs))
    assert first.flags == cuda.CUmemAccess_flags.CU_MEM_ACCESS_FLAGS_PROT_READWRITE
    # A buffer shorter than the record is refused, not read past its end.
    config = cuda.CUlaunchConfig()
    with pytest.raises(ValueError, match="element 0"):
        config.attrs = [b"\x01"]


def test_char_and_array_fields_take_values_not_memory():
    np = pytest.importorskip("numpy")
    uuid = cuda.CUuuid()
    uuid.bytes = np.array([1, 2, 3], dtype=np.int32)  # the values, as cuda-python takes them
    assert uuid.bytes[:3] == b"\x01\x02\x03"
    with pytest.raises(ValueError):
        uuid.bytes = itertools.repeat(1)  # endless: refused after one more than fits
    # A struct iterates its fields: an array field of HIP's struct takes one.
    prop = hip.hipDeviceProp_t()
    prop.maxThreadsDim = hip.dim3(1, 2, 3)
    assert prop.maxThreadsDim == [1, 2, 3]


def test_strict_copy_takes_a_union_member_flattened_into_the_record():
    # CUmemLocation's `localized` shares `id`'s bytes in an anonymous union: a device id is
    # that field's value, not a value of a field HIP lacks.
    prop = cuda.CUmemAllocationProp()
    prop.location.type = cuda.CUmemLocationType.CU_MEM_LOCATION_TYPE_DEVICE
    prop.location.id = 1
    from cuda import _structs

    as_hip = _structs.to_hip(prop, hip.hipMemAllocationProp)
    assert as_hip.location.id == 1


def test_version_names_the_cuda_bindings_api_in_use():
    # Programs written for cuda-bindings check `cuda.bindings.__version__` for 12.x or 13.x:
    # it is the release of CUDA's headers hipgen read for the API version in use.
    code = "import cuda.bindings as b; print(b.__version__, b.HIP_PYTHON_VERSION)"
    for api in ("12", "13"):
        env = {**os.environ, "HIP_PYTHON_CUDA_API": api}
        out = subprocess.run(
            [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
        )
        version, ours = out.stdout.split()
        major, minor, _ = version.split(".")
        assert major == api and int(minor) > 0
        assert ours != version


def test_kernel_params_fields_take_cuda_python_forms():
    # cuda-python's examples set a kernel node's `kernelParams` to a `(values, types)` pair,
    # as the launch takes it; the struct keeps the packed array (the spec's `kernel_params`
    # rule, the one the arguments follow) and reads the field as its address.
    import gc

    from cuda.bindings import driver

    for cls in (driver.CUDA_KERNEL_NODE_PARAMS, cudart.cudaKernelNodeParams):
        params = cls()
        params.kernelParams = ((7, 2.5, 0x1000), (ctypes.c_int, ctypes.c_float, None))
        gc.collect()
        args = (ctypes.c_void_p * 3).from_address(params.kernelParams)
        assert ctypes.c_int.from_address(args[0]).value == 7
        assert ctypes.c_float.from_address(args[1]).value == 2.5
        assert ctypes.c_void_p.from_address(args[2]).value == 0x1000
        params.kernelParams = None
        assert params.kernelParams == 0
        params.kernelParams = 4096
        assert params.kernelParams == 4096
        with pytest.raises(TypeError, match="kernelParams"):
            params.kernelParams = ((1,), (str,))


def test_kernel_name_is_an_output():
    # cuda-python's cuKernelGetName(hfunc) returns (status, name): HIP's C function writes the
    # name through its first parameter (hip.yaml's `params` rule), so neither takes it.
    fn = getattr(hip, "hipKernelGetName", None)
    if fn is None:
        pytest.skip("these bindings' HIP has no hipKernelGetName")
    assert params(fn) == ["kernel"]
    assert params(cuda.cuKernelGetName) == ["kernel"]


def test_driver_struct_dims_are_hips_dim3():
    # cuda-python's driver structs spell out (`gridDimX`) what HIP's hold as a dim3 (`gridDim.x`):
    # the copy between the layouts pairs them both ways (cuGraphAddKernelNode, GetParams).
    from cuda.bindings import driver

    params = driver.CUDA_KERNEL_NODE_PARAMS()
    params.gridDimX, params.gridDimY, params.gridDimZ, params.blockDimX = 512, 2, 3, 256
    theirs = hip.hipKernelNodeParams()
    hip_native.copy_fields(theirs, params, True)
    assert (theirs.gridDim.x, theirs.gridDim.y, theirs.gridDim.z, theirs.blockDim.x) == (512, 2, 3, 256)
    back = driver.CUDA_KERNEL_NODE_PARAMS()
    hip_native.copy_fields(back, theirs, False)
    assert (back.gridDimX, back.gridDimY, back.gridDimZ, back.blockDimX, back.blockDimZ) == (
        512,
        2,
        3,
        256,
        0,
    )


def test_a_cuda_alias_is_the_hip_member_of_its_twin():
    # CUDA names one attribute twice (VIRTUAL_ADDRESS_ and VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED,
    # one value); HIPIFY lists the second only. The first is the same HIP member, not a value
    # of its own HIP would refuse (vectorAddMMAP asks for it by the first name).
    attr = cuda.CUdevice_attribute
    hip_member = hip.hipDeviceAttribute_t.hipDeviceAttributeVirtualMemoryManagementSupported
    assert attr.CU_DEVICE_ATTRIBUTE_VIRTUAL_ADDRESS_MANAGEMENT_SUPPORTED == hip_member
    assert attr.CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED == hip_member


def test_cuda_integer_defines_hip_lacks_are_cudas():
    # cuda-python's modules have CUDA's integer #defines; one HIPIFY maps to no HIP constant
    # (`cudaArraySparse`, a cudaMallocArray flag) is CUDA's value, listed in `__all__`.
    assert cudart.cudaArraySparse == 64
    assert "cudaArraySparse" in cudart.__all__
