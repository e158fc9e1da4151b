"""`rocm.comgr`: AMD's code object manager from Python, as AMD's rocm-bindings 10.0 has it.

- the helpers of `rocm.comgr.comgr` (compile HIP to bitcode, bitcode to code objects and
  assembly, read metadata and symbols, disassemble): `compile_hip_to_bc`, `compile_bc`,
  `parse_code_obj_kernel_names`, `disassemble_code_obj_function`, `Data`/`DataSet`/`Action`...;
- the generated bindings `rocm.amd_comgr.amd_comgr` (`amd_comgr_*` functions, enums, handles);
- `amd_hsa_kernel_descriptor`, kernel descriptors read and rendered as assembler directives;
- `HIPRTC_RUNTIME_HEADER`, the hipRTC runtime header's text, read on first access.

`rocm.comgr.comgr` is `rocm.amd_comgr.amd_comgr_pyext` (also `rocm.amd_comgr.amd_comgr.ext`),
rocm-llvm-python's module, where the helpers live.
"""

from rocm.amd_comgr import amd_hsa_kernel_descriptor  # noqa: F401
from rocm.amd_comgr.amd_comgr_pyext import (  # noqa: F401
    Action,
    Data,
    DataSet,
    Symbol,
    compile_bc,
    compile_bc_to_hsa,
    compile_hip_to_bc,
    compile_hip_to_hsa,
    compile_hsa,
    disassemble_amdhsa_code_obj_v6_kernel,
    disassemble_code_obj_function,
    disassemble_program,
    disassemble_via_action_deprecated,
    dump_metadata_yaml,
    get_isa_metadata,
    get_isa_metadata_all,
    get_isa_names,
    parse_code_metadata,
    parse_code_obj_kernel_names,
    parse_code_obj_metadata,
    parse_code_symbols,
    parse_data_metadata,
    parse_data_symbols,
)
from rocm.amd_comgr.hiprtc_header import get_hiprtc_runtime_header, get_hiprtc_runtime_header_origin  # noqa: F401


def __getattr__(name):
    # Read on first access, by the helpers' module (which keeps it), not imported above: that
    # would read the header (a library load) whenever rocm.comgr is imported.
    if name == "HIPRTC_RUNTIME_HEADER":
        from rocm.amd_comgr import amd_comgr_pyext

        return amd_comgr_pyext.HIPRTC_RUNTIME_HEADER
    if name.startswith("__") and name != "__all__":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    # The generated bindings' names (`amd_comgr_*`, as AMD's package has them here), looked up
    # on first use: reading them at import would choose comgr's bindings, loading the library,
    # whenever rocm.comgr is imported.
    from rocm.amd_comgr import amd_comgr

    if name == "__all__":
        own = [n for n in globals() if not n.startswith("_")]
        return own + [n for n in amd_comgr.__all__ if not n.startswith("_") and n not in own]
    try:
        return getattr(amd_comgr, name)
    except AttributeError:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
