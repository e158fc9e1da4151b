"""Writes the public API of an installed rocm-llvm-python as JSON: the reference the parity
test of our rocm-llvm-python compares against.

    pip download --no-deps rocm-llvm-python==6.4.3.555.43    # install it in its own venv
    <that venv>/bin/python tools/rocm_llvm_python_api.py > tests/fixtures/rocm_llvm_python_6.4.3.json
"""

import enum
import importlib
import inspect
import json
import pkgutil
import sys


def describe(module):
    out = {"functions": [], "enums": {}, "classes": [], "constants": []}
    for name in sorted(dir(module)):
        if name.startswith("_") or name in ("ctypes", "enum", "ext", "os", "sys"):
            continue
        obj = getattr(module, name)
        if inspect.ismodule(obj):
            continue
        if inspect.isclass(obj) and issubclass(obj, enum.Enum):
            out["enums"][name] = {m.name: int(m.value) for m in obj}
        elif inspect.isclass(obj):
            out["classes"].append(name)
        elif callable(obj):
            out["functions"].append(name)
        else:
            out["constants"].append(name)
    return out


if __name__ == "__main__":
    import rocm.llvm.c

    names = ["rocm.amd_comgr.amd_comgr"] + sorted(
        f"rocm.llvm.c.{m.name}"
        for m in pkgutil.iter_modules(rocm.llvm.c.__path__)
        if not (m.name.startswith("c") and m.name not in ("core", "comdat")) and m.name != "transforms"
    )
    api = {n: describe(importlib.import_module(n)) for n in names}
    json.dump(api, sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")
