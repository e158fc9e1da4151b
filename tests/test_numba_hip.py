"""numba-hip (AMD's Numba backend, 0.2.1 from PyPI, written for AMD's 10.0 `rocm.bindings`
layout) compiles kernels on our packages, with nothing of AMD's installed.

It runs inside ROCm 7.2.4's Debian root (tools/rocm-run.sh 7.2.4; tools/numba-hip-env.sh puts
numba, llvmlite and numba-hip there with `--no-deps`, as pip would): numba-hip 0.2.1 needs ROCm
7.2's HIPRTC header (HIP 5.2's on bookworm lacks the constants its device library uses), and
parses that release's comgr bitcode (LLVM 22) with `rocm.llvm`, so the root's libLLVM 22 is
named in ROCM_PYTHON_LIBLLVM. Each case is a fresh process, as a user's program would be. No
GPU is needed for any step: numba-hip asks for a device only to launch, or to compile for
"the current device".
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import IN_ROOT

#: Where tools/numba-hip-env.sh unpacked numba, llvmlite, NumPy and numba-hip in the root.
NUMBA_HIP = Path("/opt/numba-hip")

pytestmark = pytest.mark.skipif(
    not (IN_ROOT and (NUMBA_HIP / "numba" / "hip").is_dir()),
    reason="runs inside ROCm 7.2.4's root with numba-hip unpacked (tools/numba-hip-env.sh)",
)

PRELUDE = """
import numpy as np
from numba import hip

def vadd(a, b, c):
    i = hip.grid(1)
    if i < c.size:
        c[i] = a[i] + b[i]

SIG = "void(float32[::1],float32[::1],float32[::1])"
"""


def run(code: str) -> str:
    """Runs `code` after PRELUDE in a fresh interpreter with numba-hip on its path."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(NUMBA_HIP), env.get("PYTHONPATH", "")])
    env["NUMBA_HIP_USE_DEVICE_LIB_CACHE"] = "0"
    # The newest libLLVM of the root, comgr's own (22 in ROCm 7.2.4's).
    found = sorted(
        Path("/usr/lib/x86_64-linux-gnu").glob("libLLVM.so.*"),
        key=lambda p: [int(n) for n in p.name.split(".so.")[1].split(".") if n.isdigit()],
    )
    if not found:
        pytest.skip("no libLLVM in the root")
    env["ROCM_PYTHON_LIBLLVM"] = str(found[-1])
    out = subprocess.run(
        [sys.executable, "-c", PRELUDE + code], capture_output=True, text=True, env=env, timeout=600
    )
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    return out.stdout


def test_import_uses_our_rocm_bindings_layout():
    out = run(
        "import rocm.bindings.hip, rocm.bindings.hiprtc, rocm.comgr, rocm.version\n"
        "import hip.hip, hip.hiprtc\n"
        "from numba.hip.hipdrv import driver\n"
        "assert rocm.bindings.hip is hip.hip and rocm.bindings.hiprtc is hip.hiprtc\n"
        "print(rocm.version.ROCM_VERSION_TUPLE, rocm.version.HIP_VERSION_TUPLE[:3])\n"
    )
    assert out.startswith("(7, 2, 4) (7, 2, ")


def test_kernel_to_amdgpu_llvm_ir():
    # numba typing and lowering, numba-hip's AMDGPU target, the kernel's IR for gfx942.
    out = run(
        "ll, _ = hip.compile_llvm_ir(vadd, SIG, amdgpu_arch='gfx942', link_in_hipdevicelib=False)\n"
        "text = ll if isinstance(ll, str) else ll.decode()\n"
        "print([l for l in text.splitlines() if 'amdgpu_kernel' in l][0])\n"
        "print('target:', [l for l in text.splitlines() if l.startswith('target triple')][0])\n"
    )
    assert "define protected amdgpu_kernel void" in out and "vadd" in out
    assert 'target triple = "amdgcn-amd-amdhsa"' in out


def test_device_function_linked_with_the_hip_device_library():
    # The device library: ROCm 7.2's HIPRTC header parsed with libclang (rocm.bindings.clang
    # .cindex), wrappers compiled by comgr (rocm.comgr.compile_hip_to_bc), the bitcode read,
    # relinked and rewritten with rocm.llvm (LLVMParseBitcode, LLVMLinkModules2,
    # LLVMGetBufferStart's bytes).
    out = run(
        "def add(x, y):\n"
        "    return x + y\n"
        "ll, _ = hip.compile_llvm_ir(add, 'float32(float32, float32)', amdgpu_arch='gfx942', device=True)\n"
        "text = ll if isinstance(ll, str) else ll.decode()\n"
        "print(sum(l.startswith('define') for l in text.splitlines()), 'definitions')\n"
        "print('ocml:', '__ocml_' in text)\n"
    )
    definitions = int(out.split()[0])
    assert definitions > 1000 and "ocml: True" in out


def test_kernel_to_code_object_through_numba_hips_own_steps():
    # The kernel's bitcode and the device library's, linked by numba-hip's llvmutils (our
    # rocm.llvm) and turned into a gfx942 code object by rocm.comgr.compile_bc, the step
    # numba-hip's `get_codeobj` takes. (numba-hip's own kernel clean-up, which follows the
    # link, calls bytes() on an LLVMOpaqueValue when the device library has global aliases, as
    # Debian's ROCm 7.2 ocml does: AMD's Pointer has no buffer either, so it fails the same way
    # on AMD's packages; the link is done here without it.)
    out = run(
        "from numba.hip.typing_lowering import hipdevicelib\n"
        "from numba.hip.util import llvmutils\n"
        "from rocm import comgr\n"
        "bc, _ = hip.compile_llvm_ir(vadd, SIG, amdgpu_arch='gfx942', link_in_hipdevicelib=False,\n"
        "                            to_bc=True, ir_as_str=False)\n"
        "linked = llvmutils.link_modules([bc, hipdevicelib.get_llvm_bc('gfx942')], True)\n"
        "code, log, _ = comgr.compile_bc(bytes(linked), isa_name='amdgcn-amd-amdhsa--gfx942', logging=True)\n"
        "print(bytes(code[:4]), len(code))\n"
        "print(comgr.parse_code_obj_kernel_names(code, len(code)))\n"
    )
    first, names = out.splitlines()[:2]
    assert first.startswith("b'\\x7fELF'")
    assert "vadd" in names
