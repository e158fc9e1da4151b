"""rocm.comgr (AMD rocm-bindings 10.0's comgr helpers, rocm-llvm-python's `amd_comgr.ext`) over
the comgr that runs here (bookworm's comgr 2.4, LLVM 15), as numba-hip calls it.

This comgr neither links device libraries into HIP bitcode (it passes -nogpulib) nor finds
HIP's headers under -nogpuinc, so the kernels call only clang builtins; `__global__` and
`threadIdx` come from the hipRTC runtime header, prepended as numba-hip does.
"""

import ctypes
import inspect
import subprocess
import sys

import pytest
import rocm.comgr
from comgr_helpers import HIP_SOURCE
from rocm.amd_comgr import amd_comgr
from rocm.comgr import amd_hsa_kernel_descriptor as kd
from rocm.comgr import comgr

ISA = "amdgcn-amd-amdhsa--gfx90a"
HIP_VERSION = (5, 2, 0)
#: The same kernel in HIP's terms: compiles only with the hipRTC runtime header before it.
HIP_KERNEL = 'extern "C" __global__ void scale(float *x, float a) { x[threadIdx.x] *= a; }'
#: The runtime's comgr interface major version (get_version gives status, major, minor).
COMGR_MAJOR = amd_comgr.amd_comgr_get_version()[-2]
#: Comgr's enums were renumbered between interfaces: actions need bindings of the runtime's.
needs_matching_bindings = pytest.mark.skipif(
    COMGR_MAJOR != amd_comgr.AMD_COMGR_INTERFACE_VERSION_MAJOR,
    reason=f"bindings of comgr interface {amd_comgr.AMD_COMGR_INTERFACE_VERSION_MAJOR}, runtime "
    f"{COMGR_MAJOR}: build them from its header (tools/test.sh does)",
)


@pytest.fixture(scope="module")
def bitcode():
    bc, log, diagnostic = comgr.compile_hip_to_bc(HIP_SOURCE, ISA, HIP_VERSION, logging=True)
    assert isinstance(log, str) and diagnostic is None
    return bc


@pytest.fixture(scope="module")
def executable(bitcode):
    exe, log, _ = comgr.compile_bc(bitcode, ISA)
    assert log is None  # not asked for
    return exe


def test_isa_names_and_metadata():
    names = rocm.comgr.get_isa_names()
    assert ISA in names and all(isinstance(n, str) and n.startswith("amdgcn-amd-amdhsa--gfx") for n in names)
    assert rocm.comgr.get_isa_names(decode=False) == [n.encode() for n in names]
    everything = rocm.comgr.get_isa_metadata_all()
    assert set(everything) == set(names)
    gfx90a = everything[ISA]
    assert gfx90a["Processor"] == "gfx90a" and gfx90a["Name"] == ISA
    assert set(gfx90a["Features"]) == {"sramecc", "xnack"}  # a nested map, parsed
    assert rocm.comgr.get_isa_metadata(ISA.encode()) == gfx90a


@needs_matching_bindings
def test_hip_source_to_bitcode(bitcode):
    assert bitcode[:4] == b"BC\xc0\xde"
    # A bare gfx name gets the triple; the source may be bytes or str.
    assert comgr.compile_hip_to_bc(HIP_SOURCE.decode(), "gfx90a", HIP_VERSION)[0][:4] == b"BC\xc0\xde"


@needs_matching_bindings
def test_hiprtc_runtime_header_makes_hip_source_compile():
    with pytest.raises(RuntimeError, match="unknown type name '__global__'"):
        comgr.compile_hip_to_bc(HIP_KERNEL, ISA, HIP_VERSION)
    bc, _, _ = comgr.compile_hip_to_bc(
        HIP_KERNEL,
        ISA,
        HIP_VERSION,
        extra_opts=["-nogpuinc", "-D__HIPCC_RTC__"],
        prepend_hiprtc_runtime_header=True,
    )
    assert bc[:4] == b"BC\xc0\xde"
    assembly = comgr.compile_bc_to_hsa(bc, ISA)[0].decode()
    assert "scale:" in assembly and "s_endpgm" in assembly


@needs_matching_bindings
def test_bitcode_to_executable(executable):
    assert executable[:4] == b"\x7fELF" and executable[18] == 224  # e_machine EM_AMDGPU
    assert rocm.comgr.parse_code_obj_kernel_names(executable, len(executable)) == ["scale"]
    metadata = rocm.comgr.parse_code_obj_metadata(executable, len(executable))
    assert metadata["amdhsa.target"] == ISA and metadata["amdhsa.kernels"][0][".symbol"] == "scale.kd"
    # The older name AMD's own example (hiprtc_amd_comgr_get_jit_kernel_metadata.py) calls.
    assert rocm.comgr.parse_code_metadata(executable, len(executable)) == metadata


@needs_matching_bindings
def test_symbols_say_where_their_bytes_are(executable):
    symbols = rocm.comgr.parse_code_symbols(executable, len(executable))
    func, desc = symbols["scale"], symbols["scale.kd"]
    assert func["type"] == "FUNC" and func["size"] > 0 and not func["is_undefined"]
    assert desc["type"] == "OBJECT" and desc["size"] == 64 and not desc["nobits"]
    # The descriptor's entry offset leads from the descriptor to the function (virtual addresses).
    raw = executable[desc["code_object_offset"] : desc["code_object_offset"] + 64]
    descriptor = kd.parse_amdgpu_code_obj_kernel_descriptor(raw, "gfx90a")
    assert desc["value"] + descriptor.kernel_code_entry_byte_offset == func["value"]
    kernel = rocm.comgr.parse_code_obj_metadata(executable, len(executable))["amdhsa.kernels"][0]
    assert descriptor.kernarg_size == int(kernel[".kernarg_segment_size"])
    assert descriptor.group_segment_fixed_size == int(kernel[".group_segment_fixed_size"])
    assert descriptor.enable_sgpr_kernarg_segment_ptr == 1


@needs_matching_bindings
def test_disassembly(executable):
    text = rocm.comgr.disassemble_code_obj_function(executable, ISA)  # the first function
    assert text == rocm.comgr.disassemble_code_obj_function(executable, ISA, "scale")
    lines = text.splitlines()
    assert lines[-1] == "s_endpgm" and any(line.startswith("global_load_dword") for line in lines)
    symbols = rocm.comgr.parse_code_symbols(executable, len(executable))
    at = symbols["scale"]["code_object_offset"]
    assert rocm.comgr.disassemble_program(ISA, executable[at : at + symbols["scale"]["size"]]) == text
    with pytest.raises(KeyError, match="nope"):
        rocm.comgr.disassemble_code_obj_function(executable, ISA, "nope")
    # comgr's own (deprecated) disassembly action agrees.
    listing = comgr.disassemble_via_action_deprecated(executable, ISA)[0].decode()
    assert "scale:" in listing and "s_endpgm" in listing


@needs_matching_bindings
def test_kernel_disassembly_assembles_back(executable):
    raw = rocm.comgr.disassemble_amdhsa_code_obj_v6_kernel(executable, ISA, raw=True)
    assert raw == rocm.comgr.disassemble_code_obj_function(executable, ISA, "scale")
    text = rocm.comgr.disassemble_amdhsa_code_obj_v6_kernel(executable, ISA, kernel_name="scale")
    assert ".amdhsa_code_object_version 4" in text  # what comgr 2.4 makes, read from the ELF header
    assert ".amdhsa_kernel scale" in text and ".amdhsa_accum_offset 4" in text and "amdhsa.kernels:" in text
    if COMGR_MAJOR == 2:
        # LLVM 15's assembler predates these directives (the object's version is its default).
        newer = (
            ".amdhsa_code_object_version",
            ".amdhsa_uses_dynamic_stack",
            ".amdhsa_user_sgpr_kernarg_preload",
        )
        text = "".join(line for line in text.splitlines(True) if not line.strip().startswith(newer))
    again, _, _ = rocm.comgr.compile_hsa(text, ISA)
    for code in (executable, again):
        assert rocm.comgr.parse_code_obj_kernel_names(code, len(code)) == ["scale"]
    first, second = (rocm.comgr.parse_code_symbols(c, len(c)) for c in (executable, again))
    code = [comgr._get_code_symbol_bytes(c, s, "scale") for c, s in ((executable, first), (again, second))]
    assert code[0] == code[1]  # the same instructions
    # The same descriptor, but for the SGPR blocks: the directives give the blocks' end, as LLVM's
    # disassembler writes it, to which the assembler adds the SGPRs the target reserves (the XNACK
    # mask on gfx90a), which may take one block more. Neither can recover the count used.
    was, now = (
        kd.parse_amdgpu_code_obj_kernel_descriptor(comgr._get_code_symbol_bytes(c, s, "scale.kd"), ISA)
        for c, s in ((executable, first), (again, second))
    )
    blocks = was.granulated_wavefront_sgpr_count
    assert now.granulated_wavefront_sgpr_count in (blocks, blocks + 1)
    now.granulated_wavefront_sgpr_count = blocks
    assert bytes(now) == bytes(was)
    metadata = (rocm.comgr.parse_code_obj_metadata(c, len(c)) for c in (executable, again))
    assert next(metadata) == next(metadata)
    with pytest.raises(RuntimeError, match="no kernel 'other'"):
        rocm.comgr.disassemble_amdhsa_code_obj_v6_kernel(executable, ISA, kernel_name="other")


@needs_matching_bindings
@pytest.mark.skipif(
    COMGR_MAJOR < 3, reason="code object v6 needs comgr 3 (LLVM 18+): this comgr 2.4 makes v4 and v5 only"
)
def test_code_object_v6_kernel_disassembly():
    v6 = ["-mcode-object-version=6"]
    bc, _, _ = comgr.compile_hip_to_bc(HIP_SOURCE, ISA, HIP_VERSION, extra_opts=v6)
    exe, _, _ = comgr.compile_bc(bc, ISA, extra_opts=v6)
    text = rocm.comgr.disassemble_amdhsa_code_obj_v6_kernel(exe, ISA)
    assert ".amdhsa_code_object_version 6" in text
    again, _, _ = rocm.comgr.compile_hsa(text, ISA)
    first, second = (rocm.comgr.parse_code_symbols(c, len(c)) for c in (exe, again))
    assert comgr._get_code_symbol_bytes(exe, first, "scale.kd") == comgr._get_code_symbol_bytes(
        again, second, "scale.kd"
    )


@needs_matching_bindings
def test_bitcode_to_assembly_and_back(bitcode):
    assembly, log, diagnostic = rocm.comgr.compile_bc_to_hsa(bitcode, ISA, logging=True)
    text = assembly.decode()
    assert ".amdhsa_kernel scale" in text and "s_endpgm" in text and isinstance(log, str)
    exe, _, _ = rocm.comgr.compile_hsa(assembly, ISA)
    assert exe[:4] == b"\x7fELF" and rocm.comgr.parse_code_obj_kernel_names(exe, len(exe)) == ["scale"]
    via_hip = rocm.comgr.compile_hip_to_hsa(HIP_SOURCE, ISA, HIP_VERSION)[0].decode()
    assert ".amdhsa_kernel scale" in via_hip


@needs_matching_bindings
def test_failures_raise_with_the_log():
    with pytest.raises(
        RuntimeError, match="(?s)COMPILE_SOURCE_WITH_DEVICE_LIBS_TO_BC.*expected unqualified-id"
    ):
        comgr.compile_hip_to_bc("this is not HIP", ISA, HIP_VERSION)
    with pytest.raises(RuntimeError, match="(?s)ASSEMBLE_SOURCE_TO_RELOCATABLE.*invalid instruction"):
        comgr.compile_hsa("\tv_not_an_instruction v0\n", ISA)
    with pytest.raises(RuntimeError, match="CODEGEN_BC_TO_RELOCATABLE"):
        comgr.compile_bc(b"BC\xc0\xde garbage", ISA)
    with pytest.raises(ValueError, match="ISA name"):
        comgr.compile_bc_to_hsa(b"", "sm_90")
    with pytest.raises(ValueError, match="action_kind"):
        comgr.compile_hip_to_bc(HIP_SOURCE, ISA, HIP_VERSION, action_kind="LINK_BC_TO_BC")


@needs_matching_bindings
def test_data_data_set_and_action():
    source = rocm.comgr.Data("scale.hip", "source", HIP_SOURCE)
    assert source.get_data_name() == "scale.hip" and source.get_data_bytes() == HIP_SOURCE
    assert len(source) == len(HIP_SOURCE)
    action = rocm.comgr.Action("COMPILE_SOURCE_TO_BC", ISA, "HIP", ["-O2", b"-nogpuinc"], logging=True)
    assert action.get_num_options() == 2 and action.get_option(1) == b"-nogpuinc"
    status = action.do_action(rocm.comgr.DataSet(source))
    assert status == amd_comgr.amd_comgr_status_s.AMD_COMGR_STATUS_SUCCESS
    results = action.result_data_set
    assert results.count_data("BC") == 1 and results.count_data("LOG") == 1
    assert results.get_data("BC", 0).get_data_bytes()[:4] == b"BC\xc0\xde"
    assert "CODEGEN_BC_TO_ASSEMBLY" in rocm.comgr.Action.valid_action_kinds()
    assert "HIP" in rocm.comgr.Action.valid_languages() and "BC" in rocm.comgr.Data.valid_kinds()
    with pytest.raises(AttributeError):
        rocm.comgr.Data.kind_str_to_enum("NO_SUCH_KIND")


@needs_matching_bindings
def test_ext_is_this_module_and_takes_a_string_of_options():
    import rocm.amd_comgr.amd_comgr_pyext
    import rocm.amd_comgr.amd_hsa_kernel_descriptor

    assert amd_comgr.ext is comgr is rocm.amd_comgr.amd_comgr_pyext
    assert rocm.amd_comgr.amd_hsa_kernel_descriptor is kd
    assert comgr.to_cstr("x") == b"x" + comgr.NUL == comgr.to_cstr(b"x\x00")
    # numba-hip's development branch passes extra_opts as one string: split on whitespace.
    source = 'extern "C" __global__ void NAME(float *x) { x[threadIdx.x] *= FACTOR; }'
    bc, log, _ = amd_comgr.ext.compile_hip_to_bc(
        source=source,
        isa_name=ISA,
        hip_version_tuple=HIP_VERSION,
        logging=False,
        extra_opts=" -D__HIPCC_RTC__ -DNAME=twice  -DFACTOR=2.0f",
        prepend_hiprtc_runtime_header=True,
    )
    assert bc[:4] == b"BC\xc0\xde" and log is None
    assert "twice:" in amd_comgr.ext.compile_bc_to_hsa(bc, ISA)[0].decode()
    # Defaults are tuples: nothing a call adds (-D__HIPCC_RTC__) stays for the next one.
    for function in (comgr.compile_hip_to_bc, comgr.compile_hip_to_hsa, comgr.compile_bc, comgr.compile_hsa):
        defaults = [
            p.default for p in inspect.signature(function).parameters.values() if p.name.endswith("_opts")
        ]
        assert all(isinstance(d, tuple) for d in defaults)


def test_hiprtc_runtime_header_is_read_on_first_access_only():
    code = (
        "import rocm.comgr, rocm.amd_comgr\n"
        "from rocm.amd_comgr import amd_comgr\n"
        "maps = lambda: open('/proc/self/maps').read()\n"
        "assert 'hiprtc-builtins' not in maps() and 'amd_comgr' not in maps(), 'loaded at import'\n"
        "assert 'HIPRTC_RUNTIME_HEADER' not in vars(amd_comgr.ext)\n"
        "text = amd_comgr.ext.HIPRTC_RUNTIME_HEADER\n"
        "assert text is rocm.comgr.HIPRTC_RUNTIME_HEADER and 'hiprtc-builtins' in maps()\n"
        "print(type(text).__name__, len(text), rocm.comgr.get_hiprtc_runtime_header_origin())\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    kind, size, origin = out.stdout.split()
    assert kind == "str" and int(size) > 100_000 and "libhiprtc-builtins.so" in origin
    header = rocm.comgr.HIPRTC_RUNTIME_HEADER
    assert "#define __global__ __attribute__((global))" in header and "__hip_atomic" in header


def test_hiprtc_runtime_header_override(tmp_path):
    header = tmp_path / "hiprtc_runtime.h"
    header.write_bytes(b"#define FROM_FILE 1\r\n")
    code = (
        "import rocm.comgr as c; print(repr(c.HIPRTC_RUNTIME_HEADER), c.get_hiprtc_runtime_header_origin())"
    )
    env = {"HIP_PYTHON_HIPRTC_RUNTIME_HEADER": str(header), "PATH": "/usr/bin:/bin"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["'#define", "FROM_FILE", "1\\n'", str(header)]


# --- kernel descriptors ---------------------------------------------------------------------


def descriptor_bytes(rsrc1=0, rsrc2=0, rsrc3=0, properties=0):
    raw = bytearray(64)
    raw[8:12] = (24).to_bytes(4, "little")  # kernarg_size
    raw[44:56] = b"".join(r.to_bytes(4, "little") for r in (rsrc3, rsrc1, rsrc2))
    raw[56:58] = properties.to_bytes(2, "little")
    return bytes(raw)


def test_kernel_descriptor_fields_follow_the_architecture():
    # rsrc1 0x00AF0043: VGPR blocks 3, SGPR blocks 1, both denorm modes 3, bits 21 and 23 set.
    raw = descriptor_bytes(rsrc1=0x00AF0043, rsrc3=5 | 1 << 16, properties=1 << 10)
    gfx90a = kd.parse_amdgpu_code_obj_kernel_descriptor(raw, "amdgcn-amd-amdhsa--gfx90a:xnack-")
    assert (gfx90a.granulated_workitem_vgpr_count, gfx90a.granulated_wavefront_sgpr_count) == (3, 1)
    assert (gfx90a.float_denorm_mode_32, gfx90a.float_denorm_mode_16_64) == (3, 3)
    assert gfx90a.enable_dx10_clamp == 1 and gfx90a.enable_ieee_mode == 1
    assert (gfx90a.accum_offset, gfx90a.tg_split, gfx90a.kernarg_size) == (5, 1, 24)
    assert gfx90a.registers()["compute_pgm_rsrc1"] == 0x00AF0043 and bytes(gfx90a) == raw
    gfx1200 = kd.parse_amdgpu_code_obj_kernel_descriptor(raw, "gfx1200")
    assert gfx1200.enable_wg_rr_en == 1 and gfx1200.disable_perf == 1  # the same bits, renamed
    assert "enable_dx10_clamp" not in gfx1200.properties() and "accum_offset" not in gfx1200.properties()
    assert "accum_offset" not in kd.AMDHSAKernelDescriptor.create_type("gfx90c").properties()
    assert set(gfx90a.as_dict()) == set(gfx90a.properties())
    # Rendered as LLVM's disassembler writes it: the accumulation offset in registers (computed,
    # not guessed), the counts as their blocks' end, the XNACK mask as the target says (xnack-).
    text = gfx90a.render_amdhsa_kernel_directive("k")
    assert ".amdhsa_accum_offset 24\n" in text and ".amdhsa_tg_split 1" in text
    assert ".amdhsa_next_free_vgpr 32 ; guessed value" in text and ".amdhsa_next_free_sgpr 16 ;" in text
    assert ".amdhsa_reserve_xnack_mask 0 ;" in text
    plain = kd.parse_amdgpu_code_obj_kernel_descriptor(raw, "gfx90a").render_amdhsa_kernel_directive("k")
    assert ".amdhsa_reserve_xnack_mask" not in plain  # the assembler takes it from the target
    assert ".amdhsa_wavefront_size32" not in text and ".amdhsa_wavefront_size32 1" in (
        gfx1200.render_amdhsa_kernel_directive("k")
    )
    with pytest.raises(ValueError, match="64 bytes"):
        kd.parse_amdgpu_code_obj_kernel_descriptor(raw[:32], "gfx90a")
    with pytest.raises(ValueError, match="gfx<major><minor>"):
        kd.AMDHSAKernelDescriptor.create_type("sm_90")
    assert ctypes.sizeof(kd.AMDHSAKernelDescriptor.create_type("gfx942")) == 64
