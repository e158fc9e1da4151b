"""Writes the functions of AMD's rocm-bindings wheels (10.0: HIP 7.15) as JSON, read from the
type stubs (.pyi) the wheels carry, without installing or importing them: the reference of
tests/test_parity_rocm_bindings.py.

    pip download --no-deps -d W rocm-bindings-hip==10.0.0.0.1.2 rocm-bindings-libraries==10.0.0.0.1.2 \
        rocm-bindings-systems==10.0.0.0.1.2 rocm-bindings-compiler==10.0.0.0.1.2
    python tools/rocm_bindings_api.py W/*.whl > tests/fixtures/rocm_bindings_10.0.json

Output: {"version": ..., "modules": {"hip": {"hipMalloc": ["size"], ...}, "llvm.c.core": {...}}}.
"""

import ast
import json
import re
import sys
import zipfile

PREFIX = "rocm/bindings/"
# Helpers of the bindings themselves, not a library's API.
SKIP = re.compile(r"(^|/)(_[^/]*|util/.*|__init__)\.pyi$")


def functions(source):
    """Top-level functions of a stub and their parameter names; has_symbol is the module's own."""
    out = {}
    for node in ast.parse(source).body:
        if isinstance(node, ast.FunctionDef) and node.name != "has_symbol":
            out[node.name] = [a.arg for a in node.args.args]
    return out


def main(wheels):
    modules, version = {}, None
    for wheel in wheels:
        version = version or wheel.rsplit("/", 1)[-1].split("-")[1]
        with zipfile.ZipFile(wheel) as zf:
            for name in zf.namelist():
                if name.startswith(PREFIX) and name.endswith(".pyi") and not SKIP.search(name):
                    module = name[len(PREFIX) : -len(".pyi")].replace("/", ".")
                    modules[module] = functions(zf.read(name).decode())
    json.dump({"version": version, "modules": modules}, sys.stdout, indent=0, sort_keys=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main(sys.argv[1:])
