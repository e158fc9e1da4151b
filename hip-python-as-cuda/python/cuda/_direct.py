"""Adapters that call the HIP function's C symbol with C arguments they make themselves.

HIP's bindings return in/out parameters and take no lists where cuda-python passes them
(`cudaGraphGetNodes(graph, numNodes)`, `cuModuleLoadDataEx(image, n, options, values)`,
`cuPointerGetAttributes(n, attributes, ptr)`). For those, the table entry of a CUDA function
(`generator/src/cuda/conventions.rs`, `direct_plan`) says for every C argument where it comes from;
this module builds the adapter from it, calls the symbol through ctypes (which releases the
GIL for the call), and returns the status and the outputs as cuda-python does.
"""

from __future__ import annotations

import ctypes
import importlib
import keyword

from . import _ints

CTYPES = {
    "bool": ctypes.c_bool,
    "i8": ctypes.c_int8,
    "u8": ctypes.c_uint8,
    "i16": ctypes.c_int16,
    "u16": ctypes.c_uint16,
    "i32": ctypes.c_int32,
    "u32": ctypes.c_uint32,
    "i64": ctypes.c_int64,
    "u64": ctypes.c_uint64,
    "f32": ctypes.c_float,
    "f64": ctypes.c_double,
    "ptr": ctypes.c_void_p,
}


def address(value, keep: list, what: str | None = None) -> int:
    """The C pointer an argument stands for: an int as it is; `bytes` and buffers by their
    memory (kept alive in `keep`); a HIP handle or pointer, enum or CUDA integer object by its
    value; a struct by `getPtr()`. `what` names the argument in errors."""
    if value is None:
        return 0
    if isinstance(value, int):
        return _ints.address(value, what)
    if isinstance(value, bytes):
        keep.append(value)
        return ctypes.cast(ctypes.c_char_p(value), ctypes.c_void_p).value or 0
    if isinstance(value, ctypes.c_void_p):
        return value.value or 0
    if isinstance(value, ctypes._SimpleCData | ctypes.Structure | ctypes.Union | ctypes.Array):
        return ctypes.addressof(value)
    try:
        # Asked before `__int__`: a NumPy array has one too (its only element's value).
        view = memoryview(value)
    except TypeError:
        view = None
    if view is None:
        if hasattr(type(value), "__int__") or hasattr(type(value), "__index__"):
            return _ints.address(value, what)
        get = getattr(value, "getPtr", None)
        if callable(get):
            return int(get())
        raise TypeError(
            f"{what + ': ' if what else ''}expected an address: an int, a pointer or handle object, "
            f"bytes or a buffer, not {type(value).__name__}"
        )
    if view.readonly:
        data = view.tobytes()
        keep.append(data)
        return ctypes.cast(ctypes.c_char_p(data), ctypes.c_void_p).value or 0
    array = (ctypes.c_char * view.nbytes).from_buffer(view)
    keep.append(array)
    return ctypes.addressof(array)


#: The range of each C integer type of the plans.
BOUNDS = {
    code: _ints.bounds(ctypes.sizeof(CTYPES[code]), code.startswith("i"))
    for code in ("i8", "u8", "i16", "u16", "i32", "u32", "i64", "u64")
}


def scalar(value, code: str, keep: list, what: str | None = None):
    """An input given as C scalar `code`; `what` names it in errors."""
    if code == "ptr":
        return address(value, keep, what)
    if value is None:
        return 0
    if code in ("f32", "f64"):
        return _ints.real(value, what)
    if code == "bool":
        return bool(_ints.integer(value, -(1 << 63), (1 << 64) - 1, what))
    return _ints.integer(value, *BOUNDS[code], what)


def c_array(values, code: str, keep: list, what: str = "list"):
    """A list as a C array of `code` (NULL for None or an empty list)."""
    if values is None:
        return None
    values = _ints.sequence(values, what)
    if not values:
        return None
    converted = [scalar(v, code, keep, f"{what}[{i}]") for i, v in enumerate(values)]
    array = (CTYPES[code] * len(values))(*converted)
    keep.append(array)
    return array


def int32s(buffer, size: int):
    """`size` bytes of 32-bit integers: one as an `int`, more as a list."""
    n = max(int(size) // 4, 1)
    values = list((ctypes.c_int32 * n).from_buffer(buffer))
    return values[0] if n == 1 else values


def typed_value(address_: int, code: str | None, default):
    """The value an attribute getter wrote at `address_` (8 zeroed bytes before the call):
    as C type `code` where the attribute's type is known, else as `default` (64 bits)."""
    if code is None:
        return default(ctypes.c_uint64.from_address(address_).value)
    return CTYPES[code].from_address(address_).value


class AttributeTypes:
    """The C type of each attribute's value, by the enum member's value (as HIP takes it)."""

    def __init__(self, table: dict, lookup):
        self._table, self._lookup, self._codes = table, lookup, {}

    def codes(self, enum_name: str) -> dict:
        codes = self._codes.get(enum_name)
        if codes is None:
            codes = {}
            enum_cls = self._lookup(enum_name)
            for member, code in self._table.get(enum_name, {}).items():
                value = getattr(enum_cls, member, None)
                if value is not None:
                    codes[int(value)] = code
            self._codes[enum_name] = codes
        return codes


def build(
    entry: dict,
    *,
    status_enum,
    lookup,
    wrapper,
    attribute_types: AttributeTypes,
    version: str,
    hip_module=None,
):
    """The adapter for a table entry with a `direct` plan.

    `status_enum` is the CUDA status class, `lookup(name)` resolves a name of the CUDA module,
    `wrapper(name)` gives the class of a CUDA integer typedef; `hip_module` (the entry's HIP
    module by default) gives the C function's address (`_symbol_address`)."""
    plan = entry["direct"]
    if hip_module is None:
        hip_module = importlib.import_module(f"hip.{entry['hip_module']}")
    names = [p["name"] + "_" if keyword.iskeyword(p["name"]) else p["name"] for p in entry["params"]]
    args = plan["args"]
    results = plan["results"]
    # cuda-python gives the count of an array query a default of 0 (asks for the count).
    counts = {a["count"] for a in args if a["from"] == "out_array"}
    defaults = {i for i in counts if i == len(names) - 1}
    argtypes = [ctypes.c_void_p if a["from"] not in ("input", "zero") else CTYPES[a["ctype"]] for a in args]
    symbol = entry["hip"]
    cfunc = []
    not_supported = None
    if entry["dropped"]:
        from . import _conventions

        not_supported = getattr(status_enum, _conventions.tables().not_supported[entry["status_type"]])
    converters = []
    for r in results:
        kind = r["kind"]
        if kind.startswith(("handle:", "hip_handle:")):
            name = kind.split(":", 1)[1]
            cls = lookup(name) if kind.startswith("handle:") else getattr(hip_module, name)
            converters.append(lambda v, cls=cls: cls(v or 0))
        elif kind.startswith("enum:"):
            enum_cls = lookup(kind.split(":", 1)[1])
            converters.append(lambda v, cls=enum_cls: _member(cls, v))
        elif kind.startswith("wrap:"):
            cls = wrapper(kind.split(":", 1)[1]) or int
            converters.append(lambda v, cls=cls: cls(v))
        elif kind.startswith("zeroed:"):
            record = lookup(kind.split(":", 1)[1])
            converters.append(lambda n, cls=record: [cls() for _ in range(int(n or 0))])
        else:
            converters.append(None)
    u64 = wrapper("cuuint64_t") or int
    # The C type of each input, for those that are also a count or size (`numNodes`, a `size_t *`).
    count_codes = {a["index"]: a["ctype"] for a in args if a["from"] in ("input", "in_out", "list")}

    def what(index):
        return f"argument '{names[index]}'"

    def count(value, index):
        """Input `index` (`value`) as the element count or byte size it is (None: 0)."""
        lo, hi = BOUNDS.get(count_codes.get(index, "u64"), BOUNDS["u64"])
        return _ints.integer(value or 0, max(lo, 0), hi, what(index))

    def call(*given, **keywords):
        if len(given) > len(names):
            raise TypeError(f"{entry['cuda']}() takes {len(names)} arguments ({len(given)} given)")
        inputs = list(given) + [None] * (len(names) - len(given))
        for key, value in keywords.items():
            try:
                inputs[names.index(key)] = value
            except ValueError:
                raise TypeError(f"{entry['cuda']}() got an unexpected keyword argument {key!r}") from None
        for i in range(len(given), len(names)):
            if names[i] not in keywords and i not in defaults:
                raise TypeError(f"{entry['cuda']}() missing required argument {names[i]!r}")
        for k in entry["dropped"]:
            if inputs[k] is not None and not (isinstance(inputs[k], int) and inputs[k] == 0):
                return (not_supported,) + (None,) * len(results)
        keep: list = []
        c_args = []
        outputs = []  # per C argument: how to read what the call wrote
        for a in args:
            kind = a["from"]
            if kind == "input":
                c_args.append(scalar(inputs[a["index"]], a["ctype"], keep, what(a["index"])))
                outputs.append(None)
            elif kind == "zero":
                c_args.append(0)
                outputs.append(None)
            elif kind in ("out", "in_out"):
                given = 0
                if kind == "in_out":
                    given = scalar(inputs[a["index"]], a["ctype"], keep, what(a["index"]))
                box = CTYPES[a["ctype"]](given)
                c_args.append(ctypes.addressof(box))
                outputs.append(lambda box=box: box.value)
                keep.append(box)
            elif kind == "list":
                array = c_array(inputs[a["index"]], a["ctype"], keep, what(a["index"]))
                c_args.append(array)
                outputs.append(None)
            elif kind == "out_array":
                n = count(inputs[a["count"]], a["count"])
                array = (CTYPES[a["ctype"]] * n)() if n else None
                c_args.append(array)
                outputs.append(lambda array=array: list(array) if array is not None else [])
                keep.append(array)
            elif kind == "values":
                given_attributes = inputs[a["attributes"]]
                attributes = (
                    []
                    if given_attributes is None
                    else _ints.sequence(given_attributes, what(a["attributes"]))
                )
                if a.get("sizes") is not None:
                    given_sizes = inputs[a["sizes"]]
                    given_sizes = [] if given_sizes is None else _ints.sequence(given_sizes, what(a["sizes"]))
                    sizes = [count(s, a["sizes"]) for s in given_sizes]
                    codes = None
                else:
                    sizes = [8] * len(attributes)
                    table = attribute_types.codes(a["attribute_type"]) if a.get("attribute_type") else {}
                    codes = [
                        table.get(_ints.integer(x, *BOUNDS["i32"], f"{what(a['attributes'])}[{i}]"))
                        for i, x in enumerate(attributes)
                    ]
                slots = [(ctypes.c_char * max(s, 1))() for s in sizes]
                pointers = (ctypes.c_void_p * max(len(slots), 1))(*[ctypes.addressof(s) for s in slots])
                keep += slots
                keep.append(pointers)
                c_args.append(pointers)
                if codes is None:
                    outputs.append(
                        lambda slots=slots, sizes=sizes: [
                            int32s(b, s) for b, s in zip(slots, sizes, strict=True)
                        ]
                    )
                else:
                    outputs.append(
                        lambda slots=slots, codes=codes: [
                            typed_value(ctypes.addressof(b), c, u64)
                            for b, c in zip(slots, codes, strict=True)
                        ]
                    )
            elif kind == "sized":
                size = count(inputs[a["size"]], a["size"])
                slot = (ctypes.c_char * max(size, 1))()
                keep.append(slot)
                c_args.append(slot)
                outputs.append(lambda slot=slot, size=size: int32s(slot, size))
            else:  # pragma: no cover - the generator writes no other kind
                raise AssertionError(kind)
        if not cfunc:
            fn_type = ctypes.CFUNCTYPE(ctypes.c_int, *argtypes)
            cfunc.append(fn_type(hip_module._symbol_address(symbol)))
        rc = cfunc[0](*c_args)
        status = _member(status_enum, rc)
        if rc:
            return (status,) + (None,) * len(results)
        out = [status]
        for r, convert in zip(results, converters, strict=True):
            value = outputs[r["arg"]]()
            if r["kind"].startswith("zeroed:"):
                out.append(convert(value))
            elif convert is None:
                out.append(value)
            elif isinstance(value, list):
                out.append([convert(v) for v in value])
            else:
                out.append(convert(value))
        return tuple(out)

    call.__name__ = call.__qualname__ = entry["cuda"]
    call.__module__ = f"cuda.bindings.{entry['module']}"
    call.__doc__ = (
        f"CUDA's {entry['cuda']}({', '.join(names)}) on HIP's {entry['hip']} (its C function "
        f"called with the arguments made here), with cuda-python's calling convention "
        f"(cuda-bindings {version})."
    )
    import inspect  # here: importing it costs milliseconds, and few programs need a direct call

    call.__signature__ = inspect.Signature(
        [
            inspect.Parameter(
                n,
                inspect.Parameter.POSITIONAL_OR_KEYWORD,
                default=0 if i in defaults else inspect.Parameter.empty,
            )
            for i, n in enumerate(names)
        ]
    )
    call.__hip__ = getattr(hip_module, symbol, None)
    return call


def _member(enum_cls, value: int):
    """`value` as a member of `enum_cls` where it has one, else the integer."""
    try:
        return enum_cls(value)
    except ValueError:
        return value
