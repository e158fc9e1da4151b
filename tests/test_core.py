"""hip.core (cuda.core's API over HIP) against the real runtime and hiprtc here: programs compile
to AMD code objects and LLVM bitcode through `Program`; kernel arguments are packed by the
runtime as cuda.core packs them; device calls go as far as the runtime's answer (no GPU here:
a `CUDAError` naming HIP's status); DLPack capsules are checked with NumPy as the other side.
The cuda package serves the same objects as `cuda.core`."""

import ctypes
import gc
import pickle
import subprocess
import sys
import warnings

import numpy as np
import pytest

from hip import HipLoadError, _native, hip, hiprtc
from hip.core import (
    Buffer,
    Context,
    CUDAError,
    Device,
    DeviceArray,
    DeviceProperties,
    Event,
    Kernel,
    LaunchConfig,
    NVRTCError,
    ObjectCode,
    Program,
    ProgramOptions,
    Stream,
    _dlpack,
    launch,
)
from hip.core._stream import LEGACY_DEFAULT_STREAM, PER_THREAD_DEFAULT_STREAM, Stream_accept
from hip.core._utils.cuda_utils import cast_to_3_tuple, check_or_create_options, handle_return
from hip.core.utils import StridedMemoryView, args_viewable_as_strided_memory

SAXPY = """
template <typename T> __global__ void saxpy(T a, const T* x, T* y, size_t n) {
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}"""

#: An AMD target hiprtc compiles for without a GPU, spelled as cuda.core programs spell theirs.
ARCH = "sm_gfx90a"


def gpu_count() -> int:
    err, count = hip.hipGetDeviceCount()
    return count if int(err) == 0 else 0


# --- kernel arguments ---------------------------------------------------------------------


def test_importing_hip_core_and_cuda_core_loads_nothing():
    """The release is chosen and the runtime loaded on first use, not at import."""
    code = (
        "import os, cuda.core, hip.core, hip.core.utils, hip.core.graph, hip._select as s\n"
        "maps = open('/proc/self/maps').read() if os.path.exists('/proc/self/maps') else ''\n"
        "assert s._state is None and 'libamdhip64' not in maps, maps\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr[-2000:]


def packed(*args) -> list[bytes]:
    kernel_args = _native.KernelArgs(*args)
    return [kernel_args.argument_bytes(i) for i in range(len(kernel_args))]


def test_python_scalars_pack_as_cuda_core_packs_them():
    assert packed(True, 7, -1, 2.5, 1 + 2j) == [
        b"\x01",
        (7).to_bytes(8, sys.byteorder),
        (-1).to_bytes(8, sys.byteorder, signed=True),
        np.float64(2.5).tobytes(),
        np.complex128(1 + 2j).tobytes(),
    ]
    assert packed(2**64 - 1) == [b"\xff" * 8]
    with pytest.raises(OverflowError, match="64 bits"):
        packed(2**64)
    with pytest.raises(OverflowError):
        packed(-(2**63) - 1)


def test_numpy_and_ctypes_scalars_pack_their_own_bytes():
    values = [np.float32(1.5), np.uint8(200), np.int16(-3), np.float16(0.5), np.complex64(1j), np.bool_(True)]
    assert packed(*values) == [v.tobytes() for v in values]
    cvalues = [ctypes.c_int32(-5), ctypes.c_uint64(2**63), ctypes.c_float(0.25), ctypes.c_double(3.0)]
    assert packed(*cvalues) == [bytes(v) for v in cvalues]


def test_buffers_and_pointers_pass_their_address():
    host = np.zeros(4, np.uint8)
    buf = Buffer.from_handle(host.ctypes.data, 4, owner=host)
    pointer = hip.hipStream_t.fromObj(0x1234)
    assert packed(buf, pointer) == [
        host.ctypes.data.to_bytes(8, sys.byteorder),
        (0x1234).to_bytes(8, sys.byteorder),
    ]


@pytest.mark.parametrize("bad", ["s", b"b", None, [1], np.zeros(3), np.str_("x"), object()])
def test_other_arguments_are_type_errors(bad):
    with pytest.raises(TypeError, match="unsupported type"):
        packed(1, bad)


def test_no_arguments_pass_a_null_array():
    assert _native.KernelArgs().address == 0 and len(_native.KernelArgs()) == 0
    assert _native.KernelArgs(1).address != 0


# --- programs -----------------------------------------------------------------------------


def test_program_compiles_to_a_code_object_and_lowers_names():
    options = ProgramOptions(arch=ARCH, std="c++17")
    code = Program(SAXPY, "c++", options).compile("cubin", name_expressions=("saxpy<float>", "saxpy<double>"))
    assert isinstance(code, ObjectCode) and code.code_type == "cubin" and code.code[:4] == b"\x7fELF"
    assert code.symbol_mapping["saxpy<float>"] == b"_Z5saxpyIfEvT_PKS0_PS0_m"
    assert code.symbol_mapping["saxpy<double>"].startswith(b"_Z5saxpyIdE")
    assert code.name == "default_program"


def test_program_compiles_to_llvm_bitcode_as_ltoir():
    """Runs against ROCm 6.4.3's and 7.2.4's hiprtc in their roots (ROCm 5's has no bitcode)."""
    try:
        code = Program(SAXPY, "c++", {"arch": ARCH}).compile("ltoir", name_expressions=["saxpy<float>"])
    except HipLoadError as e:
        assert "hiprtcGetBitcodeSize" in str(e)
        pytest.skip("this hiprtc (ROCm 5) returns no LLVM bitcode")
    assert code.code_type == "ltoir" and code.code[:4] == b"BC\xc0\xde"
    with pytest.raises(RuntimeError, match='Unsupported code type "ltoir"'):
        code.get_kernel("saxpy<float>")


KERNEL_CALLING_ELSEWHERE = """
extern __device__ int twice(int x);
extern "C" __global__ void apply(int* out) { out[0] = twice(out[0]); }
"""
DEVICE_FUNCTION = "__device__ int twice(int x) { return 2 * x; }"


def test_linker_links_llvm_bitcode_into_a_code_object():
    """hiprtc's linker (ROCm 6.4.3's and 7.2.4's in their roots): two programs' bitcode, one
    calling a function of the other, linked into one code object holding the kernel."""
    from hip.core import Linker, LinkerOptions

    if not _has_linker():
        pytest.skip("this hiprtc (ROCm 5) has no linker")
    try:
        parts = [
            Program(src, "c++", ProgramOptions(arch=ARCH, relocatable_device_code=True)).compile("ltoir")
            for src in (KERNEL_CALLING_ELSEWHERE, DEVICE_FUNCTION)
        ]
    except HipLoadError:
        pytest.skip("this hiprtc (ROCm 5) returns no LLVM bitcode")
    linker = Linker(*parts, options=LinkerOptions(arch=ARCH))
    if hip.hipGetDeviceCount()[0] != 0:
        # hiprtc's linker takes the ISA from the HIP runtime's current GPU: without one it
        # cannot link (it tries, and says so).
        with pytest.raises(NVRTCError, match="HIPRTC_ERROR_LINKING.*hiprtcLinkComplete"):
            linker.link("cubin")
    else:
        code = linker.link("cubin")
        assert code.code_type == "cubin" and code.code[:4] == b"\x7fELF"
        assert b"apply" in code.code and linker.get_error_log() == ""
    linker.close()
    linker.close()  # a second close does nothing
    with pytest.raises(RuntimeError, match="closed"):
        linker.link("cubin")


def test_linker_refuses_what_it_cannot_link():
    from hip.core import Linker, LinkerOptions

    with pytest.raises(ValueError, match="At least one ObjectCode"):
        Linker()
    with pytest.raises(ValueError, match="time option is not supported by the driver API"):
        Linker(ObjectCode.from_ltoir(b"BC"), options=LinkerOptions(time=True))
    if not _has_linker():
        pytest.skip("this hiprtc (ROCm 5) has no linker")
    with pytest.raises(ValueError, match="Unknown code_type associated with ObjectCode: ptx"):
        Linker(ObjectCode.from_ptx(b".version 8.0"))
    with pytest.raises(TypeError, match="ObjectCode"):
        Linker(b"BC")


def _has_linker() -> bool:
    """Whether the loaded hiprtc has a linker (ROCm 5's has none)."""
    try:
        status, state = hiprtc.hiprtcLinkCreate(0, None, None)
    except HipLoadError:
        return False
    assert status == 0
    hiprtc.hiprtcLinkDestroy(state)
    return True


def test_compile_errors_are_nvrtc_errors_with_the_log():
    logs = []

    class Log:
        write = logs.append

    with pytest.raises(NVRTCError, match="HIPRTC_ERROR_COMPILATION") as raised:
        Program("__global__ void broken( { }", "c++", ProgramOptions(arch=ARCH)).compile("cubin", logs=Log())
    assert "error" in str(raised.value) and logs and "error" in logs[0]


def test_targets_and_code_types_hip_lacks_are_refused():
    program = Program(SAXPY, "c++", ProgramOptions(arch=ARCH))
    with pytest.raises(ValueError, match='Unsupported target_type="ptx"'):
        program.compile("ptx")
    with pytest.raises(RuntimeError, match="Unsupported code_type='fortran'"):
        Program("x", "fortran")
    with pytest.raises(CUDAError, match="libNVVM"):
        Program("x", "nvvm")
    with pytest.raises(TypeError, match="Expected type str"):
        Program(b"x", "c++")
    with pytest.raises(CUDAError, match="not supported by hiprtc on AMD: max_register_count"):
        ProgramOptions(arch=ARCH, max_register_count=32).as_flags()


def test_program_options_spell_hiprtcs_flags():
    options = ProgramOptions(
        arch="sm_gfx942",
        std="c++17",
        define_macro=[("N", "4"), "FAST"],
        include_path="/inc",
        debug=True,
        fma=False,
    )
    assert options.as_flags() == [
        b"--offload-arch=gfx942",
        b"-g",
        b"-ffp-contract=off",
        b"-DN=4",
        b"-DFAST",
        b"-I/inc",
        b"-std=c++17",
    ]


def test_ptx_is_not_loaded_on_amd():
    with pytest.raises(CUDAError, match="PTX is NVIDIA's"):
        ObjectCode.from_ptx(".version 8.0").get_kernel("k")


def test_objects_are_not_made_directly():
    for cls in (Stream, Event, Buffer, ObjectCode, Kernel, Context):
        with pytest.raises(RuntimeError, match="cannot be instantiated directly"):
            cls()


# --- launch configuration and checks -------------------------------------------------------


def test_launch_config_validates_as_cuda_cores():
    config = LaunchConfig(grid=4, block=(16, 8))
    assert (config.grid, config.block, config.shmem_size) == ((4, 1, 1), (16, 8, 1), 0)
    assert config == LaunchConfig(grid=(4,), block=(16, 8, 1)) and hash(config) == hash(
        LaunchConfig(grid=4, block=(16, 8))
    )
    assert "LaunchConfig(grid=(4, 1, 1)" in repr(config)
    with pytest.raises(ValueError, match="must be >= 1"):
        LaunchConfig(grid=0, block=1)
    with pytest.raises(ValueError, match="an int, or a tuple"):
        LaunchConfig(grid=None, block=1)
    with pytest.raises(CUDAError, match="clusters"):
        LaunchConfig(grid=1, block=1, cluster=2)


def test_launch_checks_its_arguments_before_the_runtime():
    config = LaunchConfig(grid=1, block=1)
    with pytest.raises(TypeError, match="stream is required"):
        launch(None, config, None)
    with pytest.raises(TypeError, match="LaunchConfig"):
        launch(LEGACY_DEFAULT_STREAM, None, None)
    with pytest.raises(TypeError, match="Kernel"):
        launch(LEGACY_DEFAULT_STREAM, config, None)
    with pytest.raises(TypeError, match="Stream or GraphBuilder expected"):
        Stream_accept(3)


def test_utilities_behave_as_cuda_cores():
    assert cast_to_3_tuple("x", (2, 3)) == (2, 3, 1)
    assert check_or_create_options(ProgramOptions, {"arch": "sm_gfx90a"}).arch == "sm_gfx90a"
    with pytest.raises(TypeError, match="must be provided as an object of type ProgramOptions"):
        check_or_create_options(ProgramOptions, 3, "Program options")
    assert handle_return((hip.hipError_t.hipSuccess, 5)) == 5
    with pytest.raises(CUDAError, match="hipErrorInvalidValue"):
        handle_return((hip.hipError_t.hipErrorInvalidValue,))


@pytest.mark.skipif(gpu_count() > 0, reason="a GPU is present")
def test_device_calls_raise_the_runtimes_status():
    with pytest.raises(CUDAError, match="hipError(NoDevice|InvalidDevice)") as raised:
        Device()
    assert raised.value.status in (hip.hipError_t.hipErrorNoDevice, hip.hipError_t.hipErrorInvalidDevice)
    with pytest.raises(CUDAError):
        ProgramOptions(arch=None).as_flags()  # the default target is the current device's


@pytest.mark.skipif(gpu_count() > 0, reason="a GPU is present")
def test_a_launch_without_a_gpu_raises_the_runtimes_status():
    """The native launch returns HIP's status; `launch` raises it as cuda.core does."""
    kernel = Kernel.from_handle(0)
    with pytest.raises(CUDAError, match=r"hipError\w+.*\(hipModuleLaunchKernel\)"):
        launch(LEGACY_DEFAULT_STREAM, LaunchConfig(grid=1, block=1), kernel, 1, 2.0)
    with pytest.raises(TypeError, match="unsupported type"):
        launch(LEGACY_DEFAULT_STREAM, LaunchConfig(grid=1, block=1), kernel, object())


def test_native_launch_config_is_the_drivers_shape():
    from hip.core._launch_config import _to_native_launch_config

    native = _to_native_launch_config(LaunchConfig(grid=(4, 5, 6), block=(7, 8, 9), shmem_size=128))
    assert (native.gridDimX, native.gridDimY, native.gridDimZ) == (4, 5, 6)
    assert (native.blockDimX, native.blockDimY, native.blockDimZ, native.sharedMemBytes) == (7, 8, 9, 128)
    assert native.numAttrs == 0 and list(native.attrs) == []


def test_special_streams_of_a_subclass():
    class MyStream(Stream):
        pass

    assert isinstance(MyStream._legacy_default(), MyStream) and int(MyStream._legacy_default()) == 0
    assert isinstance(MyStream._per_thread_default(), MyStream)
    assert int(MyStream._per_thread_default()) == int(PER_THREAD_DEFAULT_STREAM) == 2


def test_ipc_event_descriptors_compare_by_handle_bytes():
    from hip.core._event import IPCEventDescriptor

    with pytest.raises(RuntimeError, match="cannot be instantiated directly"):
        IPCEventDescriptor()
    a, b = IPCEventDescriptor._init(b"\x01" * 64, True), IPCEventDescriptor._init(b"\x01" * 64, False)
    assert a == b and hash(a) == hash(b) and a != IPCEventDescriptor._init(b"\x02" * 64, True)
    assert a.__eq__(42) is NotImplemented and a != None  # noqa: E711 - the comparison itself is tested
    assert pickle.loads(pickle.dumps(a)) == a


def test_host_locations_are_one_object_each():
    from hip.core import Host
    from hip.core._managed import _coerce_location

    assert Host() is Host() and Host(numa_id=1) is Host(numa_id=1) and Host() != Host(numa_id=1)
    assert repr(Host.numa_current()) == "Host.numa_current()" and repr(Host(numa_id=2)) == "Host(numa_id=2)"
    assert pickle.loads(pickle.dumps(Host(numa_id=3))) is Host(numa_id=3)
    with pytest.raises(ValueError, match="mutually exclusive"):
        Host(1, is_numa_current=True)
    with pytest.raises(ValueError, match="non-negative int"):
        Host(numa_id=-1)
    assert _coerce_location(Host()).kind == "host" and _coerce_location(None, allow_none=True) is None
    with pytest.raises(ValueError, match="location is required"):
        _coerce_location(None)
    with pytest.raises(TypeError, match="Device, Host, or None"):
        _coerce_location(0)


def test_managed_batch_calls_check_their_arguments():
    from hip.core.utils import discard_batch, prefetch_batch

    buf = Buffer.from_handle(0, 0)
    with pytest.raises(TypeError, match="sequence of Buffers"):
        prefetch_batch(LEGACY_DEFAULT_STREAM, buf, None)
    with pytest.raises(ValueError, match="location length 1 does not match targets length 2"):
        prefetch_batch(LEGACY_DEFAULT_STREAM, [buf, buf], [None])
    with pytest.raises(NotImplementedError, match="batched discard"):
        discard_batch(LEGACY_DEFAULT_STREAM, [buf])


def test_graph_node_types_and_memset_values_as_cuda_core_has_them():
    from hip.core._graph_definition import _memset_value, node_type_enum

    types = node_type_enum()
    assert types.CU_GRAPH_NODE_TYPE_KERNEL == hip.hipGraphNodeType.hipGraphNodeTypeKernel
    assert types.CU_GRAPH_NODE_TYPE_WAIT_EVENT == hip.hipGraphNodeType.hipGraphNodeTypeWaitEvent
    assert types(int(hip.hipGraphNodeType.hipGraphNodeTypeMemAlloc)).name == "CU_GRAPH_NODE_TYPE_MEM_ALLOC"
    assert _memset_value(42) == (1, 42)
    assert _memset_value(b"\xab\xcd") == (2, int.from_bytes(b"\xab\xcd", sys.byteorder))
    assert _memset_value(np.int32(7)) == (4, 7) and _memset_value(np.uint8(9)) == (1, 9)
    with pytest.raises(ValueError, match="1, 2, or 4 bytes, got 3"):
        _memset_value(b"\x01\x02\x03")
    with pytest.raises(OverflowError, match="one byte"):
        _memset_value(256)
    with pytest.raises(TypeError, match="memset value"):
        _memset_value(1.5)


def test_properties_and_attribute_views_are_not_made_directly():
    from hip.core._graph_memory import GraphMemoryResourceAttributes
    from hip.core._module import KernelAttributes, KernelOccupancy

    for cls in (DeviceProperties, KernelAttributes, KernelOccupancy, GraphMemoryResourceAttributes):
        with pytest.raises(RuntimeError, match="cannot be instantiated directly"):
            cls()


def test_device_properties_are_cuda_cores_names_and_types():
    """The names and types are cuda.core's; each answers HIP's attribute of that meaning (the
    values need a GPU: tests/test_gpu.py)."""
    from hip.core import _device_properties as names

    assert len(names.BOOLS | names.INTS) == 143 and not names.BOOLS & names.INTS
    assert {"multiprocessor_count", "max_threads_per_block", "warp_size"} <= names.INTS
    assert {"managed_memory", "concurrent_managed_access", "cooperative_launch"} <= names.BOOLS
    members = hip.hipDeviceAttribute_t.__members__
    missing = [n for n in names.RENAMED.values() if f"hipDeviceAttribute{n}" not in members]
    # ROCm 7's enum has each; older releases lack a few (those properties answer 0).
    assert not missing or int(_native.ROCM_RELEASE.split(".")[0]) < 7, missing


# --- buffers, views and DLPack -------------------------------------------------------------


def test_buffer_over_host_memory_goes_to_numpy_through_dlpack():
    host = np.arange(8, dtype=np.uint8)
    buf = Buffer.from_handle(host.ctypes.data, 8, owner=host)
    assert (buf.handle, buf.size, buf.owner is host) == (host.ctypes.data, 8, True)
    assert buf.__dlpack_device__() == (_dlpack.CPU, 0)
    view = np.from_dlpack(buf)
    assert view.ctypes.data == host.ctypes.data and view.dtype == np.int8 and (view == host).all()
    with pytest.raises(BufferError, match="copy=True"):
        buf.__dlpack__(copy=True)
    with pytest.raises(ValueError, match="both specified"):
        Buffer.from_handle(0, 1, mr=object(), owner=host)


def test_strided_memory_view_of_numpy_arrays():
    host = np.arange(12, dtype=np.float32).reshape(3, 4)
    view = StridedMemoryView.from_array_interface(host)
    assert (view.ptr, view.shape, view.dtype, view.device_id) == (host.ctypes.data, (3, 4), np.float32, -1)
    assert not view.is_device_accessible and not view.readonly
    via_dlpack = StridedMemoryView.from_dlpack(host, stream_ptr=-1)
    assert (via_dlpack.ptr, via_dlpack.shape, via_dlpack.dtype) == (host.ctypes.data, (3, 4), np.float32)
    with pytest.raises(BufferError, match="ambiguous"):
        StridedMemoryView.from_dlpack(host)

    back = np.from_dlpack(view)  # the view exports what it views
    assert back.ctypes.data == host.ctypes.data and (back == host).all()
    with pytest.raises(CUDAError, match="tensor maps"):
        view.as_tensor_map()

    @args_viewable_as_strided_memory((0,))
    def size_of(arr):
        return arr.view(-1).size

    assert size_of(host) == 12


class HostTensor:
    """A host array exported through hip.core's DLPack producer (device type CPU)."""

    def __init__(self, arr):
        self.arr = arr

    def __dlpack_device__(self):
        return (_dlpack.CPU, 0)

    def __dlpack__(self, stream=None, **kwargs):
        return _dlpack.to_capsule(
            self.arr.ctypes.data, self.arr.shape, self.arr.dtype, (_dlpack.CPU, 0), self
        )


def test_dlpack_export_is_read_by_numpy_without_a_copy():
    host = np.arange(12, dtype=np.float32).reshape(3, 4)
    before = _dlpack.live_exports()
    view = np.from_dlpack(HostTensor(host))
    assert view.ctypes.data == host.ctypes.data and view.shape == (3, 4) and view.dtype == np.float32
    assert (view == host).all()
    assert _dlpack.live_exports() == before + 1  # kept until the consumer lets go
    del view
    gc.collect()
    assert _dlpack.live_exports() == before
    capsule = HostTensor(host).__dlpack__()
    del capsule  # never consumed: the capsule releases it
    assert _dlpack.live_exports() == before


def test_versioned_capsules_and_strides_go_both_ways():
    host = np.arange(24, dtype=np.float64).reshape(4, 6)
    before = _dlpack.live_exports()
    capsule = _dlpack.to_capsule(host.ctypes.data, (4, 3), host.dtype, (_dlpack.CPU, 0), host, (6, 2), True)
    tensor = _native.from_dlpack(capsule)
    assert (tensor.shape, tensor.strides, tensor.data) == ([4, 3], [6, 2], host.ctypes.data)
    assert tensor.device == (_dlpack.CPU, 0) and not tensor.read_only
    with pytest.raises(BufferError, match="consumed already"):
        _native.from_dlpack(capsule)
    tensor.release()
    tensor.release()  # once only
    assert _dlpack.live_exports() == before
    strided = _dlpack.Imported(host[:, ::2].__dlpack__())
    assert strided.strides == (6, 2)


def test_a_freed_array_gives_no_address():
    host = np.arange(4, dtype=np.float32)
    arr = DeviceArray._view(host.ctypes.data, host.shape, host.dtype, 0, host)
    assert arr.ptr == host.ctypes.data
    arr.free()
    with pytest.raises(ValueError, match="freed"):
        _ = arr.ptr
    with pytest.raises(ValueError, match="freed"):
        _ = arr.__cuda_array_interface__
    assert "freed" in repr(arr)


def test_dlpack_import_reads_shape_type_and_releases():
    producer = np.arange(6, dtype=np.int16).reshape(2, 3)
    imported = _dlpack.Imported(producer.__dlpack__())
    assert imported.shape == (2, 3) and imported.dtype == np.int16 and imported.device == (_dlpack.CPU, 0)
    assert imported.data == producer.ctypes.data
    imported.release()
    with pytest.raises(BufferError, match="device type 1"):
        DeviceArray.from_dlpack(producer)  # host memory is not this GPU's


# --- the cuda package's cuda.core -----------------------------------------------------------


def test_cuda_core_is_hip_core():
    import cuda.core
    import cuda.core.graph
    from cuda.core._utils.cuda_utils import CUDAError as CudaError
    from cuda.core._utils.cuda_utils import handle_return as cuda_handle_return

    import hip.core

    assert cuda.core.Device is hip.core.Device and cuda.core.launch is hip.core.launch
    assert CudaError is CUDAError and cuda_handle_return is handle_return
    assert cuda.core.graph.GraphBuilder is hip.core.graph.GraphBuilder
    assert cuda.core.utils.StridedMemoryView is StridedMemoryView
    with warnings.catch_warnings():
        warnings.simplefilter("always")
        import cuda.core.experimental as experimental
    assert experimental.Program is Program and experimental.StridedMemoryView is StridedMemoryView
    assert isinstance(type(experimental.system).num_devices, property)
