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
    python tools/manifest.py [--bindings DIR] alias-modules --package P
        an alias package's modules (hip-python-as-cuda's), one per line: what a build selects
        it by, its name, its legacy name or -
    python tools/manifest.py choose KNOWN SPEC
        SPEC among the comma-separated names KNOWN, as `select` reads it (no manifest)
    python tools/manifest.py shipped                 the releases the wheels carry, newest first
    python tools/manifest.py runtimes                the shipped releases with a runtime root
    python tools/manifest.py installed               the shipped release of the HIP runtime
        the system loader finds (of its major version), or an empty line
    python tools/manifest.py --bindings DIR runtime  its runtime root's Debian suite, then its
        packages (tools/rocm-root.sh)
    python tools/manifest.py catalog --version V [--suffix .abi3.so] LIBS=FOLDER...
        hip-python's `_releases.json`: for each release folder (the first is the default's),
        the modules of the selected libraries LIBS, its extension and how its HIP runtime is
        found and asked its version

    python tools/manifest.py version-sets --package P [--releases LIST] LIBS
        for each library of LIBS whose bindings are of a version of its own (LLVM's major,
        comgr's interface): `library version folder`, one line per version, the default
        release's first, then the newest release of each other version (LIST: the releases
        to take them from, comma-separated, `all` (default) or `none`)
    python tools/manifest.py version-catalog --package P --version V [--suffix S]
            [--releases LIST] LIBS
        rocm-llvm-python's `_bindings.json`: per library of those, its modules and the
        extension of each version's bindings (rocm/_select.py chooses among them)

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
    path = own_folder(folder) / "manifest.json"
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
    use, in the manifest's order; on NVIDIA, without those that have no NVIDIA form. An
    excluded library takes those that use it along (`^hipblas` leaves hipBLASLt out too).
    Raises ValueError naming an unknown library."""
    chosen = set(choose([lib["name"] for lib in libraries(manifest, package)], spec))
    by_name = {lib["name"]: lib for lib in manifest["libraries"]}
    if spec.startswith("^"):
        excluded = {lib["name"] for lib in manifest["libraries"]} - chosen
        while True:
            users = {n for n in chosen if excluded & set(by_name[n]["needs"])}
            if not users:
                break
            chosen -= users
            excluded |= users
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


def alias_modules(manifest: dict, package: str) -> list[dict]:
    """The Python modules of an alias package (its spec's `python_modules`), in order."""
    return [m for lib in libraries(manifest, package) for m in lib.get("python_modules", ())]


def shipped() -> list[Path]:
    """The checked-in release folders the wheels carry, newest first."""
    manifests = {p: load(p) for p in BINDINGS.glob("rocm-*") if (p / "manifest.json").exists()}
    carried = [(m, p) for p, m in manifests.items() if m.get("ship") or m["default"]]
    carried.sort(key=lambda mp: [int(x) for x in mp[0]["release"].split(".")], reverse=True)
    return [p for _, p in carried]


def installed() -> str | None:
    """The shipped release of the HIP runtime this machine's loader finds (its major version's),
    probed the way each release's `loads` says (`hip._select` chooses so at run time)."""
    import ctypes

    releases = [load(p) for p in shipped()]
    for manifest in releases:
        hip = next((lib for lib in manifest["libraries"] if lib["name"] == "hip"), None)
        probe = (hip or {}).get("loads") or {}
        for name in probe.get("sonames", []):
            try:
                lib = ctypes.CDLL(name)
            except OSError:
                continue
            symbol, divisor = probe["version"]
            out = ctypes.c_int(0)
            if getattr(lib, symbol)(ctypes.byref(out)) != 0 or out.value <= 0:
                continue
            major = str(out.value // divisor)
            return next((m["release"] for m in releases if m["release"].split(".")[0] == major), None)
    return None


def catalog(version: str, builds: list[tuple[str, Path]], suffix: str = ".abi3.so") -> dict:
    """hip-python's `_releases.json` for `(selected libraries, folder)` pairs, the default
    release's first: what `hip._select` chooses among."""
    releases = []
    for i, (libs, folder) in enumerate(builds):
        manifest = load(folder)
        major = manifest["release"].split(".")[0]
        hip = next((lib for lib in manifest["libraries"] if lib["name"] == "hip"), None)
        releases.append(
            {
                "release": manifest["release"],
                "default": i == 0,
                # The extension's init function is `_native`'s; the file of another release
                # is named apart, as maturin leaves out files named like its own extension.
                "module": "hip._native" if i == 0 else f"hip._rocm{major}._native",
                "file": None if i == 0 else f"_rocm{major}/_bindings{suffix}",
                "modules": [m.split(".", 1)[1] for m in python_modules(manifest, libs.split(","))],
                "probe": hip and hip["loads"],
            }
        )
    majors = [r["release"].split(".")[0] for r in releases]
    if len(set(majors)) != len(majors):
        raise ValueError(f"one release per major version: {[r['release'] for r in releases]}")
    releases.sort(key=lambda r: [int(x) for x in r["release"].split(".")], reverse=True)
    return {"version": version, "releases": releases}


def bindings_major(folder: Path, lib: dict) -> int | None:
    """The major version library `lib`'s bindings in `folder` are of: its header constant
    `loads.major_constant` (`LLVM_VERSION_MAJOR`), read from the IR of its modules."""
    import gzip

    constant = (lib.get("loads") or {}).get("major_constant")
    for module in lib["modules"] if constant else ():
        ir = json.loads(gzip.open(folder / f"{module['name']}.ir.json.gz").read())
        for c in ir["constants"]:
            if c["name"] == constant:
                return int(c["value"])
    return None


def own_folder(folder: Path | str | None = None) -> Path:
    """The release folder a build makes its extensions from: `folder`, else `$HIPGEN_BINDINGS`,
    else the default release's."""
    return Path(folder or os.environ.get("HIPGEN_BINDINGS") or default_folder())


def version_sets(package: str, libs: list[str], releases: str = "all") -> list[tuple[str, int, Path]]:
    """(library, version, release folder) of each version of the named libraries' bindings
    among the built release's and the shipped ones `releases` allows, the built one's first."""
    default = own_folder()
    allowed = [p for p in shipped() if releases == "all" or load(p)["release"] in releases.split(",")]
    folders = [default] + [p for p in allowed if p != default]
    found: dict[tuple[str, int], Path] = {}
    for folder in folders:
        for lib in libraries(load(folder), package):
            major = bindings_major(folder, lib) if lib["name"] in libs else None
            if major is not None:
                found.setdefault((lib["name"], major), folder)
    return [(name, major, folder) for (name, major), folder in found.items()]


def version_catalog(package: str, version: str, libs: list[str], releases: str, suffix: str) -> dict:
    """What rocm/_select.py chooses among: per library, its Python modules and each version's
    extension (the built release's is the package's own `_native`)."""
    default = own_folder()
    families: dict[str, dict] = {}
    for name, major, folder in version_sets(package, libs, releases):
        manifest = load(folder)
        lib = next(entry for entry in manifest["libraries"] if entry["name"] == name)
        family = families.setdefault(
            name, {"library": None, "modules": python_modules(manifest, [name]), "versions": []}
        )
        own = folder == default
        family["library"] = lib["loads"]["library"]
        family["versions"].append(
            {
                "version": major,
                "release": manifest["release"],
                "module": "rocm._native" if own else f"rocm._{name}{major}._native",
                "file": None if own else f"_{name}{major}/_bindings{suffix}",
            }
        )
    return {"version": version, "families": families}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--bindings", help="release folder (default: $HIPGEN_BINDINGS, else the default's)")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("default")
    sub.add_parser("packages")
    sub.add_parser("shipped")
    sub.add_parser("installed")
    sub.add_parser("runtimes")
    sub.add_parser("runtime")
    cat = sub.add_parser("catalog")
    cat.add_argument("--version", required=True)
    # The extension suffix of the interpreter built for (a free-threaded one cannot load abi3).
    cat.add_argument("--suffix", default=".abi3.so")
    cat.add_argument("builds", nargs="+", metavar="LIBS=FOLDER")
    sub.add_parser("alias-modules").add_argument("--package", required=True)
    for name in ("version-sets", "version-catalog"):
        p = sub.add_parser(name)
        p.add_argument("--package", required=True)
        p.add_argument("--releases", default="all")
        p.add_argument("libs")
        if name == "version-catalog":
            p.add_argument("--version", required=True)
            p.add_argument("--suffix", default=".abi3.so")
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
    if args.command == "installed":
        print(installed() or "")
        return 0
    if args.command == "shipped":
        print(" ".join(load(p)["release"] for p in shipped()))
        return 0
    if args.command == "runtimes":
        print(" ".join(m["release"] for m in map(load, shipped()) if m.get("runtime")))
        return 0
    if args.command == "catalog":
        builds = [(b.split("=", 1)[0], Path(b.split("=", 1)[1])) for b in args.builds]
        print(json.dumps(catalog(args.version, builds, args.suffix), indent=1))
        return 0
    if args.command == "version-sets":
        for name, major, folder in version_sets(args.package, args.libs.split(","), args.releases):
            print(name, major, folder)
        return 0
    if args.command == "version-catalog":
        libs = args.libs.split(",")
        found = version_catalog(args.package, args.version, libs, args.releases, args.suffix)
        print(json.dumps(found, indent=1))
        return 0
    if args.command == "choose":
        try:
            print(",".join(choose(args.known.split(","), args.spec)))
        except ValueError as e:
            print(e, file=sys.stderr)
            return 2
        return 0
    manifest = load(args.bindings)
    if args.command == "runtime":
        if not manifest.get("runtime"):
            print(f"ROCm {manifest['release']} has no runtime root in its release file", file=sys.stderr)
            return 2
        print(manifest["runtime"]["suite"])
        print(" ".join(manifest["runtime"]["packages"]))
    elif args.command == "packages":
        print(" ".join(dict.fromkeys(lib["package"] for lib in manifest["libraries"])))
    elif args.command == "alias-modules":
        for m in alias_modules(manifest, args.package):
            print(m["lib"], m["module"], m.get("legacy") or "-")
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
