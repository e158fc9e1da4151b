"""The names programs written for AMD's packages import, old layout and 10.0's: `hip._util`
after `import hip`, `rocm.llvm._util`, `rocm.llvm.config.llvm_config`, `rocm.clang.cindex`,
`rocm.amd_comgr.amd_comgr.ext`, and AMD 10.0's `rocm.bindings.*` (the very module objects of
ours, from the manifest's `bindings_module`), `rocm.version` and `rocm.bindings.util.*`."""

import ctypes
import importlib
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import MANIFEST


def run_python(code):
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-3000:]
    return out.stdout


def test_import_hip_makes_hip_util_available():
    # numba-hip's dev branch reads `hip._util.types.Pointer` right after `import hip`.
    out = run_python("import hip\nprint(hip._util.types.Pointer.__name__)")
    assert out.split() == ["Pointer"]


def installed_aliases():
    """(10.0 name, our name) of every module of the session's bindings that is installed."""
    pairs = []
    for lib in MANIFEST["libraries"]:
        for m in lib["modules"]:
            if m.get("bindings_module") and importlib.util.find_spec(m["python_module"].rpartition(".")[0]):
                pairs.append((m["bindings_module"], m["python_module"]))
    return pairs


@pytest.mark.parametrize("alias, ours", installed_aliases())
def test_amd_10_names_are_our_modules(alias, ours):
    try:
        module = importlib.import_module(ours)
    except ImportError:
        pytest.skip(f"{ours} is not in this build")
    assert importlib.import_module(alias) is module
    parent, _, name = alias.rpartition(".")
    assert getattr(importlib.import_module(parent), name) is module


def test_the_aliases_fill_like_the_modules_and_import_in_any_order():
    # A program that imports only AMD's names first: the placeholder behind `rocm.bindings.hip`
    # is filled once, whichever name reaches it first.
    out = run_python(
        "import rocm.bindings.hip as h\nimport rocm.bindings.util.types as t\n"
        "from rocm.bindings import hiprtc, hiprtc_pyext\nimport hip\n"
        "assert h is hip.hip and t is hip._util.types and hiprtc is hip.hiprtc\n"
        "assert hiprtc_pyext is hip.hiprtc_pyext and hiprtc.ext is hiprtc_pyext\n"
        "print(h.hipGetErrorName(h.hipError_t.hipSuccess)[1], int(t.Pointer(None)))\n"
    )
    assert out.split() == ["hipSuccess", "0"]


def test_rocm_version_is_hips():
    import rocm.version as v

    import hip

    assert v.ROCM_VERSION_TUPLE == hip.ROCM_VERSION_TUPLE and v.ROCM_VERSION == hip.ROCM_VERSION
    assert v.HIP_VERSION_TUPLE == hip.HIP_VERSION_TUPLE and len(v.HIP_VERSION_TUPLE) == 4
    major, minor, patch, githash = v.HIP_VERSION_TUPLE
    assert v.HIP_VERSION == hip.hip.HIP_VERSION and v.HIP_VERSION_NAME.startswith(f"{major}.{minor}.{patch}")
    assert isinstance(githash, str)


def test_library_paths():
    from rocm.bindings.util import paths

    clang = paths.get_library_path("clang")
    assert isinstance(clang, bytes) and Path(clang.decode()).exists(), clang
    resource = Path(paths.get_clang_resource_dir())
    assert (resource / "include" / "stddef.h").exists()
    # A library found nowhere is the bare name, for the system loader.
    assert paths.get_library_path("no_such_library") == b"libno_such_library.so"


def test_clang_cindex_parses_with_the_systems_libclang():
    import clang.cindex
    from rocm.clang import cindex

    assert cindex is clang.cindex and importlib.import_module("rocm.bindings.clang.cindex") is cindex
    tu = cindex.Index.create().parse("t.c", unsaved_files=[("t.c", "int twice(int x) { return 2 * x; }")])
    (fn,) = [c for c in tu.cursor.get_children() if c.kind == cindex.CursorKind.FUNCTION_DECL]
    assert fn.spelling == "twice" and fn.result_type.kind == cindex.TypeKind.INT


def test_no_libclang_is_a_clear_error():
    # What was tried, in order, and how to name a library.
    out = run_python(
        "import os\nos.environ['ROCM_PYTHON_LIBCLANG'] = '/nonexistent/libclang.so'\n"
        "from rocm.clang import cindex\n"
        "cindex.candidates = lambda: ['/nonexistent/libclang.so', '/opt/none/llvm/lib/libclang.so']\n"
        "import rocm.clang.cindex as rc\n"
        "try:\n    rc.Config().get_filename()\nexcept cindex.LibclangError as e:\n    print(e)\n"
    )
    assert "libclang was not found; tried /nonexistent/libclang.so, /opt/none/llvm/lib/libclang.so." in out


def test_llvm_config_and_util():
    from rocm.llvm import _util
    from rocm.llvm.c import core
    from rocm.llvm.config import llvm_config

    assert llvm_config.LLVM_VERSION_MAJOR == core.LLVMGetVersion()[0]
    assert llvm_config.LLVM_VERSION_STRING.startswith(f"{llvm_config.LLVM_VERSION_MAJOR}.")
    assert "amdgcn" not in llvm_config.LLVM_HOST_TRIPLE and llvm_config.LLVM_HAS_AMDGPU_TARGET in (0, 1)
    length = ctypes.c_size_t()
    name = core.LLVMGetModuleIdentifier(core.LLVMModuleCreateWithName(b"m"), ctypes.byref(length))
    assert isinstance(name, _util.types.CStr) and str(name) == "m" and length.value == 1


def test_star_import_of_target_brings_the_inline_helpers():
    out = run_python("from rocm.llvm.c.target import *\nprint(LLVMInitializeAllTargetInfos() is None)")
    assert out.strip() == "True"


def test_names_hip_python_has_and_we_lacked():
    from hip import hip, hiprand, hipsparse
    from hip._util.types import Pointer

    assert hipsparse.hipError_t is hip.hipError_t
    assert hiprand.uint4 is hip.uint4 and hiprand.uint4(x=1, w=4).w == 4
    assert issubclass(hiprand.hiprandDirectionVectors64_t, Pointer)
