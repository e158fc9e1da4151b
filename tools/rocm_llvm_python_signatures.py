"""Writes, as JSON, the Python calling convention of AMD's rocm-llvm-python: for every public
module-level ``def`` of its Python-level Cython modules, the parameter names, their defaults and
the shape of what it returns. The reference for our rocm-llvm-python's signatures.

    pip download --no-deps rocm-llvm-python==6.4.3.555.43 && unzip the wheel into DIR
    python3 tools/rocm_llvm_python_signatures.py DIR > tests/fixtures/rocm_llvm_python_6.4.3_signatures.json

DIR is the unpacked wheel (any directory holding the ``rocm`` package; rocm-bindings-compiler's
``rocm/bindings`` layout works too). Only the ``.pyx`` sources the wheel ships are read, nothing is
imported. The C-level twin modules (``cX.pyx`` / ``cyX.pyx`` next to ``X.pyx``) are skipped.

Output: {module: {function: {"params": [...], "defaults": {name: repr}, "returns": N}}} where N is
the number of items of the returned tuple, "value" for a single non-tuple value, "none" when the
function returns nothing.
"""

import ast
import json
import re
import sys
from pathlib import Path

DEF_RE = re.compile(r"^(?:async\s+)?def\s+([A-Za-z_]\w*)\s*\(")
# Cython casts such as `<char *>`, `<cycore.LLVMValueRef*>`, `<void*>`.
CAST_RE = re.compile(r"<\s*(?:const\s+)?[A-Za-z_][\w.]*(?:\s+[A-Za-z_][\w.]*)*\s*\**\s*>")
TRIPLE_RE = re.compile(r'[rRbBuU]{0,2}("""|\'\'\')')


def module_files(root: Path):
    """(module name, path) of each Python-level .pyx module under root."""
    for pyx in sorted(root.rglob("*.pyx")):
        stem = pyx.stem
        twin = None
        for prefix in ("cy", "c"):
            if stem.startswith(prefix) and (pyx.parent / f"{stem[len(prefix) :]}.pyx").exists():
                twin = prefix
                break
        if twin:
            continue
        # Relative to root's parent, so that passing the `rocm` directory itself works too.
        parts = pyx.resolve().relative_to(root.resolve().parent).with_suffix("").parts
        if "rocm" in parts:
            parts = parts[parts.index("rocm") :]
        yield ".".join(parts), pyx


def split_top_level(text: str, sep: str = ","):
    """Split on `sep` outside of (), [], {} and string literals."""
    out, depth, cur, quote = [], 0, [], None
    for ch in text:
        if quote:
            cur.append(ch)
            if ch == quote:
                quote = None
            continue
        if ch in "\"'":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == sep and depth == 0:
            out.append("".join(cur))
            cur = []
            continue
        cur.append(ch)
    if "".join(cur).strip():
        out.append("".join(cur))
    return out


def header_end(lines, start):
    """Index of the line closing the def header that starts at `start` (balanced parentheses)."""
    depth = 0
    for i in range(start, len(lines)):
        depth += lines[i].count("(") - lines[i].count(")")
        if depth <= 0 and lines[i].rstrip().endswith(":"):
            return i
    raise ValueError(f"unterminated def at line {start + 1}")


def parse_params(header: str):
    """(names, defaults) of a def header; Python syntax via ast, cdef-typed parameters by regex."""
    try:
        fn = ast.parse(header + "\n    pass\n").body[0]
    except SyntaxError:
        fn = None
    if isinstance(fn, ast.FunctionDef):
        a = fn.args
        positional = a.posonlyargs + a.args
        names = [p.arg for p in positional]
        defaults = {
            p.arg: ast.unparse(d)
            for p, d in zip(positional[len(positional) - len(a.defaults) :], a.defaults, strict=True)
        }
        if a.vararg:
            names.append("*" + a.vararg.arg)
        for p, d in zip(a.kwonlyargs, a.kw_defaults, strict=True):
            names.append(p.arg)
            if d is not None:
                defaults[p.arg] = ast.unparse(d)
        if a.kwarg:
            names.append("**" + a.kwarg.arg)
        return names, defaults
    inner = header[header.index("(") + 1 : header.rindex(")")]
    names, defaults = [], {}
    for raw in split_top_level(inner):
        decl, _, default = raw.partition("=")
        decl = re.sub(r"\b(?:not|or)\s+None\b", "", decl).strip()
        if decl in ("*", "/"):
            continue
        m = re.search(r"(\*{0,2})\s*([A-Za-z_]\w*)\s*(?:\[[^\]]*\])?\s*$", decl)
        if not m:
            raise ValueError(f"cannot parse parameter {raw!r} in {header!r}")
        name = m.group(2)
        star = m.group(1) if decl.lstrip().startswith("*") else ""
        names.append(star + name)
        if default.strip():
            defaults[name] = default.strip()
    return names, defaults


def return_shape(expr: str):
    """Shape of one return expression: "none", "value" or the tuple length."""
    expr = expr.strip()
    if not expr or expr == "None":
        return "none"
    for candidate in (expr, CAST_RE.sub("", expr)):
        try:
            node = ast.parse(candidate, mode="eval").body
        except SyntaxError:
            continue
        if isinstance(node, ast.Tuple):
            return len(node.elts)
        if isinstance(node, ast.Constant) and node.value is None:
            return "none"
        return "value"
    # Last resort: a parenthesised expression with top-level commas is a tuple.
    if expr.startswith("(") and expr.endswith(")"):
        items = split_top_level(expr[1:-1])
        if len(items) > 1 or expr[1:-1].rstrip().endswith(","):
            return len(items)
    items = split_top_level(expr)
    return len(items) if len(items) > 1 else "value"


def strip_docstring(body_lines):
    """Body lines with the leading docstring removed (it may hold `return` in its text)."""
    text = "\n".join(body_lines)
    m = re.match(r"\s*" + TRIPLE_RE.pattern, text)
    if not m:
        return body_lines
    end = text.find(m.group(1), m.end())
    return text[end + 3 :].split("\n") if end >= 0 else body_lines


def return_statements(body_lines):
    """The expressions of the body's return statements, joining continuation lines."""
    lines = strip_docstring(body_lines)
    exprs = []
    i = 0
    while i < len(lines):
        m = re.match(r"^\s+return\b(.*)$", lines[i])
        if not m:
            i += 1
            continue
        expr = m.group(1)
        while (
            expr.count("(") + expr.count("[") + expr.count("{")
            > expr.count(")") + expr.count("]") + expr.count("}")
            or expr.rstrip().endswith("\\")
        ) and i + 1 < len(lines):
            i += 1
            expr = expr.rstrip().rstrip("\\") + " " + lines[i].strip()
        exprs.append(expr)
        i += 1
    return exprs


def functions_of(path: Path):
    lines = path.read_text(encoding="utf-8").split("\n")
    out = {}
    i = 0
    while i < len(lines):
        m = DEF_RE.match(lines[i])
        if not m:
            i += 1
            continue
        name = m.group(1)
        end = header_end(lines, i)
        header = " ".join(line.strip() for line in lines[i : end + 1])
        body = []
        j = end + 1
        while j < len(lines):
            line = lines[j]
            if line.strip() and not line[0].isspace() and not line.lstrip().startswith("#"):
                break
            body.append(line)
            j += 1
        i = j
        if name.startswith("_"):
            continue
        params, defaults = parse_params(header)
        shapes = [return_shape(e) for e in return_statements(body)]
        # Falling off the end returns None; a function whose returns disagree reports the last one.
        entry = {"params": params}
        if defaults:
            entry["defaults"] = defaults
        entry["returns"] = shapes[-1] if shapes else "none"
        distinct = sorted({str(s) for s in shapes})
        if len(distinct) > 1:
            entry["returns_all"] = distinct
        out[name] = entry
    return out


def main(argv):
    if len(argv) != 2:
        sys.exit(f"usage: {argv[0]} UNPACKED_WHEEL_DIR")
    root = Path(argv[1])
    if not root.is_dir():
        sys.exit(f"{root}: not a directory")
    result = {}
    for module, path in module_files(root):
        fns = functions_of(path)
        if fns:
            result[module] = fns
    json.dump(result, sys.stdout, sort_keys=True, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main(sys.argv)
