"""A release's real ROCm runtime, inside the Debian root tools/rocm-root.sh builds for it (the
libraries of sid's 6.4.3 and experimental's 7.2.4 need a newer glibc than bookworm's;
tools/rocm-run.sh RELEASE runs this file there, tools/test.sh does so for each): the same wheels
as on bookworm choose that release's bindings by themselves, hiprtc compiles for gfx90a and
gfx942, hipSPARSE, hipRAND and hipBLAS answer host-side calls, comgr 3 compiles, links and
disassembles, and CUDA code runs through the cuda package. No GPU: the runtime answers
hipErrorNoDevice, as it does on a machine without one."""

import ctypes
import os
import subprocess
import sys

import numpy as np
import pytest
from comgr_helpers import HIP_SOURCE, check, read_data

from conftest import IN_ROOT

pytestmark = pytest.mark.skipif(
    not IN_ROOT, reason="runs inside a release's runtime root: tools/rocm-run.sh RELEASE -m pytest FILE"
)
#: The root's release, its major and minor version.
MAJOR, MINOR = (int(x) for x in (IN_ROOT or "0.0").split(".")[:2])

KERNEL = b'extern "C" __global__ void scale(float* x, float a) { x[threadIdx.x] *= a; }'
# ELF e_flags' EF_AMDGPU_MACH of each target (LLVM's AMDGPUUsage).
MACH = {"gfx90a": 0x3F, "gfx942": 0x4C}


def elf_machine_and_mach(code: bytes) -> tuple[int, int]:
    assert code[:4] == b"\x7fELF"
    e_machine = int.from_bytes(code[18:20], "little")
    e_flags = int.from_bytes(code[48:52], "little")
    return e_machine, e_flags & 0xFF


def test_the_wheel_chooses_the_root_release_bindings_by_itself():
    assert "HIP_PYTHON_ROCM_RELEASE" not in os.environ
    import hip
    from hip import _select
    from hip import hip as hip_module

    assert hip_module.__rocm_release__ == IN_ROOT
    assert f"libamdhip64.so.{MAJOR}" in _select.chosen()["reason"]
    status, version = hip_module.hipRuntimeGetVersion()
    assert status == hip_module.hipError_t.hipSuccess and version // 100_000 == MAJOR * 100 + MINOR
    assert hip_module.hipGetDeviceCount()[0] == hip_module.hipError_t.hipErrorNoDevice
    assert hip.ROCM_VERSION_NAME == IN_ROOT


def test_the_doctor_names_the_release_and_why():
    out = subprocess.run([sys.executable, "-m", "hip", "doctor"], capture_output=True, text=True)
    assert f"bindings: ROCm {IN_ROOT}" in out.stdout, out.stdout + out.stderr


@pytest.mark.parametrize("arch", sorted(MACH))
def test_hiprtc_compiles_for_the_target(arch):
    from hip import hiprtc

    ok = hiprtc.hiprtcResult.HIPRTC_SUCCESS
    assert hiprtc.hiprtcVersion()[0] == ok
    status, prog = hiprtc.hiprtcCreateProgram(KERNEL, b"scale.hip", 0, [], [])
    assert status == ok
    options = [f"--offload-arch={arch}".encode()]
    assert hiprtc.hiprtcCompileProgram(prog, len(options), options) == (ok,)
    status, size = hiprtc.hiprtcGetCodeSize(prog)
    code = bytearray(size)
    assert hiprtc.hiprtcGetCode(prog, code) == (ok,)
    assert elf_machine_and_mach(bytes(code)) == (224, MACH[arch])  # EM_AMDGPU
    hiprtc.hiprtcDestroyProgram(prog.createRef())


def test_cuda_code_compiles_through_nvrtc_for_the_chosen_target(monkeypatch):
    """cuda-python's NVRTC idiom, unchanged, on the root's hiprtc (the target from the variable)."""
    monkeypatch.setenv("HIP_PYTHON_OFFLOAD_ARCH", "gfx942")
    from cuda.bindings import nvrtc

    err, prog = nvrtc.nvrtcCreateProgram(KERNEL, b"scale.cu", 0, [], [])
    assert err == nvrtc.nvrtcResult.NVRTC_SUCCESS
    opts = [b"--gpu-architecture=compute_90", b"-default-device"]
    (err,) = nvrtc.nvrtcCompileProgram(prog, len(opts), opts)
    assert err == nvrtc.nvrtcResult.NVRTC_SUCCESS
    err, size = nvrtc.nvrtcGetCUBINSize(prog)
    cubin = b" " * size
    (err,) = nvrtc.nvrtcGetCUBIN(prog, cubin)
    assert err == nvrtc.nvrtcResult.NVRTC_SUCCESS
    assert elf_machine_and_mach(cubin) == (224, MACH["gfx942"])


def test_hipsparse_descriptor_round_trip():
    from hip import hipsparse
    from hip._util.types import Pointer

    ok = hipsparse.hipsparseStatus_t.HIPSPARSE_STATUS_SUCCESS
    descr = Pointer()
    assert hipsparse.hipsparseCreateMatDescr(descr.createRef()) == (ok,)
    base = hipsparse.hipsparseIndexBase_t.HIPSPARSE_INDEX_BASE_ONE
    assert hipsparse.hipsparseSetMatIndexBase(descr, base) == (ok,)
    assert hipsparse.hipsparseGetMatIndexBase(descr) == (base,)
    assert hipsparse.hipsparseDestroyMatDescr(descr) == (ok,)


def test_hiprand_host_generator():
    from hip import hiprand

    ok = hiprand.hiprandStatus.HIPRAND_STATUS_SUCCESS
    status, version = hiprand.hiprandGetVersion()
    assert status == ok and version > 0
    status, gen = hiprand.hiprandCreateGeneratorHost(hiprand.hiprandRngType.HIPRAND_RNG_PSEUDO_DEFAULT)
    assert status == ok
    assert hiprand.hiprandSetPseudoRandomGeneratorSeed(gen, 1234) == (ok,)
    out = np.zeros(256, np.float32)
    (status,) = hiprand.hiprandGenerateUniform(gen, out, out.size)
    # rocRAND's host generator asks the runtime about the pointer (7.2) or for scratch memory
    # (6.4): with no device that is a failure status (internal error / allocation failed) and no
    # crash; with one, the numbers.
    no_device = {
        7: hiprand.hiprandStatus.HIPRAND_STATUS_INTERNAL_ERROR,
        6: hiprand.hiprandStatus.HIPRAND_STATUS_ALLOCATION_FAILED,
    }
    assert status in (ok, no_device[MAJOR])
    if status == ok:
        assert 0.0 < out.min() and out.max() <= 1.0 and len(set(out.tolist())) > 200
    # Not destroyed: without a device rocRAND 7.2 aborts the process in the generator's
    # destructor ("rocRAND internal error: hipErrorNoDevice in ~poisson_distribution_manager").


def test_hipblas_answers_without_a_device():
    from hip import hipblas

    status, handle = hipblas.hipblasCreate()
    assert isinstance(status, hipblas.hipblasStatus_t)
    assert status != hipblas.hipblasStatus_t.HIPBLAS_STATUS_SUCCESS
    (text,) = hipblas.hipblasStatusToString(hipblas.hipblasStatus_t.HIPBLAS_STATUS_INVALID_VALUE)
    assert text == b"HIPBLAS_STATUS_INVALID_VALUE"
    # ROCm 6's hipBLAS has `_v2` variants (hipblasComputeType_t); ROCm 7's plain names are them.
    assert hasattr(hipblas, "hipblasGemmEx_v2") == (MAJOR == 6) and callable(hipblas.hipblasGemmEx)


# --- comgr 3: source → bitcode → linked → relocatable → executable → disassembly -------------


def data_bytes(data_set, kind):
    from rocm.amd_comgr import amd_comgr as comgr

    return read_data(check(comgr.amd_comgr_action_data_get_data(data_set, kind, 0)))


def test_comgr_3_compiles_links_and_disassembles():
    from rocm.amd_comgr import amd_comgr as comgr

    Kind, Action = comgr.amd_comgr_data_kind_t, comgr.amd_comgr_action_kind_t
    _, major, _ = comgr.amd_comgr_get_version()
    assert major == comgr.AMD_COMGR_INTERFACE_VERSION_MAJOR == 3
    source = check(comgr.amd_comgr_create_data(Kind.AMD_COMGR_DATA_KIND_SOURCE))
    check(comgr.amd_comgr_set_data(source, len(HIP_SOURCE), HIP_SOURCE))
    check(comgr.amd_comgr_set_data_name(source, b"scale.hip"))
    inputs = check(comgr.amd_comgr_create_data_set())
    check(comgr.amd_comgr_data_set_add(inputs, source))
    info = check(comgr.amd_comgr_create_action_info())
    check(comgr.amd_comgr_action_info_set_language(info, comgr.amd_comgr_language_t.AMD_COMGR_LANGUAGE_HIP))
    check(comgr.amd_comgr_action_info_set_isa_name(info, b"amdgcn-amd-amdhsa--gfx942"))
    check(comgr.amd_comgr_action_info_set_option_list(info, [b"-O2"], 1))

    def run(kind, given):
        out = check(comgr.amd_comgr_create_data_set())
        check(comgr.amd_comgr_do_action(kind, info, given, out))
        return out

    bc = run(Action.AMD_COMGR_ACTION_COMPILE_SOURCE_WITH_DEVICE_LIBS_TO_BC, inputs)
    linked = run(Action.AMD_COMGR_ACTION_LINK_BC_TO_BC, bc)
    assert data_bytes(linked, Kind.AMD_COMGR_DATA_KIND_BC)[:4] == b"BC\xc0\xde"
    reloc = run(Action.AMD_COMGR_ACTION_CODEGEN_BC_TO_RELOCATABLE, linked)
    exe = run(Action.AMD_COMGR_ACTION_LINK_RELOCATABLE_TO_EXECUTABLE, reloc)
    elf = data_bytes(exe, Kind.AMD_COMGR_DATA_KIND_EXECUTABLE)
    assert elf_machine_and_mach(elf) == (224, MACH["gfx942"])
    # comgr 3 disassembles through callbacks (the disassembly actions of comgr 2 are gone).
    code = text_section(elf)
    listing = disassemble(b"amdgcn-amd-amdhsa--gfx942", code)
    assert listing[-1] == "s_endpgm" and "global_store_dword" in " ".join(listing)
    assert any(i.startswith("v_mul_f32") for i in listing)  # x[i] *= a


def text_section(elf: bytes) -> bytes:
    """The bytes of an ELF64's .text section, from its section headers."""
    shoff = int.from_bytes(elf[0x28:0x30], "little")
    entsize, count, names = (int.from_bytes(elf[o : o + 2], "little") for o in (0x3A, 0x3C, 0x3E))
    headers = [elf[shoff + i * entsize : shoff + (i + 1) * entsize] for i in range(count)]
    strings = int.from_bytes(headers[names][24:32], "little")
    for h in headers:
        name_at = strings + int.from_bytes(h[0:4], "little")
        if elf[name_at : elf.index(b"\0", name_at)] == b".text":
            offset, size = int.from_bytes(h[24:32], "little"), int.from_bytes(h[32:40], "little")
            return elf[offset : offset + size]
    raise AssertionError("no .text section")


def disassemble(isa: bytes, code: bytes) -> list[str]:
    """Instructions up to the first s_endpgm, by amd_comgr_disassemble_instruction, whose
    callbacks (ctypes function pointers, passed as addresses) read `code` and collect the text."""
    from rocm.amd_comgr import amd_comgr as comgr

    read_t = ctypes.CFUNCTYPE(
        ctypes.c_uint64, ctypes.c_uint64, ctypes.c_void_p, ctypes.c_uint64, ctypes.c_void_p
    )
    print_t = ctypes.CFUNCTYPE(None, ctypes.c_char_p, ctypes.c_void_p)
    note_t = ctypes.CFUNCTYPE(None, ctypes.c_uint64, ctypes.c_void_p)
    listing = []

    def read(start, to, size, _):
        size = max(0, min(size, len(code) - start))
        ctypes.memmove(to, code[start : start + size], size)
        return size

    callbacks = (
        read_t(read),
        print_t(lambda text, _: listing.append(text.decode().strip())),
        note_t(lambda *_: None),
    )
    addresses = [ctypes.cast(c, ctypes.c_void_p).value for c in callbacks]
    info = check(comgr.amd_comgr_create_disassembly_info(isa, *addresses))
    at = 0
    while at < len(code) and (not listing or listing[-1] != "s_endpgm"):
        size = ctypes.c_uint64()
        check(comgr.amd_comgr_disassemble_instruction(info, at, None, ctypes.byref(size)))
        at += size.value
    check(comgr.amd_comgr_destroy_disassembly_info(info))
    return listing
