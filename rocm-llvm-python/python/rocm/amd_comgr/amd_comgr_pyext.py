"""Pythonic helpers over comgr, AMD's code object manager: compile HIP source to LLVM bitcode
and code objects, read their metadata and symbols, disassemble them.

The API of AMD's `rocm.comgr` (rocm-bindings 10.0), which rocm-llvm-python 6.4/7.2 ship as
`rocm.amd_comgr.amd_comgr_pyext` (reached as `amd_comgr.ext`), over the generated bindings
`rocm.amd_comgr.amd_comgr`. Every compile function returns `(result, log, diagnostic)`: the
output as `bytes`, the comgr log if `logging` was asked for, the diagnostics if any; a failed
action raises `RuntimeError` carrying comgr's log (logged always, so that a failure explains
itself). The ISA name is comgr's (`amdgcn-amd-amdhsa--gfx90a`, see `get_isa_names`); a bare
`gfx90a` gets the triple added.

`HIPRTC_RUNTIME_HEADER` (the hipRTC runtime header's text) is read on first access, from the
installed ROCm (`rocm.amd_comgr.hiprtc_header`), not at import.

Differences from AMD's module, on purpose: default options are tuples (AMD's lists were
appended to in place, so `-D__HIPCC_RTC__` accumulated across calls); `extra_opts` may also be
a string, split on whitespace (numba-hip passes one); LLVM bitcode and assembly are compiled
with language NONE (AMD's set HIP whatever the input); the disassembly of a kernel states the
code object version its ELF header records (AMD's always says 6).
"""

import ctypes
import struct
import textwrap

from rocm.amd_comgr import amd_comgr as _c

from . import amd_hsa_kernel_descriptor
from .hiprtc_header import get_hiprtc_runtime_header

NUL = b"\x00"

_TRIPLE = "amdgcn-amd-amdhsa--"

#: Options of `compile_hip_to_bc` before `extra_opts`: `-fgpu-rdc` keeps `__device__`
#: functions in the bitcode, `-nogpuinc` leaves HIP's headers out (the hipRTC runtime header
#: can be prepended instead).
HIP_TO_BC_DEFAULT_OPTS = (
    "-fgpu-rdc",
    "-O3",
    "-mcumode",
    "-std=c++14",
    "-nogpuinc",
    "-Wno-gnu-line-marker",
    "-Wno-missing-prototypes",
)
#: Options of the HIP compile of `compile_hip_to_hsa` (which then generates assembly).
HIP_TO_HSA_DEFAULT_OPTS = tuple(o for o in HIP_TO_BC_DEFAULT_OPTS if o != "-fgpu-rdc")
#: Options of the code generation of `compile_bc`.
BC_DEFAULT_OPTS = ("-O3",)


# --- conversions and status --------------------------------------------------------------


def to_bytes(obj):
    """`str` as UTF-8, a buffer as its bytes."""
    return obj.encode("utf-8") if isinstance(obj, str) else bytes(obj)


def to_str(obj):
    """`bytes` decoded as UTF-8; `str` as is."""
    if isinstance(obj, str):
        return obj
    if isinstance(obj, (bytes, bytearray)):
        return bytes(obj).decode("utf-8")
    raise ValueError(f"expected str or bytes, got {type(obj).__name__}")


def to_cstr(obj):
    """The bytes of `obj` ending in one NUL (a C string)."""
    data = to_bytes(obj)
    return data if data.endswith(NUL) else data + NUL


def comgr_check(call_result):
    """The outputs of a comgr call (None, the one output, or a tuple of them), raising
    `RuntimeError` if its status is not success."""
    status, outputs = (
        (call_result[0], call_result[1:]) if isinstance(call_result, tuple) else (call_result, ())
    )
    # The status class is looked up here, not at import, where it would choose comgr's bindings.
    if isinstance(status, _c.amd_comgr_status_s) and status != _c.amd_comgr_status_s.AMD_COMGR_STATUS_SUCCESS:
        raise RuntimeError(f"comgr call failed: {status.name}")
    if not outputs:
        return None
    return outputs[0] if len(outputs) == 1 else outputs


def _enum_member(enum, prefix, name):
    """`enum`'s member `prefix + NAME` for a short or full, any-case name (AttributeError if
    this comgr's header has no such member)."""
    name = str(name).upper()
    return getattr(enum, name if name.startswith(prefix) else prefix + name)


def _short_names(enum, prefix):
    return sorted(
        n[len(prefix) :] for n in enum.__members__ if n.startswith(prefix) and not n.endswith("_LAST")
    )


def _isa_name(isa_name):
    """comgr's ISA name for `amdgcn-amd-amdhsa--gfx90a...` or a bare `gfx90a...`."""
    name = to_str(isa_name)
    if name.startswith("gfx"):
        return _TRIPLE + name
    if not name.startswith(_TRIPLE + "gfx"):
        raise ValueError(f"an ISA name starts with 'gfx' or '{_TRIPLE}gfx', got {name!r}")
    return name


# --- callbacks ---------------------------------------------------------------------------
# comgr calls back with a `void *user_data`; it is the address of a ctypes.py_object holding
# the Python state, kept alive by the caller for the duration of the call. A callback returns
# a comgr status: an exception is kept on the state and reported as an error, which stops the
# iteration, and re-raised once comgr returns (ctypes would otherwise print and drop it).


class _CallbackState:
    def __init__(self, **fields):
        self.error = None
        self.__dict__.update(fields)

    def user_data(self):
        self._holder = ctypes.py_object(self)
        return ctypes.addressof(self._holder)

    def reraise(self):
        if self.error is not None:
            raise self.error


def _state_of(user_data):
    return ctypes.cast(ctypes.c_void_p(user_data), ctypes.POINTER(ctypes.py_object)).contents.value


def _guarded(function):
    """A callback body that reports exceptions as an error status instead of losing them."""

    def callback(*args):
        state = _state_of(args[-1])
        try:
            function(state, *args[:-1])
        except BaseException as e:  # noqa: B036 - kept and re-raised after the comgr call
            state.error = e
            return int(_c.amd_comgr_status_s.AMD_COMGR_STATUS_ERROR)
        return int(_c.amd_comgr_status_s.AMD_COMGR_STATUS_SUCCESS)

    return callback


def _address(cfunc):
    return ctypes.cast(cfunc, ctypes.c_void_p).value


# --- metadata ----------------------------------------------------------------------------


def metadata_string_get_bytes(metadata_string):
    """The text of a string metadata node as `bytes`."""
    size = ctypes.c_size_t(0)
    comgr_check(_c.amd_comgr_get_metadata_string(metadata_string, ctypes.byref(size), None))
    buf = ctypes.create_string_buffer(size.value)  # the size counts the NUL
    comgr_check(_c.amd_comgr_get_metadata_string(metadata_string, ctypes.byref(size), buf))
    return buf.raw[: max(size.value - 1, 0)]


@ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_uint64, ctypes.c_uint64, ctypes.c_void_p)
@_guarded
def _collect_map_key(state, key, _value):
    # The nodes handed to the callback belong to comgr: read, never destroyed.
    state.keys.append(metadata_string_get_bytes(_c.amd_comgr_metadata_node_s(handle=key)))


def metadata_map_get_keys(metadata_map):
    """The keys of a map metadata node, as `bytes`, in the map's order."""
    state = _CallbackState(keys=[])
    status = _c.amd_comgr_iterate_map_metadata(metadata_map, _address(_collect_map_key), state.user_data())
    state.reraise()
    comgr_check(status)
    return state.keys


def parse_metadata(metadata, level=0):
    """A metadata node as nested `dict` (maps), `list` (lists) and `str` (strings); None for
    a null node. (`level` is unused, kept for AMD's signature.)"""
    Kind = _c.amd_comgr_metadata_kind_s
    kind = comgr_check(_c.amd_comgr_get_metadata_kind(metadata))
    if kind == Kind.AMD_COMGR_METADATA_KIND_STRING:
        return metadata_string_get_bytes(metadata).decode("utf-8")
    if kind == Kind.AMD_COMGR_METADATA_KIND_MAP:
        result = {}
        for key in metadata_map_get_keys(metadata):
            value = comgr_check(_c.amd_comgr_metadata_lookup(metadata, key))
            try:
                result[key.decode("utf-8")] = parse_metadata(value, level + 1)
            finally:
                _c.amd_comgr_destroy_metadata(value)  # lookups hand over a node we own
        return result
    if kind == Kind.AMD_COMGR_METADATA_KIND_LIST:
        result = []
        for i in range(comgr_check(_c.amd_comgr_get_metadata_list_size(metadata))):
            item = comgr_check(_c.amd_comgr_index_list_metadata(metadata, i))
            try:
                result.append(parse_metadata(item, level + 1))
            finally:
                _c.amd_comgr_destroy_metadata(item)
        return result
    return None


def _parse_owned_metadata(node):
    try:
        return parse_metadata(node)
    finally:
        _c.amd_comgr_destroy_metadata(node)


def parse_data_metadata(data):
    """The metadata of a comgr data object (`amd_comgr_data_s`), parsed."""
    return _parse_owned_metadata(comgr_check(_c.amd_comgr_get_data_metadata(data)))


def _with_data(code, size, kind, read):
    """`read(data)` over a temporary comgr data object of `kind` (None: an executable, as
    hipRTC makes; looked up here rather than as a default value, which import would read)
    holding `code[:size]`."""
    if kind is None:
        kind = _c.amd_comgr_data_kind_s.AMD_COMGR_DATA_KIND_EXECUTABLE
    data = comgr_check(_c.amd_comgr_create_data(kind))
    try:
        content = to_bytes(code)[:size]
        comgr_check(_c.amd_comgr_set_data(data, len(content), content))
        return read(data)
    finally:
        _c.amd_comgr_release_data(data)


def parse_code_obj_metadata(code_obj, code_obj_size, kind=None):
    """The metadata of a code object (by default an executable, as hipRTC makes), parsed:
    `{"amdhsa.version": [...], "amdhsa.kernels": [{".name": ..., ...}], ...}`."""
    return _with_data(code_obj, code_obj_size, kind, parse_data_metadata)


def parse_code_obj_kernel_names(code, code_size, kind=None):
    """The names of the kernels of a code object, in order."""
    return [k[".name"] for k in parse_code_obj_metadata(code, code_size, kind).get("amdhsa.kernels", [])]


# --- ISAs --------------------------------------------------------------------------------


def get_isa_names(decode=True):
    """The ISA names this comgr supports, as `str` (or `bytes` with `decode=False`)."""
    names = []
    for i in range(comgr_check(_c.amd_comgr_get_isa_count())):
        name = bytes(comgr_check(_c.amd_comgr_get_isa_name(i)))
        names.append(name.decode("utf-8") if decode else name)
    return names


def get_isa_metadata(isa_name):
    """The metadata comgr has for an ISA (`str` or `bytes` name), parsed."""
    if not isinstance(isa_name, (str, bytes)):
        raise TypeError(f"isa_name must be str or bytes, got {type(isa_name).__name__}")
    return _parse_owned_metadata(comgr_check(_c.amd_comgr_get_isa_metadata(to_bytes(isa_name))))


def get_isa_metadata_all():
    """`{isa_name: metadata}` for every ISA this comgr supports."""
    return {name: get_isa_metadata(name) for name in get_isa_names()}


# --- symbols -----------------------------------------------------------------------------


class Symbol:
    """A symbol of a code object, from `amd_comgr_symbol_get_info`: `type` (`FUNC`, `OBJECT`,
    ... : the `AMD_COMGR_SYMBOL_TYPE_` member without the prefix), `name`, `size` (functions
    and objects only, else -1), `is_undefined`, `value` (the ELF virtual address)."""

    def __init__(self):
        self.type = None
        self.name = None
        self.size = -1
        self.is_undefined = -1
        self.value = -1


def _symbol_info(symbol, attribute, value):
    comgr_check(_c.amd_comgr_symbol_get_info(symbol, attribute, ctypes.addressof(value)))
    return value.value


@ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_uint64, ctypes.c_void_p)
@_guarded
def _collect_symbol(state, handle):
    Info = _c.amd_comgr_symbol_info_s
    symbol = _c.amd_comgr_symbol_s(handle=handle)
    result = Symbol()
    kind = _symbol_info(symbol, Info.AMD_COMGR_SYMBOL_INFO_TYPE, ctypes.c_int(0))
    try:
        result.type = _c.amd_comgr_symbol_type_s(kind).name.replace("AMD_COMGR_SYMBOL_TYPE_", "")
    except ValueError:
        result.type = "UNKNOWN"
    length = _symbol_info(symbol, Info.AMD_COMGR_SYMBOL_INFO_NAME_LENGTH, ctypes.c_uint64(0))
    name = ctypes.create_string_buffer(length + 1)  # comgr writes the NUL too
    comgr_check(_c.amd_comgr_symbol_get_info(symbol, Info.AMD_COMGR_SYMBOL_INFO_NAME, name))
    result.name = name.raw[:length].decode("utf-8")
    if result.type in ("OBJECT", "FUNC"):  # the size is undefined for other symbols
        result.size = _symbol_info(symbol, Info.AMD_COMGR_SYMBOL_INFO_SIZE, ctypes.c_uint64(0))
    result.is_undefined = _symbol_info(symbol, Info.AMD_COMGR_SYMBOL_INFO_IS_UNDEFINED, ctypes.c_bool(False))
    result.value = _symbol_info(symbol, Info.AMD_COMGR_SYMBOL_INFO_VALUE, ctypes.c_uint64(0))
    state.symbols[result.name] = result.__dict__


def _map_with_comgr(data, address):
    offset, slice_size, nobits = ctypes.c_uint64(0), ctypes.c_uint64(0), ctypes.c_bool(False)
    comgr_check(
        _c.amd_comgr_map_elf_virtual_address_to_code_object_offset(
            data, address, ctypes.byref(offset), ctypes.byref(slice_size), ctypes.byref(nobits)
        )
    )
    return offset.value, slice_size.value, nobits.value


def _map_with_program_headers(code, address):
    """(offset, slice size, nobits) of an ELF virtual address, from the PT_LOAD segments of a
    64-bit little-endian ELF file: comgr's mapping for comgrs older than 2.6, which lack it."""
    if code[:6] != b"\x7fELF\x02\x01":
        raise RuntimeError("not a 64-bit little-endian ELF file")
    phoff = struct.unpack_from("<Q", code, 0x20)[0]
    phentsize, phnum = struct.unpack_from("<HH", code, 0x36)
    for i in range(phnum):
        p_type, _, p_offset, p_vaddr, _, p_filesz, p_memsz = struct.unpack_from(
            "<IIQQQQQ", code, phoff + i * phentsize
        )
        if p_type == 1 and p_vaddr <= address < p_vaddr + p_memsz:  # PT_LOAD
            delta = address - p_vaddr
            if delta < p_filesz:
                return p_offset + delta, p_filesz - delta, False
            return 0, p_memsz - delta, True  # in the zero-filled (NOBITS) part
    raise RuntimeError(f"address {address:#x} lies in no loadable segment")


def _has_comgr_mapping():
    return getattr(_c, "amd_comgr_map_elf_virtual_address_to_code_object_offset", None) is not None and (
        _c.has_symbol("amd_comgr_map_elf_virtual_address_to_code_object_offset")
    )


def parse_data_symbols(data):
    """`{name: {type, name, size, is_undefined, value, ...}}` for the symbols of a comgr data
    object. Functions and objects also get where their bytes are: `code_object_offset` (None
    for a symbol in zero-filled memory, or one with no place in the file, as in a relocatable),
    `slice_size` (bytes from there to the end of its segment) and `nobits`."""
    state = _CallbackState(symbols={})
    status = _c.amd_comgr_iterate_symbols(data, _address(_collect_symbol), state.user_data())
    state.reraise()
    comgr_check(status)
    code = None
    for symbol in state.symbols.values():
        if symbol["type"] not in ("OBJECT", "FUNC"):
            continue
        try:
            if _has_comgr_mapping():
                offset, slice_size, nobits = _map_with_comgr(data, symbol["value"])
            else:
                code = code if code is not None else _data_bytes(data)
                offset, slice_size, nobits = _map_with_program_headers(code, symbol["value"])
        except RuntimeError:
            offset, slice_size, nobits = None, None, None  # e.g. a relocatable's section offsets
        symbol["nobits"] = nobits
        symbol["code_object_offset"] = None if nobits else offset
        symbol["slice_size"] = slice_size
    return state.symbols


def parse_code_symbols(code, code_size, kind=None):
    """The symbols of a code object (by default an executable), as `parse_data_symbols`."""
    return _with_data(code, code_size, kind, parse_data_symbols)


# --- data, data sets and actions ---------------------------------------------------------

_DATA_KIND_PREFIX = "AMD_COMGR_DATA_KIND_"
_ACTION_PREFIX = "AMD_COMGR_ACTION_"
_LANGUAGE_PREFIX = "AMD_COMGR_LANGUAGE_"


def _data_bytes(data):
    size = ctypes.c_size_t(0)
    comgr_check(_c.amd_comgr_get_data(data, ctypes.byref(size), None))
    buf = ctypes.create_string_buffer(size.value)
    comgr_check(_c.amd_comgr_get_data(data, ctypes.byref(size), buf))
    return buf.raw[: size.value]


class Data:
    """A comgr data object (released when this is collected): `Data("k.hip", "SOURCE", text)`."""

    @staticmethod
    def kind_str_to_enum(kind_str):
        """The `amd_comgr_data_kind_s` member for `"SOURCE"`, `"bc"` or a full name."""
        return _enum_member(_c.amd_comgr_data_kind_s, _DATA_KIND_PREFIX, kind_str)

    @staticmethod
    def valid_kinds():
        """The short kind names this comgr's header has."""
        return _short_names(_c.amd_comgr_data_kind_s, _DATA_KIND_PREFIX)

    def __init__(self, name, kind_str, source_buffer=None):
        self._data = None
        self._len = None
        self.source_bytes = None
        self.kind_str = kind_str
        self._data = comgr_check(_c.amd_comgr_create_data(Data.kind_str_to_enum(kind_str)))
        if source_buffer:
            self._set_data_buffer(source_buffer)
        self._set_data_name(name)

    @classmethod
    def _wrap(cls, handle, kind_str):
        """A Data owning a reference comgr handed over (as `action_data_get_data` does)."""
        self = cls.__new__(cls)
        self._data, self._len, self.source_bytes, self.kind_str = handle, None, None, kind_str
        return self

    def _set_data_name(self, name):
        self._name = to_str(name)
        comgr_check(_c.amd_comgr_set_data_name(self._data, to_bytes(self._name)))

    def _set_data_buffer(self, data_buffer):
        self.source_bytes = to_bytes(data_buffer)  # comgr copies it; kept for the caller
        comgr_check(_c.amd_comgr_set_data(self._data, len(self.source_bytes), self.source_bytes))
        self._len = None

    def get_data_name(self):
        """The data object's name."""
        size = ctypes.c_size_t(0)
        comgr_check(_c.amd_comgr_get_data_name(self._data, ctypes.byref(size), None))
        buf = ctypes.create_string_buffer(size.value)
        comgr_check(_c.amd_comgr_get_data_name(self._data, ctypes.byref(size), buf))
        return buf.value.decode("utf-8")

    def get_data_len(self):
        """The size of the data in bytes."""
        if self._len is None:
            size = ctypes.c_size_t(0)
            comgr_check(_c.amd_comgr_get_data(self._data, ctypes.byref(size), None))
            self._len = size.value
        return self._len

    def get_data_bytes(self):
        """A copy of the data."""
        return _data_bytes(self._data)

    def __len__(self):
        return self.get_data_len()

    def get(self):
        """The `amd_comgr_data_s` handle."""
        return self._data

    def __del__(self):
        if getattr(self, "_data", None) is not None:
            try:
                _c.amd_comgr_release_data(self._data)
            except Exception:  # at interpreter exit the bindings may be gone already
                pass
            self._data = None


class DataSet:
    """A comgr data set (destroyed when this is collected), holding `Data` objects."""

    def __init__(self, *datas):
        self._data_set = None
        self._data_set = comgr_check(_c.amd_comgr_create_data_set())
        self.datas = []  # the Data objects added, kept alive with the set
        for data in datas:
            self.add_data(data)

    def add_data(self, data):
        self.datas.append(data)
        comgr_check(_c.amd_comgr_data_set_add(self._data_set, data.get()))

    def count_data(self, kind_str):
        """How many data objects of a kind (`"LOG"`, ...) the set holds."""
        return comgr_check(_c.amd_comgr_action_data_count(self._data_set, Data.kind_str_to_enum(kind_str)))

    def get_data(self, kind_str, index):
        """The `index`th data object of a kind, as a `Data`."""
        handle = comgr_check(
            _c.amd_comgr_action_data_get_data(self._data_set, Data.kind_str_to_enum(kind_str), index)
        )
        return Data._wrap(handle, kind_str)

    def get(self):
        """The `amd_comgr_data_set_s` handle."""
        return self._data_set

    def __del__(self):
        if getattr(self, "_data_set", None) is not None:
            try:
                _c.amd_comgr_destroy_data_set(self._data_set)
            except Exception:
                pass
            self._data_set = None


class Action:
    """A comgr action info object and the data set its results go to:
    `Action("CODEGEN_BC_TO_RELOCATABLE", isa_name, "NONE", ["-O3"]).do_action(inputs)`."""

    @staticmethod
    def action_kind_str_to_enum(action_kind_str):
        """The `amd_comgr_action_kind_s` member for a short or full name."""
        return _enum_member(_c.amd_comgr_action_kind_s, _ACTION_PREFIX, action_kind_str)

    @staticmethod
    def valid_action_kinds():
        return _short_names(_c.amd_comgr_action_kind_s, _ACTION_PREFIX)

    @staticmethod
    def lang_str_to_enum(lang_str):
        """The `amd_comgr_language_s` member for `"HIP"`, `"NONE"`, ... or a full name."""
        return _enum_member(_c.amd_comgr_language_s, _LANGUAGE_PREFIX, lang_str)

    @staticmethod
    def valid_languages():
        return _short_names(_c.amd_comgr_language_s, _LANGUAGE_PREFIX)

    def __init__(self, action_kind_str, isa_name=None, lang_str=None, options=None, logging=False):
        self._action_info = None
        self._action_info = comgr_check(_c.amd_comgr_create_action_info())
        self.result_data_set = DataSet()
        self.action_kind_str = action_kind_str
        self._action_kind = Action.action_kind_str_to_enum(action_kind_str)
        if isa_name:
            self.set_isa_name(isa_name)
        if lang_str:
            self.set_language(lang_str)
        if options:
            self.set_options(options)
        self.set_logging(logging)

    def set_isa_name(self, isa_name):
        comgr_check(_c.amd_comgr_action_info_set_isa_name(self._action_info, to_bytes(isa_name)))

    def set_language(self, lang_str):
        comgr_check(
            _c.amd_comgr_action_info_set_language(self._action_info, Action.lang_str_to_enum(lang_str))
        )

    def set_options(self, options):
        """Sets the option list (`str` or `bytes` items; comgr copies them)."""
        items = [to_bytes(o) for o in options]
        comgr_check(_c.amd_comgr_action_info_set_option_list(self._action_info, items, len(items)))

    def get_num_options(self):
        return comgr_check(_c.amd_comgr_action_info_get_option_list_count(self._action_info))

    def get_option(self, index):
        """The `index`th option, as `bytes`."""
        size = ctypes.c_size_t(0)
        comgr_check(
            _c.amd_comgr_action_info_get_option_list_item(self._action_info, index, ctypes.byref(size), None)
        )
        buf = ctypes.create_string_buffer(size.value)
        comgr_check(
            _c.amd_comgr_action_info_get_option_list_item(self._action_info, index, ctypes.byref(size), buf)
        )
        return buf.raw[: max(size.value - 1, 0)]

    def set_logging(self, logging):
        comgr_check(_c.amd_comgr_action_info_set_logging(self._action_info, bool(logging)))

    def do_action(self, input_data_set, check=True):
        """Runs the action on `input_data_set` into `result_data_set`; the status (raises
        `RuntimeError` on failure if `check`)."""
        (status,) = _c.amd_comgr_do_action(
            self._action_kind, self._action_info, input_data_set.get(), self.result_data_set.get()
        )
        if check:
            comgr_check(status)
        return status

    def get(self):
        """The `amd_comgr_action_info_s` handle."""
        return self._action_info

    def __del__(self):
        if getattr(self, "_action_info", None) is not None:
            try:
                _c.amd_comgr_destroy_action_info(self._action_info)
            except Exception:
                pass
            self._action_info = None


# --- running actions ---------------------------------------------------------------------


def _options(opts):
    """A list of options from a sequence, or from one string split on whitespace."""
    if opts is None:
        return []
    if isinstance(opts, (str, bytes, bytearray)):
        return to_str(opts).split()
    return list(opts)


def _data_text(data_set, kind):
    texts = [
        data_set.get_data(kind, i).get_data_bytes().decode("utf-8", "replace")
        for i in range(data_set.count_data(kind))
    ]
    return "\n".join(t for t in texts if t) or None


def _do_single_siso_action(
    action_kind, data, isa_name, lang_str, output_kind, options, logging=False, check=True
):
    """Runs one single-input, single-output action: (status, output bytes or None, log or
    None, diagnostic or None). comgr logs always, so a failure can say why; the log is
    returned only if `logging` (`""` if comgr had nothing to say)."""
    isa_name = _isa_name(isa_name)
    action = Action(action_kind, isa_name=isa_name, lang_str=lang_str, options=options, logging=True)
    status = action.do_action(DataSet(data), check=False)
    results = action.result_data_set
    log = _data_text(results, "LOG")
    if status != _c.amd_comgr_status_s.AMD_COMGR_STATUS_SUCCESS:
        if check:
            raise RuntimeError(
                f"comgr action {action_kind} for {isa_name} failed ({status.name}); "
                f"its log:\n{log or '(empty)'}"
            )
        return status, None, (log or "") if logging else None, None
    if not results.count_data(output_kind):
        raise RuntimeError(f"comgr action {action_kind} succeeded but produced no {output_kind} data")
    result = results.get_data(output_kind, 0).get_data_bytes()
    return status, result, (log or "") if logging else None, _data_text(results, "DIAGNOSTIC")


def _joined(texts):
    """Texts of successive actions in one, as AMD's do (`""` if all are empty)."""
    return "\n---".join(t for t in texts if t)


def _hip_options(isa_name, hip_version_tuple, default_opts, extra_opts, prepend_hiprtc_runtime_header):
    # hipRTC's own options for HIP source: the offload target (ISA name less the triple) and
    # the HIP version, as macros too.
    options = [f"--offload-arch={_isa_name(isa_name)[len(_TRIPLE) :]}"]
    if hip_version_tuple is not None:
        major, minor, patch = tuple(hip_version_tuple)[:3]
        options += [
            f"--hip-version={major}.{minor}.{patch}",
            f"-DHIP_VERSION_MAJOR={major}",
            f"-DHIP_VERSION_MINOR={minor}",
            f"-DHIP_VERSION_PATCH={patch}",
        ]
    options += _options(default_opts)
    if prepend_hiprtc_runtime_header:
        options.append("-D__HIPCC_RTC__")  # the header's own guard, as hipRTC sets it
    return options + _options(extra_opts)


def _with_header(source):
    header = get_hiprtc_runtime_header()
    if isinstance(source, str):
        return header + "\n" + source
    return header.encode("utf-8") + b"\n" + bytes(source)


# --- compiling ---------------------------------------------------------------------------


def compile_hip_to_bc(
    source,
    isa_name,
    hip_version_tuple,
    extra_opts=(),
    default_opts=HIP_TO_BC_DEFAULT_OPTS,
    prepend_hiprtc_runtime_header=False,
    logging=False,
    action_kind="COMPILE_SOURCE_WITH_DEVICE_LIBS_TO_BC",
):
    """HIP C++ source (`str` or `bytes`) to LLVM bitcode: `(bc, log, diagnostic)`.

    `hip_version_tuple` (`(6, 4, 3)`) becomes `--hip-version` and the HIP_VERSION_* macros;
    `extra_opts` follow `default_opts` (a sequence, or a string split on whitespace);
    `prepend_hiprtc_runtime_header` puts the hipRTC runtime header before the source (and
    defines `__HIPCC_RTC__`), which `-nogpuinc` needs for `__global__`, `threadIdx` and the
    like; `action_kind` is `COMPILE_SOURCE_WITH_DEVICE_LIBS_TO_BC` or `COMPILE_SOURCE_TO_BC`.
    """
    if action_kind not in ("COMPILE_SOURCE_TO_BC", "COMPILE_SOURCE_WITH_DEVICE_LIBS_TO_BC"):
        raise ValueError(
            "action_kind must be 'COMPILE_SOURCE_TO_BC' or 'COMPILE_SOURCE_WITH_DEVICE_LIBS_TO_BC', "
            f"got {action_kind!r}"
        )
    if prepend_hiprtc_runtime_header:
        source = _with_header(source)
    options = _hip_options(
        isa_name, hip_version_tuple, default_opts, extra_opts, prepend_hiprtc_runtime_header
    )
    _, result, log, diagnostic = _do_single_siso_action(
        action_kind, Data("source.hip", "SOURCE", source), isa_name, "HIP", "BC", options, logging
    )
    return result, log, diagnostic


def compile_bc_to_hsa(source, isa_name, bc_kind="BC", extra_opts=(), logging=False):
    """LLVM bitcode (or `BC_BUNDLE`) to AMD GPU assembly text: `(assembly, log, diagnostic)`."""
    if bc_kind not in ("BC", "BC_BUNDLE"):
        raise ValueError(f"bc_kind must be 'BC' or 'BC_BUNDLE', got {bc_kind!r}")
    _, result, log, diagnostic = _do_single_siso_action(
        "CODEGEN_BC_TO_ASSEMBLY",
        Data("input.bc", bc_kind, source),
        isa_name,
        "NONE",
        "SOURCE",
        _options(extra_opts),
        logging,
    )
    return result, log, diagnostic


def compile_hip_to_hsa(
    source,
    isa_name,
    hip_version_tuple,
    extra_opts=(),
    default_opts=HIP_TO_HSA_DEFAULT_OPTS,
    prepend_hiprtc_runtime_header=False,
    logging=False,
):
    """HIP C++ source to AMD GPU assembly text: `(assembly, log, diagnostic)`.

    Compiled to bitcode, then to assembly (two comgr actions every comgr has; AMD's version
    uses COMPILE_SOURCE_TO_RELOCATABLE with `-S`, which comgrs before 3 lack). The options
    are those of `compile_hip_to_bc`, for the first step.
    """
    bc, log1, diag1 = compile_hip_to_bc(
        source,
        isa_name,
        hip_version_tuple,
        extra_opts=extra_opts,
        default_opts=default_opts,
        prepend_hiprtc_runtime_header=prepend_hiprtc_runtime_header,
        logging=logging,
    )
    result, log2, diag2 = compile_bc_to_hsa(bc, isa_name, logging=logging)
    return result, _joined((log1, log2)) if logging else None, _joined((diag1, diag2)) or None


def _then_link(first_action, data, isa_name, options, logging):
    """`first_action` to a relocatable, then linked to an executable."""
    _, reloc, log1, diag1 = _do_single_siso_action(
        first_action, data, isa_name, "NONE", "RELOCATABLE", options, logging
    )
    _, exe, log2, diag2 = _do_single_siso_action(
        "LINK_RELOCATABLE_TO_EXECUTABLE",
        Data("linked.o", "RELOCATABLE", reloc),
        isa_name,
        "NONE",
        "EXECUTABLE",
        [],
        logging,
    )
    return exe, _joined((log1, log2)) if logging else None, _joined((diag1, diag2)) or None


def compile_bc(ir_or_bc, isa_name, bc_kind="BC", extra_opts=(), default_opts=BC_DEFAULT_OPTS, logging=False):
    """LLVM bitcode (or IR text) to an executable code object: `(elf, log, diagnostic)`.

    Code generation to a relocatable, then linking, as hipRTC does for bitcode input (its
    LINK_BC_TO_BC step is left out: there is one input). Device libraries are not linked in:
    the bitcode must bring what it calls.
    """
    if bc_kind not in ("BC", "BC_BUNDLE"):
        raise ValueError(f"bc_kind must be 'BC' or 'BC_BUNDLE', got {bc_kind!r}")
    options = _options(default_opts) + _options(extra_opts)
    return _then_link(
        "CODEGEN_BC_TO_RELOCATABLE", Data("input.bc", bc_kind, ir_or_bc), isa_name, options, logging
    )


def compile_hsa(hsa, isa_name, extra_opts=(), default_opts=(), logging=False):
    """AMD GPU assembly text to an executable code object: `(elf, log, diagnostic)`."""
    options = _options(default_opts) + _options(extra_opts)
    return _then_link(
        "ASSEMBLE_SOURCE_TO_RELOCATABLE", Data("input.s", "SOURCE", hsa), isa_name, options, logging
    )


# --- disassembling -----------------------------------------------------------------------


class _DisassemblyUserData:
    """What the disassembly callbacks share: `program` (the bytes), `disassembly` (the lines
    so far), `append_address_annotation`. Custom callbacks passed to `disassemble_program`
    receive, as `user_data`, the address of a `ctypes.py_object` holding it."""

    @staticmethod
    def from_ctypes_c_void_p(ptr):
        return _state_of(ptr)

    def __init__(self, program):
        self.program = program
        self.disassembly = []
        self.append_address_annotation = False


@ctypes.CFUNCTYPE(ctypes.c_uint64, ctypes.c_uint64, ctypes.c_void_p, ctypes.c_uint64, ctypes.c_void_p)
def _default_read_memory_cb(start, to, size, user_data):
    # uint64_t (*)(uint64_t from, char *to, uint64_t size, void *user_data): copies up to
    # `size` program bytes from offset `start`; returns how many.
    program = _state_of(user_data).program
    count = max(0, min(size, len(program) - start))
    if count:
        ctypes.memmove(to, program[start : start + count], count)
    return count


@ctypes.CFUNCTYPE(None, ctypes.c_char_p, ctypes.c_void_p)
def _default_append_instruction_cb(instruction, user_data):
    _state_of(user_data).disassembly.append(instruction.decode("utf-8").strip())


@ctypes.CFUNCTYPE(None, ctypes.c_uint64, ctypes.c_void_p)
def _default_append_address_annotation_cb(address, user_data):
    state = _state_of(user_data)
    if state.append_address_annotation and state.disassembly:
        state.disassembly[-1] += f" ; addr: {address:#x}"


def disassemble_program(
    isa_name,
    program,
    append_address_annotation=False,
    read_memory_cb=_default_read_memory_cb,
    append_instruction_cb=_default_append_instruction_cb,
    append_address_annotation_cb=_default_append_address_annotation_cb,
):
    """Machine code (a sequence of instructions, as `bytes`) as assembly text, one instruction
    a line. Stops at the first bytes comgr cannot decode, saying so in a comment line."""
    state = _DisassemblyUserData(to_bytes(program))
    state.append_address_annotation = append_address_annotation
    holder = ctypes.py_object(state)
    info = comgr_check(
        _c.amd_comgr_create_disassembly_info(
            to_bytes(_isa_name(isa_name)),
            _address(read_memory_cb),
            _address(append_instruction_cb),
            _address(append_address_annotation_cb),
        )
    )
    try:
        at, size = 0, ctypes.c_uint64(0)
        while at < len(state.program):
            (status,) = _c.amd_comgr_disassemble_instruction(
                info, at, ctypes.addressof(holder), ctypes.byref(size)
            )
            if status != _c.amd_comgr_status_s.AMD_COMGR_STATUS_SUCCESS or size.value == 0:
                state.disassembly.append(f"; cannot decode the bytes from offset {at:#x} on")
                break
            at += size.value
    finally:
        _c.amd_comgr_destroy_disassembly_info(info)
    return "\n".join(state.disassembly) + "\n"


def _get_code_symbol_bytes(code_obj, symbols, symbol_name):
    """The bytes of a function or object symbol of `code_obj` (`symbols`: parse_code_symbols)."""
    if symbol_name not in symbols:
        raise KeyError(f"no symbol named '{symbol_name}' in the code object")
    symbol = symbols[symbol_name]
    if symbol.get("nobits"):
        raise ValueError(f"symbol '{symbol_name}' occupies no bytes in the file (zero-filled memory)")
    if symbol.get("code_object_offset") is None:
        raise ValueError(f"symbol '{symbol_name}' has no location in the code object (not an executable?)")
    offset = symbol["code_object_offset"]
    return bytes(code_obj[offset : offset + symbol["size"]])


def disassemble_code_obj_function(code_obj, isa_name, func_name=None, append_address_annotation=False):
    """A kernel's or device function's instructions in an executable code object, as text;
    the first function if `func_name` is None."""
    symbols = parse_code_symbols(code_obj, len(code_obj))
    if not func_name:
        func_name = next((name for name, s in symbols.items() if s["type"] == "FUNC"), None)
        if func_name is None:
            raise KeyError("no function in the code object")
    program = _get_code_symbol_bytes(code_obj, symbols, func_name)
    return disassemble_program(isa_name, program, append_address_annotation)


def dump_metadata_yaml(metadata_dict):
    """Parsed code object metadata (`parse_code_obj_metadata`) as the YAML document that an
    `.amdgpu_metadata` block holds."""
    lines = []
    _yaml_map(metadata_dict, 0, lines)
    return "".join(line + "\n" for line in lines)


# Metadata keys whose values are booleans; comgr hands every leaf over as a string, and some
# comgr releases write booleans as 0/1.
_YAML_BOOLEANS = frozenset(
    (
        ".uses_dynamic_stack",
        ".workgroup_processor_mode",
        ".is_const",
        ".is_restrict",
        ".is_volatile",
        ".is_pipe",
    )
)
_YAML_PLAIN = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-+:$/ ()<>*")


def _yaml_scalar(key, value):
    if value is None:
        return "~"
    text = str(value)
    if key in _YAML_BOOLEANS and text in ("0", "1"):
        return "true" if text == "1" else "false"
    # Plain when YAML reads it back as the same string (or number); quoted otherwise.
    plain = (
        text
        and set(text) <= _YAML_PLAIN
        and text[0] not in "-:*<>() "
        and text[-1] != " "
        and ": " not in text
    )
    return text if plain else "'" + text.replace("'", "''") + "'"


def _yaml_map(mapping, indent, lines, first_prefix=None):
    for i, (key, value) in enumerate(mapping.items()):
        lead = first_prefix if (i == 0 and first_prefix is not None) else " " * indent
        if isinstance(value, dict):
            lines.append(f"{lead}{key}:")
            _yaml_map(value, indent + 2, lines)
        elif isinstance(value, list):
            lines.append(f"{lead}{key}:")
            _yaml_list(value, indent + 2, lines, key)
        else:
            lines.append(f"{lead}{key}: {_yaml_scalar(key, value)}")


def _yaml_list(items, indent, lines, key=None):
    for item in items:
        if isinstance(item, dict) and item:
            _yaml_map(item, indent + 2, lines, first_prefix=" " * indent + "- ")
        elif isinstance(item, list):
            lines.append(" " * indent + "-")
            _yaml_list(item, indent + 2, lines, key)
        else:
            lines.append(" " * indent + f"- {_yaml_scalar(key, item)}")


def _code_object_version(code_obj):
    """The AMDHSA code object version an ELF header records (EI_OSABI 64, HSA: EI_ABIVERSION
    0-4 are versions 2-6), or None."""
    if len(code_obj) > 8 and code_obj[:4] == b"\x7fELF" and code_obj[7] == 64:
        return code_obj[8] + 2
    return None


def disassemble_amdhsa_code_obj_v6_kernel(
    code_obj, isa_name, kernel_name=None, append_address_annotation=False, raw=False
):
    """A kernel of an executable code object as assembly source that assembles back into it:
    the instructions, the `.amdhsa_kernel` descriptor block (see amd_hsa_kernel_descriptor)
    and the kernel's metadata. Only the instructions with `raw=True`. The first kernel of the
    metadata if `kernel_name` is None. Despite the name, any code object version from 4 on:
    the text states the version the object's ELF header records.
    """
    code_obj = bytes(code_obj)
    metadata = parse_code_obj_metadata(code_obj, len(code_obj))
    kernels = metadata.get("amdhsa.kernels", [])
    names = [k[".name"] for k in kernels]
    if kernel_name is None:
        if not names:
            raise RuntimeError("the code object's metadata declares no kernel")
        kernel_name = names[0]
    elif kernel_name not in names:
        raise RuntimeError(f"no kernel '{kernel_name}' is declared in the code object's metadata")
    symbols = parse_code_symbols(code_obj, len(code_obj))
    instructions = disassemble_program(
        isa_name, _get_code_symbol_bytes(code_obj, symbols, kernel_name), append_address_annotation
    )
    if raw:
        return instructions
    isa_name = _isa_name(isa_name)
    descriptor = amd_hsa_kernel_descriptor.parse_amdgpu_code_obj_kernel_descriptor(
        _get_code_symbol_bytes(code_obj, symbols, kernel_name + ".kd"), isa_name
    )
    header = (
        f'.amdgcn_target "{isa_name}"\n'
        f".amdhsa_code_object_version {_code_object_version(code_obj) or 6}\n"
        ".text\n"
        f".protected {kernel_name}\n"
        f".globl {kernel_name}\n"
        ".p2align 8\n"
        f".type {kernel_name},@function\n"
    )
    own_metadata = dict(metadata)
    own_metadata["amdhsa.kernels"] = [k for k in kernels if k[".name"] == kernel_name]
    return (
        textwrap.indent(header, "\t")
        + f"{kernel_name}:\n"
        + textwrap.indent(instructions, "\t")
        + f"\t.size {kernel_name}, .-{kernel_name}\n"  # else the reassembled symbol has size 0
        + textwrap.indent(descriptor.render_amdhsa_kernel_directive(kernel_name), "\t")
        + "\n\t.amdgpu_metadata\n---\n"
        + dump_metadata_yaml(own_metadata)
        + "...\n\t.end_amdgpu_metadata\n"
    )


def disassemble_via_action_deprecated(
    code_obj, isa_name, logging=False, action_kind="DISASSEMBLE_EXECUTABLE_TO_SOURCE"
):
    """A code object disassembled by comgr's DISASSEMBLE_* action (deprecated from ROCm 7.1):
    `(text bytes, log, diagnostic)`."""
    kinds = {
        "DISASSEMBLE_EXECUTABLE_TO_SOURCE": "EXECUTABLE",
        "DISASSEMBLE_RELOCATABLE_TO_SOURCE": "RELOCATABLE",
    }
    if action_kind not in kinds:
        raise ValueError(f"action kind '{action_kind}' not supported")
    _, result, log, diagnostic = _do_single_siso_action(
        action_kind,
        Data("gpu-code-obj", kinds[action_kind], code_obj),
        isa_name,
        "HIP",
        "SOURCE",
        [],
        logging,
    )
    return result, log, diagnostic


#: The name AMD's own examples call (`hiprtc_amd_comgr_get_jit_kernel_metadata.py`), which
#: rocm-llvm-python's helpers no longer have.
parse_code_metadata = parse_code_obj_metadata


def __getattr__(name):
    # HIPRTC_RUNTIME_HEADER is read on first access: reading it loads hipRTC's builtins
    # library, which a program that never compiles HIP source should neither pay for nor need.
    if name == "HIPRTC_RUNTIME_HEADER":
        value = get_hiprtc_runtime_header()
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
