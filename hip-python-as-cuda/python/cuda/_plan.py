"""The plan the cuda package follows, as hipgen wrote it: cuda-python's conventions for each
cuda-bindings major version (`hip._native.cuda_conventions`, the plan the hip extension's
adapters were compiled from) and HIPIFY's CUDA → HIP names (`cuda._native`). The bottom of
the package: it imports none of its modules but the generated tables.
"""

from __future__ import annotations

import json
import os

from . import _native

#: CUDA name → (HIP module, HIP name, kind), per HIP module.
_NAMES: dict[str, dict[str, tuple[str, str, str]]] = {}
#: (HIP module, HIP enum) → [(CUDA member, HIP member)].
_MEMBERS: dict[tuple[str, str], list[tuple[str, str]]] = {}


#: Environment variable selecting the cuda-bindings major version whose signatures apply.
API_VARIABLE = "HIP_PYTHON_CUDA_API"
DEFAULT_API = "13"

_TABLES: dict[str, _Tables] = {}


def api_version() -> str:
    """The cuda-bindings major version whose signatures the CUDA modules follow."""
    value = os.environ.get(API_VARIABLE, DEFAULT_API).strip()
    known = _native.api_versions()
    if value not in known:
        raise ValueError(f"environment variable {API_VARIABLE}={value!r}: must be one of {', '.join(known)}")
    return value


class _Tables:
    """One API version's tables, indexed by CUDA name."""

    def __init__(self, version: str):
        # The plan of the release whose adapters the hip extension holds (hip-python carries
        # one per ROCm major and loads the one of the runtime), else this package's own.
        from hip import _native as hip_native

        text = getattr(hip_native, "cuda_conventions", lambda v: None)(version)
        data = json.loads(text if text is not None else _native.conventions(version))
        self.version = version
        #: `CUDA_VERSION` of the headers the plan was read from (`13050`), if recorded.
        self.cuda_version = data.get("cuda_version")
        #: The bit marking an enum value as CUDA's own member, which the NVIDIA shims pass on
        #: as that member (`cuda_member_tag`; none in plans written before it).
        self.cuda_member_tag = data.get("cuda_member_tag")
        self.adapted = {a["cuda"]: a for a in data["adapted"]}
        self.stubs = {s["cuda"]: s for s in data["stubs"]}
        self.wrappers = {w["name"]: w for w in data["wrappers"]}
        self.not_supported = data["not_supported"]
        self.attribute_types = data.get("attribute_types", {})
        types = data["types"]
        self.enums = {e["name"]: e for e in types["enums"]}
        self.handles = {h["name"]: h for h in types["handles"]}
        self.handle_constants = {c["name"]: c for c in types["handle_constants"]}
        self.constants = {c["name"]: c for c in types.get("constants", ())}
        self.records = {r["name"]: r for r in types["records"]}
        #: Records HIP's class of which lacks field names of CUDA's: CUDA's layout here.
        self.reshaped = types.get("reshaped", {})
        # cuda-python names a record by its tag too (`CUmemDecompressParams_st`).
        self.record_names = {r["name"]: r for r in types["records"] if not r.get("anonymous")}
        self.record_names.update({r["tag"]: r for r in types["records"] if r.get("tag")})
        self.record_names.update({a: r for r in types["records"] for a in r.get("aliases", ())})

    def names(self, module: str) -> list[str]:
        """The names this version adds to cuda-python module `module`."""
        out = [n for n, s in self.stubs.items() if s["module"] == module]
        if module == "driver":
            out += [n for n in self.wrappers if not n.startswith("cuda")]
        elif module == "runtime":
            out += [n for n in self.wrappers if n.startswith("cuda")]
        for table in (self.enums, self.handles, self.handle_constants, self.record_names, self.constants):
            out += [n for n, e in table.items() if e["module"] == module]
        return out


def tables() -> _Tables:
    version = api_version()
    t = _TABLES.get(version)
    if t is None:
        t = _TABLES[version] = _Tables(version)
    return t


def names(hip_module: str) -> dict[str, tuple[str, str, str]]:
    names = _NAMES.get(hip_module)
    if names is None:
        names = {c: (hip_module, h, k) for c, h, k in _native.names(hip_module)}
        for hip_enum, pairs in _native.members(hip_module).items():
            _MEMBERS[(hip_module, hip_enum)] = pairs
        _NAMES[hip_module] = names
    return names


def members(hip_module: str, hip_enum: str) -> list[tuple[str, str]]:
    """HIPIFY's (CUDA member, HIP member) pairs of HIP enum `hip_enum`."""
    names(hip_module)
    return _MEMBERS.get((hip_module, hip_enum), [])


def home(cuda_name: str) -> str:
    """The module a shared CUDA enum class names as its own, as in cuda-python 12."""
    if cuda_name.startswith("nvrtc"):
        return "cuda.bindings.nvrtc"
    if cuda_name.startswith("cuda"):
        return "cuda.bindings.runtime"
    return "cuda.bindings.driver"


def enum_members(name: str) -> list[tuple[str, int]]:
    """CUDA enum `name`'s (member, CUDA value) pairs in this API version, if CUDA declares it."""
    e = tables().enums.get(name)
    return [tuple(m) for m in e["members"]] if e else []
