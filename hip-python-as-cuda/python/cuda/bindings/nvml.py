"""cuda-python's `cuda.bindings.nvml`, NVIDIA's management library, has no counterpart here.

On ROCm it would stand over AMD's amd-smi (`libamd_smi.so`), which no Debian ROCm package
(5.2 to 7.2.4, experimental included) ships, so there is nothing to generate it from or test
it against. Importing it raises an ImportError that says so, rather than a bare
ModuleNotFoundError that would read as a broken install.
"""

raise ImportError(
    "cuda.bindings.nvml is not available in hip-python-as-cuda: it would stand over AMD's "
    "amd-smi library (libamd_smi.so), which these bindings do not cover; AMD's own "
    "`amdsmi` Python package (shipped with ROCm) queries the same device state",
    name="cuda.bindings.nvml",
)
