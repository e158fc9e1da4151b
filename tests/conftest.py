"""Shared paths: the generated IR and the unpacked ROCm 6.4.3 packages (tools/setup.sh)."""

import json
import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
RELEASE = "6.4.3"
BINDINGS = REPO / "bindings" / f"rocm-{RELEASE}"
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
