"""AMDHSA kernel descriptors: the 64-byte `<kernel>.kd` symbols of an AMD GPU code object.

The layout below is transcribed from LLVM 19's `llvm/Support/AMDHSAKernelDescriptor.h`
(struct `kernel_descriptor_t` and its `AMDHSA_BITS_ENUM_ENTRY` bit fields), which LLVM keeps
backwards compatible, so one table serves code objects v4 to v6. Several bits mean different
things on different GPU generations (bit 21 of COMPUTE_PGM_RSRC1 is DX10_CLAMP up to gfx11 and
WG_RR_EN from gfx12), so a descriptor type is made per architecture: `create_type("gfx90a")`
gives a `ctypes` structure whose bit fields are that architecture's, everything else reserved.

`render_amdhsa_kernel_directive` writes the descriptor back as the assembler's `.amdhsa_kernel`
block, so a disassembled kernel can be reassembled; the directive names are the assembler's
(LLVM's AMDGPUUsage, "AMDHSA Kernel Assembler Directives").
"""

import ctypes
import functools
import re
import textwrap

#: The fixed members of `kernel_descriptor_t`, in order: name, ctypes type, byte offset (the
#: header's `*_OFFSET` enum, checked against the structure below).
_MEMBERS = (
    ("group_segment_fixed_size", ctypes.c_uint32, 0),
    ("private_segment_fixed_size", ctypes.c_uint32, 4),
    ("kernarg_size", ctypes.c_uint32, 8),
    ("reserved0", ctypes.c_uint8 * 4, 12),
    ("kernel_code_entry_byte_offset", ctypes.c_int64, 16),
    ("reserved1", ctypes.c_uint8 * 20, 24),
    ("compute_pgm_rsrc3", ctypes.c_uint32, 44),  # GFX10+ and GFX90A+
    ("compute_pgm_rsrc1", ctypes.c_uint32, 48),
    ("compute_pgm_rsrc2", ctypes.c_uint32, 52),
    ("kernel_code_properties", ctypes.c_uint16, 56),
    ("kernarg_preload", ctypes.c_uint16, 58),
    ("reserved3", ctypes.c_uint8 * 4, 60),
)

# One line per AMDHSA_BITS_ENUM_ENTRY of the header: the member it packs into, the targets its
# macro's suffix names (COMPUTE_PGM_RSRC1_GFX6_GFX11(...) -> GFX6_GFX11; the plain macro ->
# ALL), the field, its shift and width. Kept in the header's own notation so that a new LLVM
# release can be compared line by line.
_BITS = """
compute_pgm_rsrc1 ALL GRANULATED_WORKITEM_VGPR_COUNT 0 6
compute_pgm_rsrc1 ALL GRANULATED_WAVEFRONT_SGPR_COUNT 6 4
compute_pgm_rsrc1 ALL PRIORITY 10 2
compute_pgm_rsrc1 ALL FLOAT_ROUND_MODE_32 12 2
compute_pgm_rsrc1 ALL FLOAT_ROUND_MODE_16_64 14 2
compute_pgm_rsrc1 ALL FLOAT_DENORM_MODE_32 16 2
compute_pgm_rsrc1 ALL FLOAT_DENORM_MODE_16_64 18 2
compute_pgm_rsrc1 ALL PRIV 20 1
compute_pgm_rsrc1 GFX6_GFX11 ENABLE_DX10_CLAMP 21 1
compute_pgm_rsrc1 GFX12_PLUS ENABLE_WG_RR_EN 21 1
compute_pgm_rsrc1 ALL DEBUG_MODE 22 1
compute_pgm_rsrc1 GFX6_GFX11 ENABLE_IEEE_MODE 23 1
compute_pgm_rsrc1 GFX12_PLUS DISABLE_PERF 23 1
compute_pgm_rsrc1 ALL BULKY 24 1
compute_pgm_rsrc1 ALL CDBG_USER 25 1
compute_pgm_rsrc1 GFX6_GFX8 RESERVED0 26 1
compute_pgm_rsrc1 GFX9_PLUS FP16_OVFL 26 1
compute_pgm_rsrc1 ALL RESERVED1 27 2
compute_pgm_rsrc1 GFX6_GFX9 RESERVED2 29 3
compute_pgm_rsrc1 GFX10_PLUS WGP_MODE 29 1
compute_pgm_rsrc1 GFX10_PLUS MEM_ORDERED 30 1
compute_pgm_rsrc1 GFX10_PLUS FWD_PROGRESS 31 1
compute_pgm_rsrc2 ALL ENABLE_PRIVATE_SEGMENT 0 1
compute_pgm_rsrc2 ALL USER_SGPR_COUNT 1 5
compute_pgm_rsrc2 GFX6_GFX11 ENABLE_TRAP_HANDLER 6 1
compute_pgm_rsrc2 GFX12_PLUS RESERVED1 6 1
compute_pgm_rsrc2 ALL ENABLE_SGPR_WORKGROUP_ID_X 7 1
compute_pgm_rsrc2 ALL ENABLE_SGPR_WORKGROUP_ID_Y 8 1
compute_pgm_rsrc2 ALL ENABLE_SGPR_WORKGROUP_ID_Z 9 1
compute_pgm_rsrc2 ALL ENABLE_SGPR_WORKGROUP_INFO 10 1
compute_pgm_rsrc2 ALL ENABLE_VGPR_WORKITEM_ID 11 2
compute_pgm_rsrc2 ALL ENABLE_EXCEPTION_ADDRESS_WATCH 13 1
compute_pgm_rsrc2 ALL ENABLE_EXCEPTION_MEMORY 14 1
compute_pgm_rsrc2 ALL GRANULATED_LDS_SIZE 15 9
compute_pgm_rsrc2 ALL ENABLE_EXCEPTION_IEEE_754_FP_INVALID_OPERATION 24 1
compute_pgm_rsrc2 ALL ENABLE_EXCEPTION_FP_DENORMAL_SOURCE 25 1
compute_pgm_rsrc2 ALL ENABLE_EXCEPTION_IEEE_754_FP_DIVISION_BY_ZERO 26 1
compute_pgm_rsrc2 ALL ENABLE_EXCEPTION_IEEE_754_FP_OVERFLOW 27 1
compute_pgm_rsrc2 ALL ENABLE_EXCEPTION_IEEE_754_FP_UNDERFLOW 28 1
compute_pgm_rsrc2 ALL ENABLE_EXCEPTION_IEEE_754_FP_INEXACT 29 1
compute_pgm_rsrc2 ALL ENABLE_EXCEPTION_INT_DIVIDE_BY_ZERO 30 1
compute_pgm_rsrc2 ALL RESERVED0 31 1
compute_pgm_rsrc3 GFX90A ACCUM_OFFSET 0 6
compute_pgm_rsrc3 GFX90A RESERVED0 6 10
compute_pgm_rsrc3 GFX90A TG_SPLIT 16 1
compute_pgm_rsrc3 GFX90A RESERVED1 17 15
compute_pgm_rsrc3 GFX10_GFX11 SHARED_VGPR_COUNT 0 4
compute_pgm_rsrc3 GFX12_PLUS RESERVED0 0 4
compute_pgm_rsrc3 GFX10 RESERVED1 4 8
compute_pgm_rsrc3 GFX11 INST_PREF_SIZE 4 6
compute_pgm_rsrc3 GFX11 TRAP_ON_START 10 1
compute_pgm_rsrc3 GFX11 TRAP_ON_END 11 1
compute_pgm_rsrc3 GFX12_PLUS INST_PREF_SIZE 4 8
compute_pgm_rsrc3 GFX10_PLUS RESERVED2 12 1
compute_pgm_rsrc3 GFX10_GFX11 RESERVED3 13 1
compute_pgm_rsrc3 GFX12_PLUS GLG_EN 13 1
compute_pgm_rsrc3 GFX10_PLUS RESERVED4 14 17
compute_pgm_rsrc3 GFX10 RESERVED5 31 1
compute_pgm_rsrc3 GFX11_PLUS IMAGE_OP 31 1
kernel_code_properties ALL ENABLE_SGPR_PRIVATE_SEGMENT_BUFFER 0 1
kernel_code_properties ALL ENABLE_SGPR_DISPATCH_PTR 1 1
kernel_code_properties ALL ENABLE_SGPR_QUEUE_PTR 2 1
kernel_code_properties ALL ENABLE_SGPR_KERNARG_SEGMENT_PTR 3 1
kernel_code_properties ALL ENABLE_SGPR_DISPATCH_ID 4 1
kernel_code_properties ALL ENABLE_SGPR_FLAT_SCRATCH_INIT 5 1
kernel_code_properties ALL ENABLE_SGPR_PRIVATE_SEGMENT_SIZE 6 1
kernel_code_properties ALL RESERVED0 7 3
kernel_code_properties ALL ENABLE_WAVEFRONT_SIZE32 10 1
kernel_code_properties ALL USES_DYNAMIC_STACK 11 1
kernel_code_properties ALL RESERVED1 12 4
kernarg_preload ALL LENGTH 0 7
kernarg_preload ALL OFFSET 7 9
"""

# The assembler's directives: directive, the field it sets (None: computed, see
# _computed_directives), the targets that accept it. "ARCH_FS"/"NO_ARCH_FS": targets with and
# without architected flat scratch (the assembler refuses the other kind's directives).
_DIRECTIVES = (
    (".amdhsa_group_segment_fixed_size", "group_segment_fixed_size", "ALL"),
    (".amdhsa_private_segment_fixed_size", "private_segment_fixed_size", "ALL"),
    (".amdhsa_kernarg_size", "kernarg_size", "ALL"),
    (".amdhsa_user_sgpr_count", "user_sgpr_count", "ALL"),
    (".amdhsa_user_sgpr_private_segment_buffer", "enable_sgpr_private_segment_buffer", "NO_ARCH_FS"),
    (".amdhsa_user_sgpr_dispatch_ptr", "enable_sgpr_dispatch_ptr", "ALL"),
    (".amdhsa_user_sgpr_queue_ptr", "enable_sgpr_queue_ptr", "ALL"),
    (".amdhsa_user_sgpr_kernarg_segment_ptr", "enable_sgpr_kernarg_segment_ptr", "ALL"),
    (".amdhsa_user_sgpr_dispatch_id", "enable_sgpr_dispatch_id", "ALL"),
    (".amdhsa_user_sgpr_flat_scratch_init", "enable_sgpr_flat_scratch_init", "NO_ARCH_FS"),
    (".amdhsa_user_sgpr_kernarg_preload_length", "kernarg_preload_spec_length", "GFX90A"),
    (".amdhsa_user_sgpr_kernarg_preload_offset", "kernarg_preload_spec_offset", "GFX90A"),
    (".amdhsa_user_sgpr_private_segment_size", "enable_sgpr_private_segment_size", "ALL"),
    (".amdhsa_wavefront_size32", "enable_wavefront_size32", "GFX10_PLUS"),
    (".amdhsa_uses_dynamic_stack", "uses_dynamic_stack", "ALL"),
    (".amdhsa_system_sgpr_private_segment_wavefront_offset", "enable_private_segment", "NO_ARCH_FS"),
    (".amdhsa_enable_private_segment", "enable_private_segment", "ARCH_FS"),
    (".amdhsa_system_sgpr_workgroup_id_x", "enable_sgpr_workgroup_id_x", "ALL"),
    (".amdhsa_system_sgpr_workgroup_id_y", "enable_sgpr_workgroup_id_y", "ALL"),
    (".amdhsa_system_sgpr_workgroup_id_z", "enable_sgpr_workgroup_id_z", "ALL"),
    (".amdhsa_system_sgpr_workgroup_info", "enable_sgpr_workgroup_info", "ALL"),
    (".amdhsa_system_vgpr_workitem_id", "enable_vgpr_workitem_id", "ALL"),
    (".amdhsa_next_free_vgpr", None, "ALL"),
    (".amdhsa_next_free_sgpr", None, "ALL"),
    (".amdhsa_accum_offset", None, "GFX90A"),
    (".amdhsa_reserve_vcc", None, "ALL"),
    (".amdhsa_reserve_flat_scratch", None, "GFX7_PLUS NO_ARCH_FS"),
    (".amdhsa_reserve_xnack_mask", None, "GFX8_PLUS"),
    (".amdhsa_float_round_mode_32", "float_round_mode_32", "ALL"),
    (".amdhsa_float_round_mode_16_64", "float_round_mode_16_64", "ALL"),
    (".amdhsa_float_denorm_mode_32", "float_denorm_mode_32", "ALL"),
    (".amdhsa_float_denorm_mode_16_64", "float_denorm_mode_16_64", "ALL"),
    (".amdhsa_dx10_clamp", "enable_dx10_clamp", "GFX6_GFX11"),
    (".amdhsa_ieee_mode", "enable_ieee_mode", "GFX6_GFX11"),
    (".amdhsa_round_robin_scheduling", "enable_wg_rr_en", "GFX12_PLUS"),
    (".amdhsa_fp16_overflow", "fp16_ovfl", "GFX9_PLUS"),
    (".amdhsa_tg_split", "tg_split", "GFX90A"),
    (".amdhsa_workgroup_processor_mode", "wgp_mode", "GFX10_PLUS"),
    (".amdhsa_memory_ordered", "mem_ordered", "GFX10_PLUS"),
    (".amdhsa_forward_progress", "fwd_progress", "GFX10_PLUS"),
    (".amdhsa_shared_vgpr_count", "shared_vgpr_count", "GFX10_GFX11"),
    (".amdhsa_exception_fp_ieee_invalid_op", "enable_exception_ieee_754_fp_invalid_operation", "ALL"),
    (".amdhsa_exception_fp_denorm_src", "enable_exception_fp_denormal_source", "ALL"),
    (".amdhsa_exception_fp_ieee_div_zero", "enable_exception_ieee_754_fp_division_by_zero", "ALL"),
    (".amdhsa_exception_fp_ieee_overflow", "enable_exception_ieee_754_fp_overflow", "ALL"),
    (".amdhsa_exception_fp_ieee_underflow", "enable_exception_ieee_754_fp_underflow", "ALL"),
    (".amdhsa_exception_fp_ieee_inexact", "enable_exception_ieee_754_fp_inexact", "ALL"),
    (".amdhsa_exception_int_div_zero", "enable_exception_int_divide_by_zero", "ALL"),
)

_ARCH = re.compile(r"gfx(\d+)([0-9a-f]{2})$")


def split_amdgpu_arch(amdgpu_arch):
    """`gfx90a` -> (9, 0x0a); `gfx1030` -> (10, 0x30). Accepts an ISA name too
    (`amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-`): the target features are dropped."""
    arch = _split_target(amdgpu_arch)[0]
    m = _ARCH.match(arch)
    if not m:
        raise ValueError(f"not an AMD GPU architecture of the form gfx<major><minor>: {amdgpu_arch!r}")
    return int(m.group(1)), int(m.group(2), 16)


def _has_gfx90a_insts(major, minor):
    # gfx90a and the gfx94x/gfx950 line; not gfx90c, an older APU despite its larger minor.
    return major == 9 and (minor == 0x0A or minor >= 0x40)


def _has_architected_flat_scratch(major, minor):
    # gfx94x/gfx950 and gfx11 on: the assembler refuses the flat-scratch-setup directives there.
    return (major == 9 and minor >= 0x40) or major >= 11


def _supports_xnack(major, minor):
    # The targets whose target ID takes xnack+/xnack- (AMDGPUUsage's processor table).
    return major == 9 or (major == 8 and minor in (0x01, 0x10)) or (major == 10 and minor < 0x30)


def _split_target(amdgpu_arch, features=()):
    """`amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-` -> ("gfx90a", ("sramecc+", "xnack-"))."""
    arch, *in_name = str(amdgpu_arch).rsplit("--", 1)[-1].split(":")
    return arch, tuple(in_name) + tuple(f for f in features if f not in in_name)


def _applies(targets, major, minor):
    """Whether every word of `targets` (the header's macro suffixes, plus ARCH_FS/NO_ARCH_FS)
    holds for the architecture."""
    for word in targets.split():
        if word == "ALL":
            ok = True
        elif word == "GFX90A":
            ok = _has_gfx90a_insts(major, minor)
        elif word in ("ARCH_FS", "NO_ARCH_FS"):
            ok = _has_architected_flat_scratch(major, minor) == (word == "ARCH_FS")
        elif m := re.fullmatch(r"GFX(\d+)_GFX(\d+)", word):
            ok = int(m.group(1)) <= major <= int(m.group(2))
        elif m := re.fullmatch(r"GFX(\d+)_PLUS", word):
            ok = major >= int(m.group(1))
        elif m := re.fullmatch(r"GFX(\d+)", word):
            ok = major == int(m.group(1))
        else:
            raise AssertionError(f"unknown target label {word!r}")
        if not ok:
            return False
    return True


def _bit_entries():
    """(member, targets, field name, shift, width) for each line of _BITS."""
    for line in _BITS.strip().splitlines():
        member, targets, name, shift, width = line.split()
        field = name.lower()
        if member == "kernarg_preload":
            field = "kernarg_preload_spec_" + field  # LENGTH/OFFSET alone would be ambiguous
        yield member, targets, field, int(shift), int(width)


def _fields_of(member, ctype, major, minor):
    """The ctypes bit fields of one packed member for an architecture, gaps and reserved
    bits named `_reserved_<member>_<shift>`; and the names that carry meaning."""
    bits = ctypes.sizeof(ctype) * 8
    used = sorted(
        (shift, width, field)
        for m, targets, field, shift, width in _bit_entries()
        if m == member and not field.startswith("reserved") and _applies(targets, major, minor)
    )
    fields, names, at = [], [], 0
    for shift, width, field in used:
        assert shift >= at, f"overlapping fields in {member}: {field}"
        if shift > at:
            fields.append((f"_reserved_{member}_{at}", ctype, shift - at))
        fields.append((field, ctype, width))
        names.append(field)
        at = shift + width
    if at < bits:
        fields.append((f"_reserved_{member}_{at}", ctype, bits - at))
    return fields, names


#: The members split into bit fields.
_PACKED = tuple(sorted({member for member, *_ in _bit_entries()}))


class _KernelDescriptorBase(ctypes.LittleEndianStructure):
    """What every per-architecture descriptor type has; `create_type` makes the subclasses."""

    _amdgpu_arch = None
    _features = ()
    _properties = ()

    @classmethod
    def properties(cls):
        """The names of the fields that mean something on this architecture, in layout order."""
        yield from cls._properties

    @property
    def amdgpu_arch(self):
        return self._amdgpu_arch

    def as_dict(self):
        """The meaningful fields as a dict (arrays as `bytes`)."""
        result = {}
        for name in self.properties():
            value = getattr(self, name)
            result[name] = bytes(value) if isinstance(value, ctypes.Array) else value
        return result

    def registers(self):
        """The packed members as whole integers (`compute_pgm_rsrc1`, ...)."""
        raw = bytes(self)
        return {
            name: int.from_bytes(raw[offset : offset + ctypes.sizeof(ctype)], "little")
            for name, ctype, offset in _MEMBERS
            if name.startswith(("compute_pgm_rsrc", "kernel_code_properties", "kernarg_preload"))
        }

    def _computed_directives(self):
        """Values of the directives the descriptor holds only in derived form.

        The descriptor keeps granulated register counts, not the `.amdhsa_next_free_*` and
        `.amdhsa_reserve_*` values they were computed from. As LLVM's disassembler does, VCC and
        flat scratch are taken as unreserved and the next-free counts chosen to give the same
        granulated values, so the reassembled descriptor is the same; except that from gfx10 on
        the assembler always writes GRANULATED_WAVEFRONT_SGPR_COUNT as 0 (the hardware ignores
        it there), where a compiler may have written more.
        """
        major, minor = split_amdgpu_arch(self._amdgpu_arch)
        wave32 = bool(getattr(self, "enable_wavefront_size32", 0)) and major >= 10
        # Encoding granules (LLVM's IsaInfo::get{S,V}GPREncodingGranule): 8 SGPRs; VGPRs in 8s
        # on gfx90a-like targets and in wave32, otherwise in 4s.
        vgpr_granule = 8 if _has_gfx90a_insts(major, minor) or wave32 else 4
        # The assembler insists that .amdhsa_reserve_xnack_mask agrees with the target ID: set
        # unless the target says xnack- (or cannot have XNACK at all).
        xnack = _supports_xnack(major, minor) and "xnack-" not in self._features
        # SGPRs the assembler adds to .amdhsa_next_free_sgpr before granulating (LLVM's
        # IsaInfo::getNumExtraSGPRs with VCC and flat scratch unreserved): none from gfx10 on
        # (the count is not encoded) or before gfx8; on gfx8/gfx9 6 with architected flat
        # scratch, 4 with the XNACK mask. Subtracted so that the sum granulates as before.
        extra = 0
        if 8 <= major <= 9:
            extra = 6 if _has_architected_flat_scratch(major, minor) else 4 if xnack else 0
        values = {
            ".amdhsa_next_free_vgpr": (self.granulated_workitem_vgpr_count + 1) * vgpr_granule,
            ".amdhsa_next_free_sgpr": (self.granulated_wavefront_sgpr_count + 1) * 8 - extra,
            ".amdhsa_reserve_vcc": 0,
            ".amdhsa_reserve_flat_scratch": 0,
            ".amdhsa_reserve_xnack_mask": int(xnack),
        }
        if _has_gfx90a_insts(major, minor):
            # ACCUM_OFFSET holds (first AccVGPR / 4) - 1.
            values[".amdhsa_accum_offset"] = (self.accum_offset + 1) * 4
        return values

    def render_amdhsa_kernel_directive(self, kernel_name, guess_next_free_sgpr_etc=True, indent="\t"):
        """The descriptor as the assembler's `.amdhsa_kernel` block, in `.rodata`.

        With `guess_next_free_sgpr_etc` (the default) the directives the assembler requires but
        the descriptor holds only derived (`.amdhsa_next_free_vgpr/sgpr`, `.amdhsa_reserve_*`,
        `.amdhsa_accum_offset`) are written with values giving the same descriptor, marked
        "; guessed value". Meaningful fields no directive sets are written as comments when
        non-zero (the assembler writes zero there).
        """
        major, minor = split_amdgpu_arch(self._amdgpu_arch)
        computed = self._computed_directives() if guess_next_free_sgpr_etc else {}
        lines, covered = [], {"kernel_code_entry_byte_offset"}  # the assembler computes it
        for directive, field, targets in _DIRECTIVES:
            if not _applies(targets, major, minor):
                continue
            if field is None:
                if directive in computed:
                    lines.append(f"{directive} {computed[directive]} ; guessed value")
                continue
            covered.add(field)
            lines.append(f"{directive} {getattr(self, field)}")
        if _has_gfx90a_insts(major, minor):
            covered.add("accum_offset")
        covered.update(("granulated_workitem_vgpr_count", "granulated_wavefront_sgpr_count"))
        for field in self.properties():
            if field not in covered and getattr(self, field):
                lines.append(f"; {field} {getattr(self, field)} (no directive sets it)")
        body = textwrap.indent("\n".join(lines), indent)
        return (
            '.section .rodata,"a",@progbits\n'
            ".p2align 6, 0x0\n"
            f".amdhsa_kernel {kernel_name}\n{body}\n.end_amdhsa_kernel\n"
        )


class AMDHSAKernelDescriptor:
    """Makes the per-architecture descriptor types (a namespace, as in AMD's API)."""

    @staticmethod
    def create_type(amdgpu_arch, features=()):
        """The `ctypes` structure of a kernel descriptor for `amdgpu_arch` (`gfx90a`, or an ISA
        name such as `amdgcn-amd-amdhsa--gfx90a:xnack-`, whose features join `features`). The
        features matter to rendering only: `xnack-` clears `.amdhsa_reserve_xnack_mask`."""
        return _create_type(*_split_target(amdgpu_arch, features))

    @staticmethod
    def get_possible_field_names(remove_prefix=True):
        """Every field name some architecture has (the fixed members and the bit fields;
        `remove_prefix` is AMD's signature: these names have no register prefix)."""
        names = {name for name, _, _ in _MEMBERS if not name.startswith(_PACKED + ("reserved",))}
        names.update(f for _, _, f, _, _ in _bit_entries() if not f.startswith("reserved"))
        return sorted(names)


@functools.cache
def _create_type(arch, features):
    major, minor = split_amdgpu_arch(arch)
    fields, names = [], []
    for name, ctype, _ in _MEMBERS:
        if name in _PACKED:
            packed, meaningful = _fields_of(name, ctype, major, minor)
            fields += packed
            names += meaningful
        else:
            fields.append((name, ctype))
            if not name.startswith("reserved"):
                names.append(name)
    cls = type(
        f"KernelDescriptor_{arch}",
        (_KernelDescriptorBase,),
        {
            "_fields_": fields,
            "_amdgpu_arch": arch,
            "_features": features,
            "_properties": tuple(names),
            "__doc__": f"AMDHSA kernel descriptor for {arch}: `from_buffer_copy(kd_bytes)`.",
        },
    )
    assert ctypes.sizeof(cls) == 64, ctypes.sizeof(cls)
    for name, _, offset in _MEMBERS:
        if name not in _PACKED:
            assert getattr(cls, name).offset == offset, name
    return cls


def parse_amdgpu_code_obj_kernel_descriptor(code_symbol, amdgpu_arch):
    """The kernel descriptor in `code_symbol` (the 64 bytes of a `<kernel>.kd` symbol) as the
    `ctypes` structure of `amdgpu_arch` (`gfx90a`, or an ISA name with its target features)."""
    data = bytes(code_symbol)
    if len(data) != 64:
        raise ValueError(f"a kernel descriptor is 64 bytes, got {len(data)}")
    return AMDHSAKernelDescriptor.create_type(amdgpu_arch).from_buffer_copy(data)
