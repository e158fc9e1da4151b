"""Struct and union layouts against a C++ compiler, and field values through raw memory."""

import ctypes
import re
import struct
import subprocess

import pytest

from conftest import ROCM, load_ir
from hip import hip

IR = load_ir("hip")
RECORDS = {r["name"]: r for r in IR["records"]}


def _header_words():
    words = set()
    for header in (ROCM / "include" / "hip").rglob("*.h"):
        words |= set(re.findall(r"\w+", header.read_text(errors="replace")))
    return words


# Records C++ can name; nested anonymous ones are reached through their parents' fields.
ROOTS = [name for name in RECORDS if name in _header_words()]


def field_paths(record, prefix=""):
    """(dotted path, field) for every field reachable without crossing an array."""
    for f in record["fields"]:
        path = prefix + f["name"]
        yield path, f
        if f["ty"]["kind"] == "record" and f.get("bit_width") is None:
            yield from field_paths(RECORDS[f["ty"]["name"]], path + ".")


@pytest.fixture(scope="module")
def compiler_layout(rocm_643, tmp_path_factory):
    """`{root: {"": size, path: (offset, size)}}` as g++ lays the records out."""
    lines = ["#include <hip/hip_runtime_api.h>", "#include <cstdio>", "#include <cstddef>"]
    lines.append("int main() {")
    for root in ROOTS:
        lines.append(f'  printf("{root} - %zu 0\\n", sizeof({root}));')
        for path, f in field_paths(RECORDS[root]):
            if f.get("bit_width") is not None:
                continue
            offset, size = f"offsetof({root}, {path})", f"sizeof((({root}*)0)->{path})"
            lines.append(f'  printf("{root} {path} %zu %zu\\n", {offset}, {size});')
    lines.append("  return 0;\n}")
    src = tmp_path_factory.mktemp("layout") / "layout.cpp"
    src.write_text("\n".join(lines))
    exe = src.with_suffix("")
    subprocess.run(
        ["g++", "-D__HIP_PLATFORM_AMD__", f"-I{rocm_643 / 'include'}", str(src), "-o", str(exe)],
        check=True,
    )
    out = {}
    for line in subprocess.run([str(exe)], capture_output=True, text=True, check=True).stdout.splitlines():
        root, path, off, size = line.split()
        out.setdefault(root, {})[path] = (int(off), int(size))
    return out


def our_layout(root, path):
    """Offset and (for records) size of a field path through our classes' descriptors."""
    cls = getattr(hip, root)
    offset = 0
    size = None
    for part in path.split("."):
        field = vars(cls)[part]
        offset += field.offset
        ty = _ir_field(cls.__name__, part)["ty"]
        if ty["kind"] == "record":
            cls = getattr(hip, ty["name"])
            size = cls().c_sizeof()
        else:
            size = None
    return offset, size


def _ir_field(record, name):
    return next(f for f in RECORDS[record]["fields"] if f["name"] == name)


def test_every_struct_size_and_offset_matches_the_compiler(compiler_layout):
    checked = 0
    for root in ROOTS:
        layout = compiler_layout[root]
        assert getattr(hip, root)().c_sizeof() == layout["-"][0], root
        for path, (offset, size) in layout.items():
            if path == "-":
                continue
            ours_offset, ours_size = our_layout(root, path)
            assert ours_offset == offset, f"{root}.{path}"
            if ours_size is not None:
                assert ours_size == size, f"{root}.{path}"
            checked += 1
    # Guards against silently checking nothing: 107 records and 819 field paths in 6.4.3.
    assert len(ROOTS) >= 100 and checked >= 800


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
