"""Shared paths: the bindings the session runs (their manifest, the generated IR) and the
unpacked packages of their ROCm release (tools/setup.sh).

The session runs the default release's bindings (ROCm 7.2.4's) on bookworm's HIP 5.2 runtime:
HIP_PYTHON_ROCM_RELEASE chooses them among the releases the wheel carries (the runtime's own
choice would be ROCm 5's; test_release_choice.py checks that), and hiprtc, which ROCm 5 keeps
inside libamdhip64, is pointed there. Inside a release's runtime root (tools/rocm-run.sh sets
HIPGEN_IN_ROOT to its release) nothing is pinned: the wheel finds and chooses that runtime by itself."""

import gzip
import importlib.util
import json
import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("manifest", REPO / "tools" / "manifest.py")
#: tools/manifest.py: the release manifests' readers.
manifest = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(manifest)
#: The release of the bindings the session runs: the default release's, or HIPGEN_SESSION_RELEASE's
#: (tools/test.sh runs the comparison with hip-python 6.4.3 against the 6.4.3 bindings so).
SESSION_RELEASE = (
    os.environ.get("HIPGEN_SESSION_RELEASE") or manifest.load(manifest.default_folder())["release"]
)
#: The release of the runtime root the session runs in (tools/rocm-run.sh), else None.
IN_ROOT = os.environ.get("HIPGEN_IN_ROOT")
if not IN_ROOT:
    os.environ.setdefault("HIP_PYTHON_ROCM_RELEASE", SESSION_RELEASE)
    os.environ.setdefault("HIP_PYTHON_LIBHIPRTC", "libamdhip64.so.5")
BINDINGS = REPO / "bindings" / f"rocm-{SESSION_RELEASE}"
#: The manifest of those bindings: their release, libraries and packages.
MANIFEST = manifest.load(BINDINGS)
RELEASE = MANIFEST["release"]
ROCM = Path(os.environ.get("HIPGEN_ROCM_DIR", REPO / ".rocm")) / RELEASE / "usr"


def pytest_configure(config):
    config.addinivalue_line("markers", "gpu: needs a GPU (AMD or NVIDIA)")


@pytest.fixture(scope="session")
def rocm_headers():
    """Root of the unpacked ROCm packages of the session's release (headers and libraries)."""
    if not (ROCM / "include" / "hip" / "hip_runtime_api.h").exists():
        pytest.fail(f"ROCm {RELEASE} headers not found under {ROCM}: run tools/setup.sh")
    return ROCM


def read_ir(path):
    """An IR file hipgen wrote (`<name>.ir.json.gz`: gzip-compressed JSON)."""
    return json.loads(gzip.decompress(Path(path).read_bytes()))


def load_ir(lib, bindings=BINDINGS):
    """The IR hipgen wrote for a library, in the session's bindings or in `bindings`."""
    return read_ir(Path(bindings) / f"{lib}.ir.json.gz")


@pytest.fixture(scope="session")
def hip_python_api():
    """The public API of hip-python 6.4.3 (tools/hip_python_api.py)."""
    return json.loads((REPO / "tests" / "fixtures" / "hip_python_6.4.3.json").read_text())
