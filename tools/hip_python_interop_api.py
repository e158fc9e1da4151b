"""Writes tests/fixtures/hip_python_interop_6.4.3.json: the public names of hip-python-interop
6.4.3's CUDA modules and the HIP object each stands for, read from the `.pyx` sources its
wheel carries (`pip download --no-deps hip-python-interop==6.4.3.555.40`, unzip).

    python tools/hip_python_interop_api.py UNPACKED_WHEEL_DIR > tests/fixtures/hip_python_interop_6.4.3.json
"""

import json
import re
import sys
from pathlib import Path

MODULES = {
    "cuda.cuda": "cuda/cuda.pyx",
    "cuda.cudart": "cuda/cudart.pyx",
    "cuda.nvrtc": "cuda/nvrtc.pyx",
    "cuda.bindings.driver": "cuda/bindings/driver.pyx",
    "cuda.bindings.runtime": "cuda/bindings/runtime.pyx",
    "cuda.bindings.nvrtc": "cuda/bindings/nvrtc.pyx",
}


def targets(text: str) -> dict:
    """CUDA name → [kind, HIP name] from the module's definitions."""
    out = {}
    for cuda, hip in re.findall(r"^(\w+) = (?:hip|hiprtc)\.(\w+)$", text, re.M):
        out[cuda] = ["alias", hip]
    for cuda, hip in re.findall(r"^class (\w+)\((?:hip|hiprtc)\._(\w+)__Base,", text, re.M):
        out[cuda] = ["enum", hip]
    for cuda, hip in re.findall(r"^cdef class (\w+)\(hip\.(?:hip|hiprtc)\.(\w+)\)", text, re.M):
        out[cuda] = ["record", hip]
    return out


def main() -> None:
    root = Path(sys.argv[1])
    result = {}
    texts = {m: (root / p).read_text() for m, p in MODULES.items()}
    nvrtc_targets = targets(texts["cuda.nvrtc"])
    for module, text in texts.items():
        names = re.findall(r'"([^"]+)"', text[text.index("__all__ = [") :])
        known = {**nvrtc_targets, **targets(text)}
        result[module] = {n: known.get(n) for n in names if not n.startswith("_")}
    json.dump(result, sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
