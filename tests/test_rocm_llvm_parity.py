"""rocm-llvm-python's calling convention against AMD's 6.4.3: for every function of
`rocm.llvm.c.*` and `rocm.amd_comgr.amd_comgr`, the parameters a program passes and the number
of values it gets back are AMD's (`err, mod, msg = LLVMParseIRInContext(ctx, buf)`), read from
the `.pyx` of AMD's wheel (tools/rocm_llvm_python_signatures.py, the fixture) and compared with
our bindings of the same release (their stubs, which tests/test_stubs.py holds to the
extension) and with the installed extension's own signatures."""

import ast
import importlib
import inspect
import json

import pytest

from conftest import REPO

FIXTURE = json.loads((REPO / "tests/fixtures/rocm_llvm_python_6.4.3_signatures.json").read_text())
STUBS = REPO / "bindings/rocm-6.4.3/stubs"
#: Parameters that ROCm's fork of LLVM 19 adds to four DIBuilder functions (memory spaces), which
#: upstream LLVM 19's headers (Debian's llvm-19-dev, what we bind) do not have.
FORK_PARAMS = {"MS", "MemorySpace", "AddressSpace"}


def _shape(returns):
    """What a function gives back, as the fixture says it: "none", "value" or a tuple's length."""
    if returns is None or (isinstance(returns, ast.Constant) and returns.value is None):
        return "none"
    if isinstance(returns, ast.Subscript) and getattr(returns.value, "id", None) == "tuple":
        items = returns.slice
        return len(items.elts) if isinstance(items, ast.Tuple) else 1
    return "value"


def _stub_functions(module):
    """{name: (parameters, shape)} of the functions our stub of `module` declares."""
    tree = ast.parse((STUBS / (module.replace(".", "/") + ".pyi")).read_text())
    return {
        node.name: ([a.arg for a in node.args.args], _shape(node.returns))
        for node in tree.body
        if isinstance(node, ast.FunctionDef)
    }


def _upstream(params, ours):
    """AMD's parameters less those only ROCm's LLVM fork has (where ours lack them)."""
    return [p for p in params if p in ours or p not in FORK_PARAMS]


@pytest.mark.parametrize("module", sorted(FIXTURE))
def test_parameters_and_results_are_amds(module):
    ours = _stub_functions(module)
    theirs = FIXTURE[module]
    missing = sorted(set(theirs) - set(ours))
    assert not missing, f"{module} lacks {missing}"
    differ = {
        name: {"ours": ours[name], "amd": (t["params"], t["returns"])}
        for name, t in theirs.items()
        if ours[name] != (_upstream(t["params"], ours[name][0]), t["returns"])
    }
    assert not differ, f"{len(differ)} of {len(theirs)} functions differ from AMD's: {differ}"


def test_the_comparison_sees_outputs():
    # The rule the parity rests on, spelled out once: outputs are returned after the result.
    assert FIXTURE["rocm.llvm.c.irreader"]["LLVMParseIRInContext"] == {
        "params": ["ContextRef", "MemBuf"],
        "returns": 3,
    }
    assert _stub_functions("rocm.llvm.c.irreader")["LLVMParseIRInContext"] == (["ContextRef", "MemBuf"], 3)


@pytest.mark.parametrize("module", sorted(m for m in FIXTURE if m.startswith("rocm.llvm.c.")))
def test_installed_extension_has_amds_signatures(module):
    # The installed wheel (LLVM 19's headers, as AMD's 6.4.3) answers inspect.signature so.
    mod = importlib.import_module(module)
    differ = {}
    for name, t in FIXTURE[module].items():
        params = list(inspect.signature(getattr(mod, name)).parameters)
        if params != _upstream(t["params"], params):
            differ[name] = (params, t["params"])
    assert not differ, differ
