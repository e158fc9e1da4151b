"""rocm-llvm-python: amd_comgr and the LLVM C API doing real work on this CPU.

The comgr tests need bindings generated from the header of the comgr that runs here
(bookworm's comgr 2.4: tools/test.sh builds them so; comgr 3 renumbered its enums).
"""

import ctypes
import json
import os
import subprocess
import sys

import pytest
from comgr_helpers import HIP_SOURCE, check, read_data
from rocm import _native
from rocm.amd_comgr import amd_comgr as comgr
from rocm.llvm.c import analysis, bitreader, bitwriter, core, irreader, lljit, orc, target

from conftest import REPO, load_ir

Pointer = _native.Pointer
REFERENCE = json.loads((REPO / "tests/fixtures/rocm_llvm_python_6.4.3.json").read_text())


# --- parity --------------------------------------------------------------------------------


@pytest.mark.parametrize("module", sorted(REFERENCE))
def test_functions_and_enum_members_of_rocm_llvm_python(module):
    ref = REFERENCE[module]
    functions = set(ref["functions"])
    members = {(e, m) for e, ms in ref["enums"].items() for m in ms}
    if module == "rocm.amd_comgr.amd_comgr":
        # The comgr installed for the tests is built from the header of the comgr that runs
        # here (2.4); the shipped (default release's) bindings are what must match.
        ir = load_ir("amd_comgr")
        names = {f["name"] for f in ir["functions"]}
        enums = {
            n: {m for m, _ in e["members"]} for e in ir["enums"] for n in [e["name"], *e.get("aliases", [])]
        }
        ours = {(e, m) for e, m in members if m in enums.get(e, ())}
    else:
        mod = sys.modules[module]
        names = set(dir(mod))
        ours = set()
        for e, m in members:
            cls = getattr(mod, e, None)
            if cls is not None and hasattr(cls, m):
                ours.add((e, m))
    missing = sorted(functions - names)
    assert len(missing) <= 0.05 * len(functions), missing
    assert len(members - ours) <= 0.05 * len(members), sorted(members - ours)[:20]
    # Today nothing is missing at all; pin that.
    assert missing == [] and members == ours


def test_reexported_names_are_the_same_objects():
    assert lljit.LLVMOrcCreateNewThreadSafeContext is orc.LLVMOrcCreateNewThreadSafeContext
    tm = sys.modules["rocm.llvm.c.targetmachine"]
    assert tm.LLVMCreateTargetData is target.LLVMCreateTargetData
    assert sys.modules["rocm.llvm.c.executionengine"].LLVMGetTargetFromTriple is tm.LLVMGetTargetFromTriple
    # Helpers of the header added from Python reach the re-exporting modules too.
    assert (
        sys.modules["rocm.llvm.c.targetmachine"].LLVMInitializeNativeTarget
        is target.LLVMInitializeNativeTarget
    )
    assert "LLVMOrcExecutionSessionCreateBareJITDylib" in dir(sys.modules["rocm.llvm.c.orcee"])


# --- LLVM ----------------------------------------------------------------------------------


def build_module(ctx):
    """`int muladd(int x, int y) { return x * y + 7; }` through the IR builder."""
    mod = core.LLVMModuleCreateWithNameInContext(b"demo", ctx)
    i32 = core.LLVMInt32TypeInContext(ctx)
    params = (ctypes.c_void_p * 2)(int(i32), int(i32))
    fty = core.LLVMFunctionType(i32, params, 2, 0)
    fn = core.LLVMAddFunction(mod, b"muladd", fty)
    builder = core.LLVMCreateBuilderInContext(ctx)
    core.LLVMPositionBuilderAtEnd(builder, core.LLVMAppendBasicBlockInContext(ctx, fn, b"entry"))
    x, y = core.LLVMGetParam(fn, 0), core.LLVMGetParam(fn, 1)
    product = core.LLVMBuildMul(builder, x, y, b"p")
    core.LLVMBuildRet(builder, core.LLVMBuildAdd(builder, product, core.LLVMConstInt(i32, 7, 0), b"s"))
    core.LLVMDisposeBuilder(builder)
    return mod, fn


def test_created_objects_are_returned_after_the_result():
    """rocm-llvm-python's convention: `Out*` handles and messages come back in the tuple
    (`err, mod, msg = LLVMParseIRInContext(ctx, buf)`), None where C left NULL."""
    ctx = core.LLVMContextCreate()
    mod, _ = build_module(ctx)
    buf = bitwriter.LLVMWriteBitcodeToMemoryBuffer(mod)
    rc, out = bitreader.LLVMParseBitcodeInContext2(ctx, buf)
    assert rc == 0 and isinstance(out, type(mod)) and int(out) != int(mod)
    assert core.LLVMCountParams(core.LLVMGetNamedFunction(out, b"muladd")) == 2
    ir = b"define i32 @f(i32 %x) {\n  ret i32 %x\n}\n"
    err, parsed, msg = irreader.LLVMParseIRInContext(
        ctx, core.LLVMCreateMemoryBufferWithMemoryRange(ir, len(ir), b"ir", 0)
    )
    assert (err, msg) == (0, None) and core.LLVMGetNamedFunction(parsed, b"f") is not None
    bad = b"not IR"
    err, parsed, msg = irreader.LLVMParseIRInContext(
        ctx, core.LLVMCreateMemoryBufferWithMemoryRange(bad, len(bad), b"bad", 0)
    )
    assert err == 1 and parsed is None and "expected top-level entity" in str(msg)
    # The program frees the message as rocm-llvm-python's users do: here it is a copy the
    # bindings made (the C string went back to LLVM already), so nothing is freed twice.
    assert core.LLVMDisposeMessage(msg) is None and core.LLVMDisposeMessage(msg) is None
    # A free function given Python memory refuses it rather than free() it.
    with pytest.raises(TypeError, match="not a string the library allocated"):
        core.LLVMDisposeMessage(b"not LLVM's")
    with pytest.raises(TypeError):
        core.LLVMDisposeMessage(bytearray(8))
    # LLVM keeps reading a buffer made without a copy: the caller's bytes, NULs and all.
    data = b"BC\xc0\xde" + bytes(12)
    buf = core.LLVMCreateMemoryBufferWithMemoryRange(data, len(data), b"nul", 0)
    start = core.LLVMGetBufferStart(buf).configure(_force=True, shape=(core.LLVMGetBufferSize(buf),))
    assert int(start) == int(core.LLVMGetBufferStart(buf)) and bytes(start) == data


def test_ir_builder_verifier_and_bitcode_round_trip():
    ctx = core.LLVMContextCreate()
    mod, fn = build_module(ctx)
    action = analysis.LLVMVerifierFailureAction.LLVMReturnStatusAction
    broken, message = analysis.LLVMVerifyModule(mod, action)
    assert broken == 0 and message == b""
    assert core.LLVMCountParams(fn) == 2
    buf = bitwriter.LLVMWriteBitcodeToMemoryBuffer(mod)
    size = core.LLVMGetBufferSize(buf)
    assert size > 100
    # The buffer's start is memory, sized by the caller (rocm-llvm-python's NDBuffer idiom).
    start = core.LLVMGetBufferStart(buf)
    assert bytes(start) == b""
    data = bytes(start.configure(_force=True, shape=(size,)))
    assert len(data) == size and data[:4] == b"BC\xc0\xde"
    rc, out = bitreader.LLVMParseBitcodeInContext2(ctx, buf)
    assert rc == 0
    again = core.LLVMGetNamedFunction(out, b"muladd")
    assert again is not None and core.LLVMCountParams(again) == 2
    # `char *` results come back as bytes.
    ir_text = core.LLVMPrintModuleToString(out)
    assert b"define i32 @muladd(i32 %0, i32 %1)" in ir_text and b"mul i32 %0, %1" in ir_text


def resident_kib():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * (os.sysconf("SC_PAGE_SIZE") // 1024)


def test_strings_llvm_hands_over_are_freed():
    """LLVMPrintModuleToString's result is copied and given back with LLVMDisposeMessage:
    2,000 printouts of 100 kB would hold 200 MB if they were not."""
    ctx = core.LLVMContextCreate()
    mod = core.LLVMModuleCreateWithNameInContext(b"m" * 100_000, ctx)
    text = core.LLVMPrintModuleToString(mod)
    assert len(text) > 100_000 and text.startswith(b"; ModuleID = 'mmm")
    for _ in range(50):
        core.LLVMPrintModuleToString(mod)
    before = resident_kib()
    for _ in range(2000):
        core.LLVMPrintModuleToString(mod)
    assert resident_kib() - before < 50_000


def test_verifier_reports_a_broken_function():
    ctx = core.LLVMContextCreate()
    mod = core.LLVMModuleCreateWithNameInContext(b"bad", ctx)
    i32 = core.LLVMInt32TypeInContext(ctx)
    fn = core.LLVMAddFunction(mod, b"f", core.LLVMFunctionType(i32, None, 0, 0))
    core.LLVMAppendBasicBlockInContext(ctx, fn, b"entry")  # no terminator
    broken, message = analysis.LLVMVerifyModule(
        mod, analysis.LLVMVerifierFailureAction.LLVMReturnStatusAction
    )
    assert broken == 1 and b"terminator" in message.lower()


def test_lljit_runs_the_function_through_its_address():
    assert target.LLVMInitializeNativeTarget() == 0
    assert target.LLVMInitializeNativeAsmPrinter() == 0
    ctx = core.LLVMContextCreate()
    mod, _ = build_module(ctx)
    buf = bitwriter.LLVMWriteBitcodeToMemoryBuffer(mod)
    tsctx = orc.LLVMOrcCreateNewThreadSafeContext()
    rc, jit_module = bitreader.LLVMParseBitcodeInContext2(orc.LLVMOrcThreadSafeContextGetContext(tsctx), buf)
    assert rc == 0
    tsm = orc.LLVMOrcCreateNewThreadSafeModule(jit_module, tsctx)
    # Orc's `Result` slots stay caller-provided, as in rocm-llvm-python.
    jit = Pointer()
    assert lljit.LLVMOrcCreateLLJIT(jit.createRef(), None) is None  # no LLVMErrorRef
    dylib = lljit.LLVMOrcLLJITGetMainJITDylib(jit)
    assert lljit.LLVMOrcLLJITAddLLVMIRModule(jit, dylib, tsm) is None
    # The address slot is the caller's too (an `LLVMOrcExecutorAddress *`).
    address = ctypes.c_uint64()
    err = lljit.LLVMOrcLLJITLookup(jit, ctypes.byref(address), b"muladd")
    assert err is None and address.value != 0
    muladd = ctypes.CFUNCTYPE(ctypes.c_int32, ctypes.c_int32, ctypes.c_int32)(address.value)
    assert muladd(6, 7) == 49 and muladd(-3, 5) == -8
    err = lljit.LLVMOrcLLJITLookup(jit, ctypes.byref(address), b"no_such_function")
    assert err is not None
    message = sys.modules["rocm.llvm.c.error"].LLVMGetErrorMessage(err)
    assert b"no_such_function" in message
    assert lljit.LLVMOrcDisposeLLJIT(jit) is None


def test_llvm_version_of_the_loaded_library():
    major, _, _ = core.LLVMGetVersion()
    assert major == 19


def run_python(code, **env):
    return subprocess.run(
        [sys.executable, "-c", code], env={**os.environ, **env}, capture_output=True, text=True, timeout=120
    )


def test_older_llvm_gives_the_clear_error_for_missing_symbols():
    # LLVMGetVersion appeared in LLVM 16: LLVM 15 lacks it, and says so by name.
    code = (
        "from rocm.llvm.c import core\n"
        "print(core.LLVMInt32Type() is not None)\n"
        "try:\n    core.LLVMGetVersion()\n"
        "except RuntimeError as e:\n    print(type(e).__name__, e)\n"
    )
    out = run_python(code, ROCM_PYTHON_LIBLLVM="/usr/lib/x86_64-linux-gnu/libLLVM-15.so.1")
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("True\nHipLoadError")
    assert "LLVMGetVersion" in out.stdout and "libLLVM-15.so.1" in out.stdout


def test_llvm_and_comgr_load_whatever_the_hip_platform():
    """They are not HIP's: HIP_PLATFORM=nvidia (no CUDA driver here) does not touch them."""
    code = (
        "import ctypes\n"
        "from rocm.llvm.c import core\n"
        "from rocm.amd_comgr import amd_comgr\n"
        "_, major, minor = amd_comgr.amd_comgr_get_version()\n"
        "print(core.LLVMGetVersion()[0], major)\n"
    )
    out = run_python(code, HIP_PLATFORM="nvidia")
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["19", "2"]


def test_missing_library_is_a_clear_error():
    code = "from rocm.llvm.c import core\ncore.LLVMInt32Type()\n"
    out = run_python(code, ROCM_PYTHON_LIBLLVM="/nonexistent/libLLVM.so")
    assert out.returncode == 1
    assert "HipLoadError" in out.stderr and "/nonexistent/libLLVM.so" in out.stderr
    assert "ROCM_PYTHON_LIBLLVM" in out.stderr


def test_byref_arguments():
    # Size pointers are caller-provided, as in rocm-llvm-python: `size_t *Len` of
    # LLVMGetModuleIdentifier takes byref, pointer, byref with an offset and buffers.
    mod = core.LLVMModuleCreateWithNameInContext(b"twelve chars", core.LLVMContextCreate())
    n = ctypes.c_size_t()
    assert str(core.LLVMGetModuleIdentifier(mod, ctypes.byref(n))) == "twelve chars" and n.value == 12
    p = ctypes.c_size_t()
    core.LLVMGetModuleIdentifier(mod, ctypes.pointer(p))
    slots = (ctypes.c_size_t * 2)()
    core.LLVMGetModuleIdentifier(mod, ctypes.byref(slots, ctypes.sizeof(ctypes.c_size_t)))
    assert (p.value, tuple(slots)) == (12, (0, 12))
    with pytest.raises(TypeError):
        core.LLVMGetModuleIdentifier(mod, "Len")
    # comgr's version is returned after the status, as rocm-llvm-python does.
    status, major, minor = comgr.amd_comgr_get_version()
    assert status == comgr.amd_comgr_status_t.AMD_COMGR_STATUS_SUCCESS and major >= 2


# --- amd_comgr -----------------------------------------------------------------------------

Status = comgr.amd_comgr_status_t
Kind = comgr.amd_comgr_data_kind_t
Action = comgr.amd_comgr_action_kind_t


def metadata_string(node):
    size = ctypes.c_size_t()
    check(comgr.amd_comgr_get_metadata_string(node, ctypes.byref(size), None))
    buf = ctypes.create_string_buffer(size.value)
    check(comgr.amd_comgr_get_metadata_string(node, ctypes.byref(size), buf))
    return buf.value


@pytest.fixture(scope="module")
def pipeline():
    """Source → bitcode → linked bitcode → relocatable → executable for gfx90a."""
    _, major, _ = comgr.amd_comgr_get_version()
    if major != comgr.AMD_COMGR_INTERFACE_VERSION_MAJOR:
        pytest.skip(
            f"bindings for comgr interface {comgr.AMD_COMGR_INTERFACE_VERSION_MAJOR}, runtime "
            f"{major}: build them from its header (tools/test.sh does)"
        )
    source = check(comgr.amd_comgr_create_data(Kind.AMD_COMGR_DATA_KIND_SOURCE))
    check(comgr.amd_comgr_set_data(source, len(HIP_SOURCE), HIP_SOURCE))
    check(comgr.amd_comgr_set_data_name(source, b"scale.hip"))
    inputs = check(comgr.amd_comgr_create_data_set())
    check(comgr.amd_comgr_data_set_add(inputs, source))
    info = check(comgr.amd_comgr_create_action_info())
    check(comgr.amd_comgr_action_info_set_language(info, comgr.amd_comgr_language_t.AMD_COMGR_LANGUAGE_HIP))
    check(comgr.amd_comgr_action_info_set_isa_name(info, b"amdgcn-amd-amdhsa--gfx90a"))
    check(comgr.amd_comgr_action_info_set_option_list(info, [b"-O2"], 1))

    def run(kind, given):
        out = check(comgr.amd_comgr_create_data_set())
        check(comgr.amd_comgr_do_action(kind, info, given, out))
        return out

    stages = {"source": inputs}
    stages["bc"] = run(Action.AMD_COMGR_ACTION_COMPILE_SOURCE_WITH_DEVICE_LIBS_TO_BC, inputs)
    stages["linked"] = run(Action.AMD_COMGR_ACTION_LINK_BC_TO_BC, stages["bc"])
    stages["relocatable"] = run(Action.AMD_COMGR_ACTION_CODEGEN_BC_TO_RELOCATABLE, stages["linked"])
    stages["executable"] = run(Action.AMD_COMGR_ACTION_LINK_RELOCATABLE_TO_EXECUTABLE, stages["relocatable"])
    stages["disassembly"] = run(
        Action.AMD_COMGR_ACTION_DISASSEMBLE_EXECUTABLE_TO_SOURCE, stages["executable"]
    )
    return stages


def count(data_set, kind):
    return check(comgr.amd_comgr_action_data_count(data_set, kind))


def test_comgr_compiles_hip_to_bitcode_and_links(pipeline):
    assert count(pipeline["bc"], Kind.AMD_COMGR_DATA_KIND_BC) == 1
    bc = read_data(
        check(comgr.amd_comgr_action_data_get_data(pipeline["linked"], Kind.AMD_COMGR_DATA_KIND_BC, 0))
    )
    assert bc[:4] == b"BC\xc0\xde"


def test_comgr_makes_relocatable_and_executable(pipeline):
    reloc = check(
        comgr.amd_comgr_action_data_get_data(pipeline["relocatable"], Kind.AMD_COMGR_DATA_KIND_RELOCATABLE, 0)
    )
    exe = check(
        comgr.amd_comgr_action_data_get_data(pipeline["executable"], Kind.AMD_COMGR_DATA_KIND_EXECUTABLE, 0)
    )
    for data in (reloc, exe):
        elf = read_data(data)
        assert elf[:4] == b"\x7fELF" and elf[18] == 224  # e_machine EM_AMDGPU


def test_comgr_lists_the_kernels_in_the_metadata(pipeline):
    exe = check(
        comgr.amd_comgr_action_data_get_data(pipeline["executable"], Kind.AMD_COMGR_DATA_KIND_EXECUTABLE, 0)
    )
    metadata = check(comgr.amd_comgr_get_data_metadata(exe))
    kernels = check(comgr.amd_comgr_metadata_lookup(metadata, b"amdhsa.kernels"))
    names = []
    for i in range(check(comgr.amd_comgr_get_metadata_list_size(kernels))):
        kernel = check(comgr.amd_comgr_index_list_metadata(kernels, i))
        names.append(metadata_string(check(comgr.amd_comgr_metadata_lookup(kernel, b".name"))))
    assert names == [b"scale"]


def test_comgr_disassembles_the_executable(pipeline):
    text = read_data(
        check(
            comgr.amd_comgr_action_data_get_data(pipeline["disassembly"], Kind.AMD_COMGR_DATA_KIND_SOURCE, 0)
        )
    ).decode()
    assert "elf64-amdgpu" in text and "scale:" in text and "s_endpgm" in text


def test_comgr_reports_a_compile_error():
    source = check(comgr.amd_comgr_create_data(Kind.AMD_COMGR_DATA_KIND_SOURCE))
    bad = b"this is not HIP"
    check(comgr.amd_comgr_set_data(source, len(bad), bad))
    check(comgr.amd_comgr_set_data_name(source, b"bad.hip"))
    inputs = check(comgr.amd_comgr_create_data_set())
    check(comgr.amd_comgr_data_set_add(inputs, source))
    info = check(comgr.amd_comgr_create_action_info())
    check(comgr.amd_comgr_action_info_set_language(info, comgr.amd_comgr_language_t.AMD_COMGR_LANGUAGE_HIP))
    check(comgr.amd_comgr_action_info_set_isa_name(info, b"amdgcn-amd-amdhsa--gfx90a"))
    check(comgr.amd_comgr_action_info_set_logging(info, True))
    out = check(comgr.amd_comgr_create_data_set())
    (status,) = comgr.amd_comgr_do_action(Action.AMD_COMGR_ACTION_COMPILE_SOURCE_TO_BC, info, inputs, out)
    assert status == Status.AMD_COMGR_STATUS_ERROR
    log = read_data(check(comgr.amd_comgr_action_data_get_data(out, Kind.AMD_COMGR_DATA_KIND_LOG, 0)))
    assert b"error" in log


def test_interface_mismatch_warns():
    """Bindings of comgr interface 3 (the checked-in ones) over this comgr 2.4 say so."""
    major = comgr.AMD_COMGR_INTERFACE_VERSION_MAJOR
    code = (
        "import warnings\nwarnings.simplefilter('error')\n"
        "from rocm.amd_comgr import amd_comgr as c\n"
        "try:\n    c.amd_comgr_create_data_set()\n    print('no warning')\n"
        "except RuntimeWarning as w:\n    print('warned:', w)\n"
    )
    out = run_python(code)
    assert out.returncode == 0, out.stderr
    if major == 2:
        assert out.stdout.strip() == "no warning"
    else:
        assert (
            "is interface 2.4, but the bindings in use are of" in out.stdout
            and f"interface {major}.x" in out.stdout
        )


def test_the_package_says_its_release_and_each_module_its_bindings():
    # The package is of its default release; each generated module says the release its bindings
    # come from, those of the LLVM and comgr versions found here (rocm/_select.py).
    import rocm.amd_comgr
    import rocm.llvm
    from rocm import _select

    assert rocm.llvm.ROCM_VERSION_NAME == rocm.amd_comgr.ROCM_VERSION_NAME == _native.ROCM_RELEASE
    major, minor, patch = rocm.llvm.ROCM_VERSION_TUPLE
    assert rocm.llvm.ROCM_VERSION == major * 10_000_000 + minor * 100_000 + patch
    assert core.__rocm_release__ == _select.choose("llvm")[0]["release"]
    assert comgr.__rocm_release__ == _select.choose("amd_comgr")[0]["release"]


def test_runtime_classes_are_named_as_their_packages():
    # Each extension holds a runtime of its own; its classes are its package's, found again
    # under the name they give (as pickle and documentation tools look them up).
    import importlib

    from rocm.llvm._util import types as rocm_types

    from hip._util import types as hip_types

    for module in (hip_types, rocm_types):
        for name in ("Pointer", "Struct", "DeviceArray"):
            cls = getattr(module, name)
            assert cls.__module__ == module.__name__, (module.__name__, name)
            assert getattr(importlib.import_module(cls.__module__), cls.__qualname__) is cls
    assert hip_types.Pointer is not rocm_types.Pointer
    # CStr is one class in the process (a string of either package is an instance of both
    # names), named as one of the packages that export it.
    assert hip_types.CStr is rocm_types.CStr
    assert hip_types.CStr.__module__ in (hip_types.__name__, rocm_types.__name__)
    assert importlib.import_module(hip_types.CStr.__module__).CStr is hip_types.CStr
    # The diagnostics functions are the same piece in both extensions.
    import rocm._native

    assert rocm._native.platform() in ("amd", "nvidia")
    assert "rocm.llvm.c.core" in dict(rocm._native.symbols())
