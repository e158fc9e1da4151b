"""Reads a release's manifest (`bindings/rocm-<release>/manifest.json`, written by
`hipgen generate`): the one list of libraries, their packages and order that build_pkgs.sh,
tools/test.sh, the tests and the benches use. Standard library only.

    python tools/manifest.py default                 the release of the checked-in bindings
    python tools/manifest.py [--bindings DIR] packages   the packages it has modules for
    python tools/manifest.py [--bindings DIR] libs --package P [--platform nvidia]
    python tools/manifest.py [--bindings DIR] select --package P [--platform nvidia] SPEC
        SPEC 'a,b' includes, '^a,b' excludes; prints the libraries in the manifest's order
        with those they use; unknown names exit 2
    python tools/manifest.py [--bindings DIR] modules --package P LIBS
        the Python modules of those libraries (`hip.hipblas`), one per line
    python tools/manifest.py choose KNOWN SPEC
        SPEC among the comma-separated names KNOWN, as `select` reads it (no manifest)

DIR defaults to `$HIPGEN_BINDINGS`, else the checked-in folder whose manifest says default.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
BINDINGS = REPO / "bindings"


def default_folder() -> Path:
    """The checked-in release folder whose manifest says it is the default."""
    found = [
        p
        for p in sorted(BINDINGS.glob("rocm-*"))
        if (p / "manifest.json").exists() and json.loads((p / "manifest.json").read_text())["default"]
    ]
    if len(found) != 1:
        raise SystemExit(f"{BINDINGS}: {len(found)} release folders say default; regenerate them")
    return found[0]


def load(folder: Path | str | None = None) -> dict:
    """The manifest of `folder` (default: `$HIPGEN_BINDINGS`, else the default release's)."""
    folder = Path(folder or os.environ.get("HIPGEN_BINDINGS") or default_folder())
    path = folder / "manifest.json"
    if not path.exists():
        raise SystemExit(f"{path} does not exist: generate the release with hipgen generate")
    return json.loads(path.read_text())


def libraries(manifest: dict, package: str | None = None, platform: str = "amd") -> list[dict]:
    """The libraries of `package` (all if None) that run on `platform`, in order."""
    return [
        lib
        for lib in manifest["libraries"]
        if (package is None or lib["package"] == package) and (platform == "amd" or lib["nvidia"])
    ]


def choose(known: list[str], spec: str) -> list[str]:
    """The names of an include ('a,b') or exclude ('^a,b') list among `known`, in its order.
    Raises ValueError naming an unknown name."""
    names = [n for n in spec.lstrip("^").split(",") if n]
    for name in names:
        if name not in known:
            raise ValueError(f"unknown library '{name}' (known: {','.join(known)})")
    return [n for n in known if (n in names) != spec.startswith("^")]


def select(manifest: dict, package: str, spec: str, platform: str = "amd") -> list[str]:
    """Library names of an include ('a,b') or exclude ('^a,b') list, with the libraries those
    use, in the manifest's order; on NVIDIA, without those that have no NVIDIA form. Raises
    ValueError naming an unknown library."""
    chosen = set(choose([lib["name"] for lib in libraries(manifest, package)], spec))
    by_name = {lib["name"]: lib for lib in manifest["libraries"]}
    todo = list(chosen)
    while todo:
        for need in by_name[todo.pop()]["needs"]:
            if need not in chosen:
                chosen.add(need)
                todo.append(need)
    runs = [lib["name"] for lib in libraries(manifest, package, platform)]
    return [n for n in runs if n in chosen]


def python_modules(manifest: dict, names: list[str]) -> list[str]:
    """The Python modules of the named libraries."""
    return [
        m["python_module"]
        for lib in manifest["libraries"]
        if lib["name"] in names
        for m in lib["modules"]
        if m["python_module"]
    ]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--bindings", help="release folder (default: $HIPGEN_BINDINGS, else the default's)")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("default")
    sub.add_parser("packages")
    pick = sub.add_parser("choose")
    pick.add_argument("known")
    pick.add_argument("spec")
    for name in ("libs", "select", "modules"):
        p = sub.add_parser(name)
        p.add_argument("--package", required=True)
        p.add_argument("--platform", default="amd", choices=["amd", "nvidia"])
        if name != "libs":
            p.add_argument("spec")
    args = parser.parse_args(argv)
    if args.command == "default":
        print(load(default_folder())["release"])
        return 0
    if args.command == "choose":
        try:
            print(",".join(choose(args.known.split(","), args.spec)))
        except ValueError as e:
            print(e, file=sys.stderr)
            return 2
        return 0
    manifest = load(args.bindings)
    if args.command == "packages":
        print(" ".join(dict.fromkeys(lib["package"] for lib in manifest["libraries"])))
    elif args.command == "libs":
        print(",".join(lib["name"] for lib in libraries(manifest, args.package, args.platform)))
    elif args.command == "select":
        try:
            print(",".join(select(manifest, args.package, args.spec, args.platform)))
        except ValueError as e:
            print(e, file=sys.stderr)
            return 2
    else:
        print("\n".join(python_modules(manifest, args.spec.split(","))))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
