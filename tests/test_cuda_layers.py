"""The cuda package's hand-written Python is layered: no module imports, directly or through
others, one that imports it (function-level imports and `importlib` calls with `cuda.`
names count), so each layer can be read and tested below the ones above it."""

import ast
from pathlib import Path

from conftest import REPO

PACKAGE = REPO / "hip-python-as-cuda" / "python" / "cuda"


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path, modules: set[str]) -> set[str]:
    """The package modules `path` imports anywhere in its code."""
    name = _module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()

    def add(target: str):
        # `cuda.bindings.{module}` (an f-string) stands for every module under that prefix.
        found.update(m for m in modules if m == target or (target.endswith(".") and m.startswith(target)))

    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{anchor}.{base}" if base else anchor
            add(base)
            for alias in node.names:
                add(f"{base}.{alias.name}")
        elif isinstance(node, ast.Import):
            for alias in node.names:
                add(alias.name)
        elif isinstance(node, ast.Call) and node.args and getattr(node.func, "attr", "") == "import_module":
            arg = node.args[0]
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                add(arg.value)
            elif isinstance(arg, ast.JoinedStr) and arg.values and isinstance(arg.values[0], ast.Constant):
                add(str(arg.values[0].value))
    found.discard(name)
    return found


def _graph() -> dict[str, set[str]]:
    paths = sorted(PACKAGE.rglob("*.py"))
    modules = {_module_name(p) for p in paths}
    return {_module_name(p): _imports(p, modules) for p in paths}


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node):
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt) :] + [nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (found := visit(node)):
            return found
    return None


def test_the_cuda_package_has_no_import_cycle():
    graph = _graph()
    assert "cuda._layer" in graph and "cuda._plan" in graph
    assert _cycle(graph) is None, " -> ".join(_cycle(graph))


def test_the_layers_stand_in_order():
    graph = _graph()
    # The plan reads only the generated tables; the layer is imported by the module files alone.
    assert graph["cuda._plan"] <= {"cuda._native"}
    assert {m for m, deps in graph.items() if "cuda._layer" in deps} <= {
        m for m in graph if m.startswith("cuda.bindings") or m in ("cuda.cuda", "cuda.cudart", "cuda.nvrtc")
    }


def test_the_cycle_finder_finds_a_function_level_cycle(tmp_path):
    # What the package had before the plan moved below the layer: _layer imports _conventions
    # at the top, _conventions imports _layer inside a function.
    a = tmp_path / "a.py"
    a.write_text("from . import b\n")
    b = tmp_path / "b.py"
    b.write_text("def f():\n    from . import a\n")
    modules = {"cuda.a", "cuda.b"}
    global PACKAGE
    saved, PACKAGE = PACKAGE, tmp_path / "cuda"
    try:
        PACKAGE.mkdir()
        for p in (a, b):
            (PACKAGE / p.name).write_text(p.read_text())
        graph = {m: _imports(PACKAGE / f"{m[5:]}.py", modules) for m in modules}
    finally:
        PACKAGE = saved
    assert _cycle(graph) in (["cuda.a", "cuda.b", "cuda.a"], ["cuda.b", "cuda.a", "cuda.b"])
