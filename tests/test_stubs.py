"""The `.pyi` stubs: every public name of every module is in them, the generated functions'
parameters are the native functions' own, and a type checker accepts the examples and
rejects a wrong argument.

Run against the installed packages (the wheels carry the stubs beside the modules).
"""

import ast
import importlib
import importlib.metadata
import inspect
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import MANIFEST, manifest

ROOT = Path(__file__).resolve().parent.parent

HIP_MODULES = [lib["name"] for lib in manifest.libraries(MANIFEST, "hip-python")]
_ALIAS_MODULES = manifest.alias_modules(MANIFEST, "hip-python-as-cuda")
CUDA_MODULES = [m["module"] for m in _ALIAS_MODULES]
LEGACY_CUDA = {m["legacy"]: m["module"] for m in _ALIAS_MODULES if m.get("legacy")}


def _stub_path(module_name: str) -> Path:
    parts = module_name.split(".")
    top = importlib.import_module(parts[0])
    base = Path(next(iter(top.__path__)))
    path = base.joinpath(*parts[1:]).with_suffix(".pyi")
    if not path.exists():
        path = base.joinpath(*parts[1:], "__init__.pyi")
    return path


def _stub_names(module_name: str, seen: set | None = None) -> dict[str, ast.AST]:
    """Names a stub declares, with star imports of other stubs (or modules) followed."""
    seen = set() if seen is None else seen
    if module_name in seen:
        return {}
    seen.add(module_name)
    path = _stub_path(module_name)
    if not path.exists():
        # A hand-written module: its `__all__` (or public names) is what a star import gives.
        module = importlib.import_module(module_name)
        names = getattr(module, "__all__", [n for n in dir(module) if not n.startswith("_")])
        return {n: ast.Pass() for n in names}
    tree = ast.parse(path.read_text(), str(path))
    out: dict[str, ast.AST] = {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            out[node.name] = node
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            out[node.target.id] = node
        elif isinstance(node, ast.Assign):
            for t in node.targets:
                if isinstance(t, ast.Name):
                    out[t.id] = node
        elif isinstance(node, ast.ImportFrom):
            for alias in node.names:
                if alias.name == "*":
                    out.update(_stub_names(node.module, seen))
                elif alias.asname == alias.name:  # an explicit re-export
                    out[alias.name] = node
    return out


def _hip_module(name):
    hip = pytest.importorskip("hip")
    if not hasattr(hip, name):
        pytest.skip(f"hip.{name} is not in this build")
    return importlib.import_module(f"hip.{name}")


@pytest.mark.parametrize("name", HIP_MODULES)
def test_every_public_name_of_a_hip_module_is_in_its_stub(name):
    module = _hip_module(name)
    declared = _stub_names(module.__name__)
    public = {n for n in dir(module) if not n.startswith("_")}
    missing = sorted(public - set(declared))
    assert not missing, f"{module.__name__}: {len(missing)} names not in the stub: {missing[:20]}"
    # And nothing the stub promises is absent (a stub of another build or release).
    invented = sorted(n for n in declared if not n.startswith("_") and n not in public)
    assert not invented, f"{module.__name__}: the stub has names the module lacks: {invented[:20]}"


@pytest.mark.parametrize("name", HIP_MODULES)
def test_generated_functions_take_the_parameters_the_stub_names(name):
    module = _hip_module(name)
    declared = _stub_names(module.__name__)
    checked = 0
    for attr in dir(module):
        obj = getattr(module, attr)
        if attr.startswith("_") or not inspect.isbuiltin(obj):
            continue
        stub = declared[attr]
        assert isinstance(stub, ast.FunctionDef), attr
        native = list(inspect.signature(obj).parameters)
        assert [a.arg for a in stub.args.args] == native, attr
        checked += 1
    assert checked > 0


def _rocm_modules():
    rocm = pytest.importorskip("rocm")
    # Each module under its own name (AMD 10.0's `rocm.bindings.*` names are the same objects).
    names = [
        m
        for m, module in list(sys.modules.items())
        if m.startswith("rocm.") and hasattr(module, "_hipgen_library_") and module.__name__ == m
    ]
    assert rocm is not None
    return sorted(names)


def test_every_public_name_of_the_rocm_modules_is_in_their_stubs():
    pytest.importorskip("rocm.llvm.c")
    pytest.importorskip("rocm.amd_comgr")
    from rocm import _select

    modules = _rocm_modules()
    assert "rocm.amd_comgr.amd_comgr" in modules and "rocm.llvm.c.core" in modules
    for name in modules:
        # The stubs are those of the default release's bindings, which the package's own
        # extension holds (the bindings of other LLVM and comgr versions are chosen at run time).
        module = _select._defaults.get(name, sys.modules[name])
        declared = _stub_names(name)
        public = {n for n in dir(module) if not n.startswith("_")}
        missing = sorted(public - set(declared))
        assert not missing, f"{name}: not in the stub: {missing[:20]}"


def test_llvm_helpers_added_in_python_are_in_the_target_stub():
    target = pytest.importorskip("rocm.llvm.c.target")
    declared = _stub_names("rocm.llvm.c.target")
    assert callable(target.LLVMInitializeNativeTarget)
    assert isinstance(declared["LLVMInitializeNativeTarget"], ast.FunctionDef)


@pytest.mark.parametrize("name", CUDA_MODULES)
def test_every_name_of_a_cuda_module_is_in_its_stub(name):
    module = pytest.importorskip(name)
    declared = _stub_names(name)
    missing = sorted(set(module.__all__) - set(declared))
    assert not missing, f"{name}: {len(missing)} names not in the stub: {missing[:20]}"


@pytest.mark.parametrize("legacy", sorted(LEGACY_CUDA))
def test_legacy_cuda_modules_have_the_stubs_of_their_bindings_module(legacy):
    pytest.importorskip(legacy)
    assert set(_stub_names(legacy)) >= {n for n in _stub_names(LEGACY_CUDA[legacy]) if not n.startswith("_")}


def test_cuda_stub_results_have_cuda_pythons_length():
    """An adapted function's tuple is cuda-python's (status and each output)."""
    runtime = pytest.importorskip("cuda.bindings.runtime")
    declared = _stub_names("cuda.bindings.runtime")
    ret = ast.unparse(declared["cudaGetDeviceProperties"].returns)
    assert ret == "tuple[cudaError_t, Any]"
    # The nvrtc override returns the status first, as its stub says.
    err, text = runtime.nvrtcGetErrorString(runtime.nvrtcResult.NVRTC_SUCCESS)
    assert int(err) == 0 and isinstance(text, bytes)


def test_packages_are_marked_typed():
    for package in ("hip", "rocm", "cuda.bindings"):
        module = pytest.importorskip(package)
        assert (Path(next(iter(module.__path__))) / "py.typed").exists(), package


def test_every_module_has_the_package_version():
    hip = pytest.importorskip("hip")
    version = importlib.metadata.version("hip-python")
    assert hip.__version__ == version
    for name in HIP_MODULES:
        if hasattr(hip, name):
            assert getattr(hip, name).__version__ == version
            assert getattr(hip, name).__rocm_release__
    llvm = pytest.importorskip("rocm.llvm")
    assert llvm.__version__ == importlib.metadata.version("rocm-llvm-python")


def _mypy():
    exe = shutil.which("mypy", path=str(Path(sys.executable).parent))
    if exe is None:
        pytest.skip("mypy is not installed (tools/setup.sh installs it)")
    return exe


def test_type_checker_accepts_the_examples(tmp_path):
    pytest.importorskip("hip")
    pytest.importorskip("cuda.bindings.runtime")
    run = subprocess.run(
        [_mypy(), "--strict", "--cache-dir", str(tmp_path / "cache"), "examples"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, run.stdout + run.stderr


SAMPLE = """\
from hip import hip, hiprtc

err, ptr = hip.hipMalloc(1024)
reveal_type(err)
reveal_type(ptr)
props = hip.hipDeviceProp_t()
reveal_type(props.totalGlobalMem)
hip.hipFree(ptr)
hip.hipMalloc("1024")
hip.hipMemcpy(ptr, bytearray(16), 16, hip.hipMemcpyKind.hipMemcpyHostToDevice, 0)
status, prog = hiprtc.hiprtcCreateProgram(b"", b"k.hip", 0, None, None)
reveal_type(status)
reveal_type(prog)
"""


def test_type_checker_reports_wrong_arguments(tmp_path):
    pytest.importorskip("hip")
    sample = tmp_path / "sample.py"
    sample.write_text(SAMPLE)
    run = subprocess.run(
        [_mypy(), "--strict", "--cache-dir", str(tmp_path / "cache"), str(sample)],
        capture_output=True,
        text=True,
    )
    out = run.stdout
    assert run.returncode == 1, out
    assert 'Revealed type is "hip.hip.hipError_t"' in out
    assert 'Revealed type is "hip._native.DeviceArray"' in out
    assert 'sample.py:7: note: Revealed type is "int"' in out
    # A str where a size is wanted, and one argument too many.
    assert 'sample.py:9: error: Argument 1 to "hipMalloc" has incompatible type "str"' in out
    assert 'sample.py:10: error: Too many arguments for "hipMemcpy"' in out
    assert 'Revealed type is "hip.hiprtc.hiprtcResult"' in out
    assert 'Revealed type is "hip.hiprtc._hiprtcProgram"' in out
    assert out.count(": error:") == 2, out


def test_cuda_stubs_import_the_functions_the_layer_overrides():
    """The stubs' `cuda._nvrtc` functions are the ones `cuda._layer` takes from there."""
    pytest.importorskip("cuda.bindings.nvrtc")
    from cuda import _layer

    tree = ast.parse(_stub_path("cuda.bindings.nvrtc").read_text())
    imported = {
        f"{node.module}:{a.name}"
        for node in tree.body
        if isinstance(node, ast.ImportFrom)
        for a in node.names
    }
    overrides = {f"{module}:{name}" for name, module in _layer._OVERRIDES.items()}
    assert overrides <= imported, overrides - imported
