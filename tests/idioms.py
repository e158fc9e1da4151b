"""hip-python's documented idioms, each a snippet whose observable result both packages must
give: the user guide's and API manual's ways of calling (hip._util.types, dim3, C strings,
handles, hiprtc), run against the HIP 5.2.3 runtime here.

Each snippet sets `result` to plain data (str, int, bool, tuples of them); an exception is
observed as its class name. `observe(code)` runs one; run as a script, this module prints
every observation as JSON, which is how tests compare us with the real hip-python 6.4.3
(`python tests/idioms.py` under its interpreter).
"""

import json
import sys

PRELUDE = """
import ctypes, math
from hip import hip, hiprtc
from hip._util.types import Pointer, DeviceArray, CStr, ListOfBytes, ListOfInt
KERNEL = b'extern "C" __global__ void scale(float *x, float f) { x[threadIdx.x] *= f; }'
"""

#: name -> snippet. hip-python's user guide (1_usage, 3_datatypes) and API manual
#: (hip._util.types) are where each one comes from.
IDIOMS = {
    # Results: a tuple, the status first; statuses are enum members.
    "status_is_member": "result = isinstance(hip.hipRuntimeGetVersion()[0], hip.hipError_t)",
    "status_compares": "result = hip.hipRuntimeGetVersion()[0] == hip.hipError_t.hipSuccess",
    "no_device_status": "result = hip.hipGetDeviceCount()[0].name",
    "enum_int": "result = int(hip.hipError_t.hipErrorNoDevice)",
    # C strings returned by functions are CStr: str() gives the text.
    "error_string_str": "result = str(hip.hipGetErrorString(hip.hipError_t.hipErrorNoDevice)[1])",
    "error_string_bytes": (
        "result = bytes(hip.hipGetErrorString(hip.hipError_t.hipErrorNoDevice)[1]).decode()"
    ),
    "error_string_fstring": ("result = f'{hip.hipGetErrorString(hip.hipError_t.hipErrorNoDevice)[1]}'"),
    "error_string_type": ("result = type(hip.hipGetErrorString(hip.hipError_t.hipSuccess)[1]).__name__"),
    "cstr_from_bytes": "c = CStr(b'abcd'); result = (str(c), len(c), bytes(c).decode())",
    "cstr_index": "result = CStr(b'hello')[1]",
    "cstr_slice": "result = CStr(b'hello')[1:3]",
    "cstr_decode": "result = CStr(b'abc').decode()",
    "cstr_from_int_address": (
        "b = ctypes.create_string_buffer(b'xyz'); result = str(CStr(ctypes.addressof(b)))"
    ),
    # dim3: positional and keyword construction, floats truncated, unpacking with *.
    "dim3_keyword": "result = tuple(hip.dim3(x=32))",
    "dim3_float": "n = 100; block = hip.dim3(x=32); result = tuple(hip.dim3(n / block.x))",
    "dim3_ceil": ("n = 100; block = hip.dim3(x=32); result = tuple(hip.dim3(math.ceil(n / block.x)))"),
    "dim3_set_float": "d = hip.dim3(); d.y = 2.9; result = d.y",
    "dim3_unpack": "result = (lambda *a: a)(*hip.dim3(2, 3))",
    "dim3_too_many": "hip.dim3(1, 2, 3, 4)",
    "dim3_unknown_keyword": "hip.dim3(w=1)",
    "dim3_positional_and_keyword": "hip.dim3(1, x=2)",
    "dim3_str": "hip.dim3('1')",
    "dim3_negative": "hip.dim3(-1)",
    "dim3_none": "hip.dim3(None)",
    "dim3_properties": "result = tuple(hip.dim3.PROPERTIES())",
    "dim3_contains": "result = ('x' in hip.dim3(), 'w' in hip.dim3())",
    "struct_sizeof": "result = hip.dim3().c_sizeof()",
    "struct_char_array": "p = hip.hipDeviceProp_t(); result = (type(p.name).__name__, p.name)",
    "struct_nested_default": "p = hip.hipDeviceProp_t(); result = p.maxThreadsDim[0]",
    # Numbers where C wants an integer: floats truncate (Cython's conversion).
    "float_size": (
        "result = hip.hipMalloc(8.0)[0] in (hip.hipError_t.hipErrorInvalidDevice, "
        "hip.hipError_t.hipErrorNoDevice, hip.hipError_t.hipErrorOutOfMemory)"
    ),
    "str_size": "hip.hipMalloc('8')",
    "none_size": "hip.hipMalloc(None)",
    # hip._util.types.Pointer.
    "pointer_none": "p = Pointer(); result = (p.is_ptr_null, int(p), bool(p))",
    "pointer_int": "result = int(Pointer(1234))",
    "pointer_offset": "result = int(Pointer(1000)[24])",
    "pointer_negative_offset": "Pointer(1000)[-1]",
    "pointer_c_void_p": "result = Pointer(77).as_c_void_p().value",
    "pointer_from_c_void_p": "result = int(Pointer(ctypes.c_void_p(99)))",
    "pointer_from_pointer": "result = int(Pointer(Pointer(55)))",
    "pointer_create_ref": (
        "p = Pointer(5); "
        "r = p.createRef(); "
        "result = (r.is_ptr_null, ctypes.c_void_p.from_address(int(r)).value)"
    ),
    "pointer_from_obj_identity": "p = Pointer(5); result = Pointer.fromObj(p) is p",
    "pointer_from_buffer": (
        "b = bytearray(4); result = int(Pointer(b)) == ctypes.addressof(ctypes.c_char.from_buffer(b))"
    ),
    "pointer_bad_type": "Pointer(object())",
    "list_of_bytes": "result = bool(int(ListOfBytes([b'a', b'b'])))",
    "list_of_int": ("l = ListOfInt([1, 2, 3]); result = tuple((ctypes.c_int * 3).from_address(int(l)))"),
    # DeviceArray: configure and sub-arrays.
    "device_array_configure": (
        "a = DeviceArray(Pointer(4096)).configure(_force=True, typestr='float32', shape=(3, 20)); "
        "result = (a.size, a.itemsize, a.typestr, tuple(a.shape))"
    ),
    "device_array_row": (
        "a = DeviceArray(Pointer(4096)).configure(_force=True, typestr='float32', shape=(3, 20)); "
        "r = a[1, :]; "
        "result = (int(r) - 4096, r.size)"
    ),
    "device_array_slice": (
        "a = DeviceArray(Pointer(4096)).configure(_force=True, typestr='float32', shape=(10,)); "
        "r = a[2:5]; "
        "result = (int(r) - 4096, r.size)"
    ),
    "device_array_not_contiguous": (
        "a = DeviceArray(Pointer(4096)).configure(_force=True, typestr='float32', shape=(3, 20)); a[:, 1]"
    ),
    "device_array_cai": (
        "a = DeviceArray(Pointer(4096)).configure(_force=True, typestr='float32', shape=(4,)); "
        "c = a.__cuda_array_interface__; "
        "result = (c['data'][0], tuple(c['shape']), c['typestr'])"
    ),
    # hiprtc, as the user guide's kernel examples run it.
    "hiprtc_create": (
        "err, prog = hiprtc.hiprtcCreateProgram(KERNEL, b'scale', 0, [], []); result = err.name"
    ),
    "hiprtc_compile": (
        "err, prog = hiprtc.hiprtcCreateProgram(KERNEL, b'scale', 0, [], []); "
        "result = hiprtc.hiprtcCompileProgram(prog, 1, [b'--offload-arch=gfx90a'])[0].name"
    ),
    "hiprtc_code": (
        "err, prog = hiprtc.hiprtcCreateProgram(KERNEL, b'scale', 0, [], []); "
        "hiprtc.hiprtcCompileProgram(prog, 1, [b'--offload-arch=gfx90a']); "
        "n = hiprtc.hiprtcGetCodeSize(prog)[1]; "
        "code = bytearray(n); "
        "hiprtc.hiprtcGetCode(prog, code); "
        "result = bytes(code[:4])"
    ),
    "hiprtc_log_on_error": (
        "err, prog = hiprtc.hiprtcCreateProgram(b'syntax error', b'bad', 0, [], []); "
        "err, = hiprtc.hiprtcCompileProgram(prog, 1, [b'--offload-arch=gfx90a']); "
        "n = hiprtc.hiprtcGetProgramLogSize(prog)[1]; "
        "log = bytearray(n); "
        "hiprtc.hiprtcGetProgramLog(prog, log); "
        "result = (err.name, b'error' in log)"
    ),
    "hiprtc_destroy_create_ref": (
        "err, prog = hiprtc.hiprtcCreateProgram(KERNEL, b'scale', 0, [], []); "
        "result = hiprtc.hiprtcDestroyProgram(prog.createRef())[0].name"
    ),
    "hiprtc_lowered_name": (
        "err, "
        "prog = hiprtc.hiprtcCreateProgram(b'template<int N> __global__ void k(int *x) { x[0] = N; "
        "}', b'k', 0, [], []); "
        "hiprtc.hiprtcAddNameExpression(prog, b'k<3>'); "
        "hiprtc.hiprtcCompileProgram(prog, 1, [b'--offload-arch=gfx90a']); "
        "err, name = hiprtc.hiprtcGetLoweredName(prog, b'k<3>'); "
        "result = (err.name, str(name))"
    ),
    # Device queries without a device give the runtime's status.
    "device_properties": ("p = hip.hipDeviceProp_t(); result = hip.hipGetDeviceProperties(p, 0)[0].name"),
    "module_launch_extra": (
        "result = hip.hipModuleLaunchKernel(None, 1, 1, 1, 1, 1, 1, sharedMemBytes=0, "
        "stream=None, kernelParams=None, extra=(ctypes.c_float(1.0), ctypes.c_int(2)))[0].name"
    ),
}

#: Idioms on which we differ from hip-python 6.4.3 on purpose: what we observe instead.
OURS = {
    # hip-python keeps a NumPy type name as given ('float32'), which is no valid
    # __cuda_array_interface__ typestr (CuPy and PyTorch expect '<f4'); ours is the typestr.
    "device_array_cai": ["result", [4096, [4], "<f4"]],
    "device_array_configure": ["result", [60, 4, "<f4", [3, 20]]],
}


def observe(code, namespace=None):
    """Runs `code` after the prelude and returns what it observed, as JSON-able data."""
    ns = {} if namespace is None else namespace
    exec(PRELUDE, ns)
    try:
        exec(code, ns)
    except Exception as e:  # noqa: BLE001 - the exception's class is the observation
        # The nearest built-in class: our HipLoadError is hip-python's RuntimeError.
        builtin = next(c for c in type(e).__mro__ if c.__module__ == "builtins")
        return ["raises", builtin.__name__]
    return ["result", _plain(ns.get("result"))]


def _plain(value):
    """Tuples become lists, bytes become their text with a marker: JSON-able and comparable."""
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    if isinstance(value, bytes):
        return ["bytes", value.decode("latin-1")]
    return value


if __name__ == "__main__":
    names = sys.argv[1:] or list(IDIOMS)
    json.dump({n: observe(IDIOMS[n]) for n in names}, sys.stdout, indent=1, sort_keys=True)
