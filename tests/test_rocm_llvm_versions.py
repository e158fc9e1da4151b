"""rocm-llvm-python uses the bindings of the LLVM and the comgr it finds, with no variable set
(rocm/_select.py): here (bookworm: LLVM 19 beside 14 and 15, comgr 2.4) and in the ROCm 7.2.4
root (LLVM 22, comgr 3; tools/rocm-run.sh runs this file there too). The kernel descriptors
comgr makes for gfx90a, gfx942 and gfx950 (those this comgr knows) read and render as LLVM's
assembler wrote them. Arrays of handles, handles freed and integers are checked as the
bindings promise."""

import ctypes
import json
import os
import re
import subprocess
import sys

import pytest
import rocm.comgr
from comgr_helpers import HIP_SOURCE
from rocm import _select
from rocm.amd_comgr import amd_comgr
from rocm.comgr import amd_hsa_kernel_descriptor as kd
from rocm.comgr import comgr
from rocm.llvm.c import core, orc

#: The environment of a fresh process that chooses by itself (none of the overrides).
CLEAN_ENV = {
    k: v for k, v in os.environ.items() if not k.startswith("ROCM_PYTHON_") and k != "HIP_PYTHON_ROCM_RELEASE"
}


def run_python(code, **env):
    """Runs `code` in a fresh interpreter (its own choice of bindings); the completed run."""
    return subprocess.run(
        [sys.executable, "-c", code], env={**CLEAN_ENV, **env}, capture_output=True, text=True, timeout=300
    )


def versions(family):
    """The versions of `family`'s bindings the wheel carries, the default's first."""
    return [v["version"] for v in _select.FAMILIES[family]["versions"]]


def test_the_wheel_carries_llvm_19_and_22_and_comgr_2_and_3():
    assert sorted(versions("llvm")) == [19, 22] and sorted(versions("amd_comgr")) == [2, 3]


def fitting(family, found):
    """The version entry of `family`'s bindings for a library of version `found`: its own,
    else the nearest (the older of two as near), as rocm/_select.py chooses."""
    carried = _select.FAMILIES[family]["versions"]
    return min(carried, key=lambda v: (abs(v["version"] - found), v["version"]))


def test_bindings_fit_the_libraries_found():
    code = (
        "import json\n"
        "from rocm import _select\n"
        "from rocm.llvm.c import core\n"
        "from rocm.llvm.config import llvm_config\n"
        "from rocm.amd_comgr import amd_comgr\n"
        "llvm = [core.LLVMGetVersion()[0], llvm_config.LLVM_VERSION_MAJOR, core.__rocm_release__]\n"
        "comgr = [amd_comgr.amd_comgr_get_version()[1], amd_comgr.AMD_COMGR_INTERFACE_VERSION_MAJOR]\n"
        "why = {f: c[2] for f, c in _select.CHOSEN.items()}\n"
        "print(json.dumps({'llvm': llvm, 'comgr': comgr, 'why': why}))\n"
    )
    run = run_python(code)
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    found, bound, release = out["llvm"]
    # The library's own version where the wheel carries it (19 here, 22 in the 7.2.4 root),
    # else the nearest (LLVM 21 in the 6.4.3 root gets 22's).
    chosen = fitting("llvm", found)
    assert bound == chosen["version"] and release == chosen["release"], out
    assert out["comgr"][0] == out["comgr"][1], out
    llvm_why = f"bindings of version {found}"
    if chosen["version"] != found:
        llvm_why = f"no bindings of version {found}: the nearest, {chosen['version']}'s"
    assert out["why"] == {"llvm": llvm_why, "amd_comgr": f"bindings of version {out['comgr'][0]}"}


def test_importing_loads_no_library():
    # (The Debian roots mount no /proc: there the choice alone is looked at.)
    code = (
        "import os\n"
        "import rocm.llvm.c.core, rocm.amd_comgr, rocm.comgr, rocm.llvm.c.target\n"
        "from rocm import _select\n"
        "maps = open('/proc/self/maps').read() if os.path.exists('/proc/self/maps') else ''\n"
        "print(_select.CHOSEN == {}, 'libLLVM' in maps, 'libamd_comgr' in maps)\n"
    )
    run = run_python(code)
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["True", "False", "False"]


def test_doctor_says_which_bindings_it_chose():
    run = subprocess.run(
        [sys.executable, "-m", "rocm", "doctor"], env=CLEAN_ENV, capture_output=True, text=True, timeout=300
    )
    assert "library 'LLVM'" in run.stdout and "library 'amd_comgr'" in run.stdout, run.stdout
    chosen = dict(
        re.findall(r"library '(\w+)'.*\n  bindings: version (\d+) \(ROCm [\d.]+'s; carried", run.stdout)
    )
    found = {
        "LLVM": re.search(r"LLVMGetVersion: (\d+)\.", run.stdout).group(1),
        "amd_comgr": re.search(r"amd_comgr_get_version: interface (\d+)\.", run.stdout).group(1),
    }
    assert chosen == {
        "LLVM": str(fitting("llvm", int(found["LLVM"]))["version"]),
        "amd_comgr": found["amd_comgr"],
    }, run.stdout


@pytest.mark.parametrize("family", ["llvm", "amd_comgr"])
def test_a_variable_chooses_other_bindings(family):
    used = _select.choose(family)[0]["version"]
    other = next(v for v in _select.FAMILIES[family]["versions"] if v["version"] != used)
    module = _select.FAMILIES[family]["modules"][-1 if family == "amd_comgr" else 0]
    code = f"import {module} as m\nprint(m.__rocm_release__)\n"
    run = run_python(code, **{f"ROCM_PYTHON_{family.upper()}_BINDINGS": str(other["version"])})
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == other["release"]


def test_comgr_bindings_of_another_interface_refuse_the_library():
    other = next(v for v in versions("amd_comgr") if v != amd_comgr.AMD_COMGR_INTERFACE_VERSION_MAJOR)
    code = (
        "from rocm.amd_comgr import amd_comgr, HipLoadError\n"
        "try:\n    amd_comgr.amd_comgr_create_data_set()\nexcept HipLoadError as e:\n    print(e)\n"
    )
    run = run_python(code, ROCM_PYTHON_AMD_COMGR_BINDINGS=str(other))
    assert run.returncode == 0, run.stderr
    assert "interface" in run.stdout and f"interface {other}.x" in run.stdout, run.stdout


def test_a_version_not_carried_is_an_error():
    run = run_python("import rocm.llvm.c.core as c\nc.LLVMInt32Type\n", ROCM_PYTHON_LLVM_BINDINGS="7")
    assert run.returncode == 1 and "ROCM_PYTHON_LLVM_BINDINGS=7" in run.stderr


def test_an_error_of_other_bindings_is_the_package_error():
    # The bindings of a version other than the default's live in an extension of their own;
    # what it raises is caught as the package's HipLoadError all the same.
    other = versions("llvm")[1]
    code = (
        "import rocm.llvm\nfrom rocm.llvm.c import core\n"
        "try:\n    core.LLVMInt32Type()\n"
        "except rocm.llvm.HipLoadError as e:\n    print('caught', core.__rocm_release__)\n"
    )
    missing = "/nonexistent/libLLVM.so"
    run = run_python(code, ROCM_PYTHON_LLVM_BINDINGS=str(other), ROCM_PYTHON_LIBLLVM=missing)
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("caught")


@pytest.mark.skipif(not os.path.exists("/usr/lib/x86_64-linux-gnu/libLLVM-15.so.1"), reason="no LLVM 15 here")
def test_an_llvm_that_reports_no_version_gets_the_default_bindings():
    code = (
        "from rocm.llvm.c import core\nfrom rocm import _select\n"
        "print(core.LLVMInt32Type() is not None, _select.CHOSEN['llvm'][2])\n"
    )
    run = run_python(code, ROCM_PYTHON_LIBLLVM="/usr/lib/x86_64-linux-gnu/libLLVM-15.so.1")
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "True the library reports no version: the default bindings"


# --- kernel descriptors comgr makes ------------------------------------------------------------

ISA_NAMES = rocm.comgr.get_isa_names()
TARGETS = [t for t in ("gfx90a", "gfx942", "gfx950") if f"amdgcn-amd-amdhsa--{t}" in ISA_NAMES]


def directives(block):
    """`{directive: value}` of an `.amdhsa_kernel` block."""
    return {m[0]: int(m[1]) for m in re.findall(r"^\s*(\.amdhsa_\w+)\s+(\d+)", block, re.M)}


@pytest.fixture(scope="module", params=TARGETS)
def compiled(request):
    """(target, the compiler's `.amdhsa_kernel` directives, the descriptor it assembles to)."""
    isa = f"amdgcn-amd-amdhsa--{request.param}"
    bc, _, _ = comgr.compile_hip_to_bc(HIP_SOURCE, isa, (6, 0, 0))
    assembly, _, _ = comgr.compile_bc_to_hsa(bc, isa)
    exe, _, _ = comgr.compile_hsa(assembly, isa)
    symbols = comgr.parse_code_symbols(exe, len(exe))
    raw = comgr._get_code_symbol_bytes(exe, symbols, "scale.kd")
    block = re.search(r"\.amdhsa_kernel scale\n(.*?)\.end_amdhsa_kernel", assembly.decode(), re.S).group(1)
    return request.param, directives(block), raw


def extra_sgprs(major, minor, d):
    """The SGPRs the assembler adds to `.amdhsa_next_free_sgpr` before counting blocks, from the
    compiler's own reserve directives or, where it wrote none, their defaults (AMDGPUUsage: VCC
    2; before gfx10 the XNACK mask 4 (reserved by default where the target may use XNACK),
    flat scratch or architected flat scratch 6)."""
    extra = 2 if d.get(".amdhsa_reserve_vcc", 1) else 0
    if major < 10:
        if d.get(".amdhsa_reserve_xnack_mask", int(kd._supports_xnack(major, minor))):
            extra = 4
        if d.get(".amdhsa_reserve_flat_scratch", 0) or kd._has_architected_flat_scratch(major, minor):
            extra = 6
    return extra


def test_a_compiled_descriptor_renders_as_the_compiler_wrote_it(compiled):
    target, written, raw = compiled
    descriptor = kd.parse_amdgpu_code_obj_kernel_descriptor(raw, target)
    ours = directives(descriptor.render_amdhsa_kernel_directive("scale"))
    guessed = {".amdhsa_next_free_vgpr", ".amdhsa_next_free_sgpr", ".amdhsa_reserve_vcc",
               ".amdhsa_reserve_flat_scratch", ".amdhsa_reserve_xnack_mask"}  # fmt: skip
    same = set(ours) & set(written) - guessed
    assert {d: ours[d] for d in same} == {d: written[d] for d in same}
    assert ".amdhsa_accum_offset" in same and ".amdhsa_kernarg_size" in same
    major, minor = kd.split_amdgpu_arch(target)
    # The granules: LLVM's disassembler writes their ends, which hold what the compiler used.
    need_sgpr = written[".amdhsa_next_free_sgpr"] + extra_sgprs(major, minor, written)
    assert ours[".amdhsa_next_free_sgpr"] == -(-max(need_sgpr, 1) // 8) * 8
    need_vgpr = max(written[".amdhsa_next_free_vgpr"], written[".amdhsa_accum_offset"])
    assert ours[".amdhsa_next_free_vgpr"] == -(-max(need_vgpr, 1) // 8) * 8


def test_the_guessed_lines_are_llvm_disassemblers(compiled):
    target, _, raw = compiled
    text = kd.parse_amdgpu_code_obj_kernel_descriptor(raw, target).render_amdhsa_kernel_directive("k")
    guessed = [line.split()[0] for line in text.splitlines() if "; guessed value" in line]
    major, minor = kd.split_amdgpu_arch(target)
    expected = [".amdhsa_next_free_vgpr", ".amdhsa_next_free_sgpr", ".amdhsa_reserve_vcc"]
    if not kd._has_architected_flat_scratch(major, minor):
        expected.append(".amdhsa_reserve_flat_scratch")
    assert guessed == expected
    assert ".amdhsa_accum_offset" in text and ".amdhsa_accum_offset 4 ;" not in text


# --- what the bindings take -----------------------------------------------------------------


def test_arrays_of_handles_c_reads_take_a_list():
    ctx = core.LLVMContextCreate()
    i32 = core.LLVMInt32TypeInContext(ctx)
    a, b = core.LLVMConstInt(i32, 1, 0), core.LLVMConstInt(i32, 2, 0)
    struct = core.LLVMConstStructInContext(ctx, [a, b], 2, 0)
    assert core.LLVMGetNumOperands(struct) == 2
    assert core.LLVMTypeOf(core.LLVMConstStructInContext(ctx, (a, b), 2, 0)) is not None
    node = core.LLVMMDNodeInContext2(ctx, [core.LLVMValueAsMetadata(a)], 1)
    assert node is not None
    with pytest.raises(ValueError, match="Count is 3 but ConstantVals holds 2"):
        core.LLVMConstStructInContext(ctx, [a, b], 3, 0)
    core.LLVMContextDispose(ctx)


def test_a_buffer_of_handles_is_checked():
    ctx = core.LLVMContextCreate()
    with pytest.raises(ValueError, match=r"ConstantVals\[0\] is a NULL handle"):
        core.LLVMConstStructInContext(ctx, bytearray(256), 4, 0)
    with pytest.raises(ValueError, match="C would read past its end"):
        core.LLVMConstStructInContext(ctx, bytearray(8), 4, 0)
    i32 = core.LLVMInt32TypeInContext(ctx)
    values = (ctypes.c_void_p * 2)(int(core.LLVMConstInt(i32, 1, 0)), int(core.LLVMConstInt(i32, 2, 0)))
    assert core.LLVMGetNumOperands(core.LLVMConstStructInContext(ctx, values, 2, 0)) == 2
    core.LLVMContextDispose(ctx)


def test_an_array_c_fills_takes_a_buffer_not_a_list():
    ctx = core.LLVMContextCreate()
    i32 = core.LLVMInt32TypeInContext(ctx)
    fn_type = core.LLVMFunctionType(i32, [i32, i32], 2, 0)
    with pytest.raises(TypeError, match="C writes this array"):
        core.LLVMGetParamTypes(fn_type, [None, None])
    out = (ctypes.c_void_p * 2)()
    core.LLVMGetParamTypes(fn_type, out)
    assert out[0] == out[1] == int(i32)
    core.LLVMContextDispose(ctx)


def test_a_buffer_c_fills_must_hold_what_the_library_counts():
    ctx = core.LLVMContextCreate()
    i32 = core.LLVMInt32TypeInContext(ctx)
    fn_type = core.LLVMFunctionType(i32, [i32, i32, i32], 3, 0)
    with pytest.raises(ValueError, match=r"holds 2 handle\(s\), but C writes 3 there \(LLVMCountParamTypes"):
        core.LLVMGetParamTypes(fn_type, (ctypes.c_void_p * 2)())
    out = (ctypes.c_void_p * 3)()
    core.LLVMGetParamTypes(fn_type, out)
    assert list(out) == [int(i32)] * 3
    core.LLVMContextDispose(ctx)


def test_arrays_counted_apart_take_lists_too():
    ctx = core.LLVMContextCreate()
    i32 = core.LLVMInt32TypeInContext(ctx)
    one = core.LLVMConstInt(i32, 1, 0)
    vector = core.LLVMConstVector([one, one, one, one], 4)
    assert core.LLVMGetVectorSize(core.LLVMTypeOf(vector)) == 4
    with pytest.raises(ValueError, match="Size is 5 but ScalarConstantVals holds 4"):
        core.LLVMConstVector([one] * 4, 5)
    core.LLVMContextDispose(ctx)


def test_what_a_dispose_frees_is_never_a_python_buffer():
    with pytest.raises(TypeError):
        orc.LLVMOrcDisposeSymbols(bytearray(256))


def test_integer_parameters_take_no_float():
    i32 = core.LLVMInt32Type()
    with pytest.raises(TypeError, match="'float' object cannot be interpreted as an integer"):
        core.LLVMConstInt(i32, 7.9, 0)
    assert core.LLVMConstIntGetZExtValue(core.LLVMConstInt(i32, 7, 0)) == 7
    with pytest.raises(TypeError, match="'float' object cannot be interpreted as an integer"):
        amd_comgr.amd_comgr_get_isa_name(0.0)
    assert amd_comgr.amd_comgr_get_isa_name(0)[1]
