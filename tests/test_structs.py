"""Struct and union layouts against a C++ compiler, and field values through raw memory."""

import ctypes
import re
import struct
import subprocess

import pytest

import hip as hip_package
from conftest import ROCM, load_ir
from hip import hip

IR = load_ir("hip")
RECORDS = {r["name"]: r for r in IR["records"]}

# Header that declares each library's records, the language it is parsed in (hipblas's
# complex types have private members in C++), and the prelude of its spec.
HEADERS = {
    "hip": ("hip/hip_runtime_api.h", "c++", ""),
    "hipblas": ("hipblas/hipblas.h", "c", ""),
    "rccl": ("rccl/rccl.h", "c", ""),
    "hiprand": ("hiprand/hiprand.h", "c", "typedef unsigned short __half;"),
}


TEXT = "\n".join(h.read_text(errors="replace") for h in (ROCM / "include").rglob("*.h"))
WORDS = set(re.findall(r"\w+", TEXT))


def c_spelling(name, language):
    """How C names a record: `struct X` for a tag, `X` for a typedef (C++ takes either)."""
    if language == "c":
        tag = re.search(rf"\b(struct|union)\s+{re.escape(name)}\b", TEXT)
        if tag:
            return f"{tag.group(1)} {name}"
    return name


def roots(records):
    """Records C++ can name; nested anonymous ones are reached through their parents' fields."""
    return [name for name in records if name in WORDS]


# Kept for the hip-specific tests below.
ROOTS = roots(RECORDS)


def field_paths(record, records, prefix=""):
    """(dotted path, field) for every field reachable without crossing an array."""
    for f in record["fields"]:
        path = prefix + f["name"]
        yield path, f
        if f["ty"]["kind"] == "record" and f.get("bit_width") is None and f["ty"]["name"] in records:
            yield from field_paths(records[f["ty"]["name"]], records, path + ".")


def compiler_layout(lib, rocm, tmp):
    """`{root: {"-": (size, 0), path: (offset, size)}}` as g++ lays the records out."""
    records = {r["name"]: r for r in load_ir(lib)["records"]}
    header, language, prelude = HEADERS[lib]
    lines = [prelude, f"#include <{header}>", "#include <stdio.h>", "#include <stddef.h>", "int main() {"]
    for root in roots(records):
        c = c_spelling(root, language)
        lines.append(f'  printf("{root} - %zu 0\\n", sizeof({c}));')
        for path, f in field_paths(records[root], records):
            if f.get("bit_width") is not None:
                continue
            offset, size = f"offsetof({c}, {path})", f"sizeof((({c}*)0)->{path})"
            lines.append(f'  printf("{root} {path} %zu %zu\\n", {offset}, {size});')
    lines.append("  return 0;\n}")
    src = tmp / f"layout_{lib}.{'cpp' if language == 'c++' else 'c'}"
    src.write_text("\n".join(lines))
    exe = src.with_suffix("")
    compiler = "g++" if language == "c++" else "gcc"
    subprocess.run(
        [compiler, "-D__HIP_PLATFORM_AMD__", f"-I{rocm / 'include'}", str(src), "-o", str(exe)],
        check=True,
    )
    out = {}
    for line in subprocess.run([str(exe)], capture_output=True, text=True, check=True).stdout.splitlines():
        root, path, off, size = line.split()
        out.setdefault(root, {})[path] = (int(off), int(size))
    return records, out


def our_layout(module, records, root, path):
    """Offset and (for records) size of a field path through our classes' descriptors."""
    cls = getattr(module, root)
    offset = 0
    size = None
    for part in path.split("."):
        field = vars(cls)[part]
        offset += field.offset
        ty = next(f for f in records[cls.__name__]["fields"] if f["name"] == part)["ty"]
        size = None
        if ty["kind"] == "record" and ty["name"] in records:
            cls = getattr(module, ty["name"])
            size = cls().c_sizeof()
    return offset, size


@pytest.mark.parametrize("lib", sorted(HEADERS))
def test_every_struct_size_and_offset_matches_the_compiler(lib, rocm_headers, tmp_path):
    module = getattr(hip_package, lib)
    records, layout = compiler_layout(lib, rocm_headers, tmp_path)
    checked = 0
    for root, fields in layout.items():
        assert getattr(module, root)().c_sizeof() == fields["-"][0], root
        for path, (offset, size) in fields.items():
            if path == "-":
                continue
            ours_offset, ours_size = our_layout(module, records, root, path)
            assert ours_offset == offset, f"{root}.{path}"
            if ours_size is not None:
                assert ours_size == size, f"{root}.{path}"
            checked += 1
    # Guards against silently checking nothing (ROCm 6.4.3: hip has 107 records, 819 paths).
    # (ROCm 7's hipBLAS keeps one record of its own: its complex types are HIP's now.)
    minimum = {"hip": (100, 800), "hipblas": (1, 1), "rccl": (1, 1), "hiprand": (1, 4)}[lib]
    assert len(layout) >= minimum[0] and checked >= minimum[1], (len(layout), checked)


INT_FORMATS = {
    (1, True): "b",
    (1, False): "B",
    (2, True): "h",
    (2, False): "H",
    (4, True): "i",
    (4, False): "I",
    (8, True): "q",
    (8, False): "Q",
}


def scalar_fields():
    for r in IR["records"]:
        for f in r["fields"]:
            if f["ty"]["kind"] in ("int", "float", "enum") and f.get("bit_width") is None:
                yield r["name"], f


@pytest.mark.parametrize(
    "record, field", list(scalar_fields()), ids=lambda v: v if isinstance(v, str) else v["name"]
)
def test_scalar_fields_round_trip_through_memory(record, field):
    obj = getattr(hip, record)()
    ty = field["ty"]
    offset = field["offset_bits"] // 8
    if ty["kind"] == "float":
        fmt, value = ("f" if ty["size"] == 4 else "d"), 1.5
    elif ty["kind"] == "enum":
        enum_cls = getattr(hip, ty["name"])
        value = list(enum_cls)[-1]
        fmt = INT_FORMATS[(ty["size"], ty["signed"])]
    else:
        fmt = INT_FORMATS[(ty["size"], ty["signed"])]
        value = -3 if ty["signed"] else (1 << (8 * ty["size"])) - 2
    setattr(obj, field["name"], value)
    raw = ctypes.string_at(int(obj) + offset, struct.calcsize(fmt))
    assert struct.unpack("<" + fmt, raw)[0] == value
    assert getattr(obj, field["name"]) == value


def test_bitfields_round_trip_without_touching_neighbours():
    bitfield_records = [r for r in IR["records"] if any(f.get("bit_width") for f in r["fields"])]
    for r in bitfield_records:
        obj = getattr(hip, r["name"])()
        fields = [f for f in r["fields"] if f.get("bit_width")]
        for i, f in enumerate(fields):
            top = (1 << f["bit_width"]) - 1 if not f["ty"].get("signed") else (1 << (f["bit_width"] - 1)) - 1
            setattr(obj, f["name"], top)
            assert getattr(obj, f["name"]) == top
            for g in fields[:i]:
                assert getattr(obj, g["name"]) != 0, (r["name"], g["name"])


def test_char_arrays_nested_structs_and_arrays():
    props = hip.hipDeviceProp_t(name=b"gfx90a", maxThreadsDim=[1024, 1024, 64])
    assert props.name == b"gfx90a"
    assert props.maxThreadsDim == [1024, 1024, 64]
    assert ctypes.string_at(int(props) + vars(hip.hipDeviceProp_t)["name"].offset, 6) == b"gfx90a"
    with pytest.raises(ValueError):
        props.name = b"x" * 300
    # A nested struct is a view into its parent: writing through it changes the parent.
    props.uuid.bytes = b"0123456789abcdef"
    assert props.uuid.bytes == b"0123456789abcdef"
    with pytest.raises(OverflowError):
        props.totalGlobalMem = -1
    with pytest.raises(KeyError):
        hip.hipDeviceProp_t(no_such_field=1)


def test_dim3_defaults_positional_and_unpacking():
    assert tuple(hip.dim3()) == (1, 1, 1)
    assert tuple(hip.dim3(32)) == (32, 1, 1)
    x, y, z = hip.dim3(4, z=2)
    assert (x, y, z) == (4, 1, 2)
    assert hip.dim3.PROPERTIES() == ["x", "y", "z"] and hip.dim3().c_sizeof() == 12
    with pytest.raises(ValueError):
        hip.dim3(1, 2, 3, 4)


def test_from_obj_views_existing_memory():
    buf = bytearray(struct.pack("<III", 7, 8, 9))
    view = hip.dim3.fromObj(buf)
    assert tuple(view) == (7, 8, 9)
    view.y = 80
    assert struct.unpack("<III", buf) == (7, 80, 9)


def test_a_struct_made_here_is_followed_by_zeros():
    # A library built against a header whose struct grew at its end (CUDA's cudaTextureDesc
    # is 8 bytes longer than HIP's hipTextureDesc, and the NVIDIA platform passes HIP's to
    # CUDA) reads the added fields as zero, not as whatever memory follows the struct.
    import ctypes

    from hip import hip

    for _ in range(64):
        # Freed blocks of every small size, filled with 0xAA: the struct's memory is one of
        # them again, and would show their bytes past its end.
        for size in range(48, 160):
            junk = bytearray(b"\xaa" * size)
            del junk
        desc = hip.hipTextureDesc()
        desc.maxMipmapLevelClamp = 1.0
        assert ctypes.string_at(desc.getPtr() + desc.c_sizeof(), 16) == bytes(16)
