"""Shared paths: the checked-in bindings (their manifest, the generated IR) and the unpacked
packages of their ROCm release (tools/setup.sh)."""

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
BINDINGS = manifest.default_folder()
#: The manifest of the checked-in bindings: their release, libraries and packages.
MANIFEST = manifest.load(BINDINGS)
RELEASE = MANIFEST["release"]
ROCM = Path(os.environ.get("HIPGEN_ROCM_DIR", REPO / ".rocm")) / RELEASE / "usr"


def pytest_configure(config):
    config.addinivalue_line("markers", "gpu: needs a GPU (AMD, or NVIDIA with --platform nvidia)")


@pytest.fixture(scope="session")
def rocm_643():
    """Root of Debian sid's ROCm 6.4.3 packages (headers and libraries)."""
    if not (ROCM / "include" / "hip" / "hip_runtime_api.h").exists():
        pytest.fail(f"ROCm 6.4.3 headers not found under {ROCM}: run tools/setup.sh")
    return ROCM


def load_ir(lib):
    """The IR hipgen wrote for a library."""
    return json.loads((BINDINGS / f"{lib}.ir.json").read_text())


@pytest.fixture(scope="session")
def hip_python_api():
    """The public API of hip-python 6.4.3 (tools/hip_python_api.py)."""
    return json.loads((REPO / "tests" / "fixtures" / "hip_python_6.4.3.json").read_text())
