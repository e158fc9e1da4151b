"""amd_comgr, AMD's code object manager: `from rocm.amd_comgr import amd_comgr`."""

import rocm._native  # noqa: F401 - publishes rocm.amd_comgr.amd_comgr
from rocm._packages import attach

__all__ = attach(__name__)
