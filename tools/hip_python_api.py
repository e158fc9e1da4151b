"""Writes the public API of an installed hip-python as JSON: the reference our parity test
compares against.

    pip download --no-deps hip-python==6.4.3.555.40    # then install it in its own venv
    <that venv>/bin/python tools/hip_python_api.py > tests/fixtures/hip_python_6.4.3.json

Function parameters come from the signatures hip-python embeds in its docstrings.
"""

import enum
import importlib
import inspect
import json
import re
import sys

MODULES = ("hip", "hiprtc", "hipblas", "hipsparse", "rccl", "hiprand", "hipfft", "hipsolver", "roctx")


def params_of(fn):
    """Parameter names from the embedded signature (`name(a, b)` on the first doc line)."""
    first = (fn.__doc__ or "").splitlines()[0] if fn.__doc__ else ""
    m = re.match(r"\w+\((.*)\)", first)
    if not m:
        return None
    return [p.strip().split()[-1].split("=")[0] for p in m.group(1).split(",") if p.strip()]


def describe(module):
    out = {"functions": {}, "enums": {}, "classes": {}, "constants": []}
    for name in sorted(dir(module)):
        if name.startswith("_") or name in ("ctypes", "enum", "ext"):
            continue
        obj = getattr(module, name)
        if inspect.isclass(obj) and issubclass(obj, enum.Enum):
            out["enums"][name] = {m.name: int(m.value) for m in obj}
        elif inspect.isclass(obj):
            props = getattr(obj, "PROPERTIES", None)
            out["classes"][name] = props() if callable(props) else None
        elif callable(obj):
            out["functions"][name] = params_of(obj)
        else:
            out["constants"].append(name)
    return out


if __name__ == "__main__":
    api = {m: describe(importlib.import_module(f"hip.{m}")) for m in MODULES}
    json.dump(api, sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")
