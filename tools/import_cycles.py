"""Fails when modules import each other in a circle: the generator's and the runtime's Rust
modules (each crate's hand-written `src/`), and the Python packages' modules.

Rust: a file's module refers to another through `crate::a::b` or `super::` paths (its unit
tests not counted: they make their inputs with the stages before). A module
using its own parent's or child's items is containment, not a layer, and is not counted (the
parent declares the child; the child may use what the parent defines).

Python: every `import` a module runs, at the top or inside a function, except those under
`if TYPE_CHECKING:` (annotations only). A module importing its own package is containment
(Python imports the package first anyway) and is not counted either.

Run from anywhere: `python tools/import_cycles.py` prints each circle, with the names that tie
it, and exits 1 if there is one.
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: The hand-written Rust crates (generated modules are included by `bindings/src/lib.rs`).
RUST_SOURCES = [
    "generator/src",
    "runtime/src",
    "bindings/src",
    "hip-python/src",
    "hip-python-as-cuda/src",
    "rocm-llvm-python/src",
    "package-version/src",
]
#: The folders the Python packages' import roots are in.
PYTHON_ROOTS = ["hip-python/python", "hip-python-as-cuda/python", "rocm-llvm-python/python"]

RUST_PATH = re.compile(r"\b(crate|super)((?:::\w+)+)")


def rust_modules(src: Path) -> dict[tuple[str, ...], Path]:
    """Module path → file, for one crate's `src/`."""
    modules = {}
    for path in src.rglob("*.rs"):
        parts = path.relative_to(src).with_suffix("").parts
        if parts in (("lib",), ("main",)):
            parts = ()
        elif parts[-1] == "mod":
            parts = parts[:-1]
        modules[tuple(parts)] = path
    return modules


def _code(text: str) -> str:
    """Rust source without its test module (last in a file: tests build their inputs with the
    stages before), comments and string literals (which name paths in prose)."""
    text = text.split("#[cfg(test)]\nmod tests", 1)[0]
    text = re.sub(r"//[^\n]*", "", text)
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return re.sub(r'"(?:\\.|[^"\\])*"', '""', text)


def rust_edges(crate: str, src: Path) -> dict[str, dict[str, set[str]]]:
    """`{module: {module it uses: {the names}}}` of one crate, modules named `crate::a::b`."""
    modules = rust_modules(src)
    edges: dict[str, dict[str, set[str]]] = {}
    for module, path in modules.items():
        is_dir_module = path.stem in ("mod", "lib", "main")
        here = module if is_dir_module else module[:-1]
        for root, rest in RUST_PATH.findall(_code(path.read_text())):
            names = rest.strip(":").split("::")
            base = () if root == "crate" else here[:-1]
            while names and names[0] == "super":
                names, base = names[1:], base[:-1]
            target = base + tuple(names)
            while target not in modules:
                target = target[:-1]
            if _related(module, target):
                continue
            label = lambda m: "::".join((crate,) + m)  # noqa: E731
            edges.setdefault(label(module), {}).setdefault(label(target), set()).add(names[-1])
    return edges


def _related(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    """Whether one of two modules contains the other (or they are the same)."""
    n = min(len(a), len(b))
    return a[:n] == b[:n]


def python_modules() -> dict[str, Path]:
    """Dotted module name → file, over the packages' import roots."""
    modules = {}
    for root in PYTHON_ROOTS:
        base = ROOT / root
        for path in base.rglob("*.py"):
            parts = path.relative_to(base).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            modules[".".join(parts)] = path
    return modules


def _imports(tree: ast.AST):
    """The import statements a module runs (not those under `if TYPE_CHECKING:`)."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            yield from (n for child in node.orelse for n in _imports_in(child))
            continue
        yield from _imports_in(node)


def _imports_in(node: ast.AST):
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        yield node
    else:
        yield from _imports(node)


def python_edges() -> dict[str, dict[str, set[str]]]:
    """`{module: {module it imports: {the names}}}` among the packages' own modules."""
    modules = python_modules()
    edges: dict[str, dict[str, set[str]]] = {}
    for name, path in modules.items():
        package = name if path.stem == "__init__" else name.rpartition(".")[0]
        for node in _imports(ast.parse(path.read_text(), str(path))):
            for target, imported in _targets(node, package, modules):
                if target == name or _contains(target, name) or target not in modules:
                    continue
                edges.setdefault(name, {}).setdefault(target, set()).add(imported)
    return edges


def _targets(node, package: str, modules: dict[str, Path]):
    """(module, name) pairs one import statement reaches."""
    if isinstance(node, ast.Import):
        for alias in node.names:
            yield _existing(alias.name, modules), alias.name
        return
    base = node.module or ""
    if node.level:
        up = package.split(".")[: len(package.split(".")) - node.level + 1]
        base = ".".join(up + ([base] if base else []))
    for alias in node.names:
        sub = f"{base}.{alias.name}"
        yield (sub if sub in modules else _existing(base, modules)), alias.name


def _existing(name: str, modules: dict[str, Path]) -> str:
    """The innermost module of ours that `name` is or is inside of."""
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name


def _contains(package: str, module: str) -> bool:
    return module.startswith(package + ".")


def circles(edges: dict[str, dict[str, set[str]]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in edges.get(v, {}):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in list(edges):
        if v not in index:
            visit(v)
    return found


def main() -> int:
    sys.setrecursionlimit(10000)
    edges: dict[str, dict[str, set[str]]] = python_edges()
    for src in RUST_SOURCES:
        crate = Path(src).parent.name.replace("-", "_")
        edges.update(rust_edges(crate, ROOT / src))
    found = circles(edges)
    for group in found:
        print(f"import circle of {len(group)} modules:")
        for a in group:
            for b, names in sorted(edges.get(a, {}).items()):
                if b in group:
                    print(f"  {a} -> {b}: {', '.join(sorted(names))}")
    if not found:
        print(f"no import circle among {len(edges)} modules that import others of ours")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
