"""AMDHSA kernel descriptors: the 64-byte `<kernel>.kd` symbols of an AMD GPU code object.

The layout is LLVM's `llvm/Support/AMDHSAKernelDescriptor.h` of the release, as hipgen reads
it into `rocm.amd_comgr.amdhsa`: the members of `kernel_descriptor_t` (names, offsets, types)
and the bit fields its `AMDHSA_BITS_ENUM_ENTRY` constants give
(`<REGISTER>[_<TARGETS>]_<FIELD>_SHIFT` and `_WIDTH`). LLVM keeps the descriptor backwards
compatible, so one header serves code objects v4 to v6. Several bits mean different things on
different GPU generations (bit 21 of COMPUTE_PGM_RSRC1 is DX10_CLAMP up to gfx11 and WG_RR_EN
from gfx12, as the constants' target labels say), so a descriptor type is made per
architecture: `create_type("gfx90a")` gives a `ctypes` structure whose bit fields are that
architecture's, everything else reserved.

`render_amdhsa_kernel_directive` writes the descriptor back as the assembler's `.amdhsa_kernel`
block, so a disassembled kernel can be reassembled; the directive names are the assembler's
(LLVM's AMDGPUUsage, "AMDHSA Kernel Assembler Directives").
"""

import ctypes
import functools
import re
import textwrap

from rocm.amd_comgr import amdhsa as _header

# The macro each packed member's bit fields are written with (the header names a member's
# fields by its register, `KERNEL_CODE_PROPERTY_*` for `kernel_code_properties`).
_REGISTERS = {
    "compute_pgm_rsrc1": "COMPUTE_PGM_RSRC1",
    "compute_pgm_rsrc2": "COMPUTE_PGM_RSRC2",
    "compute_pgm_rsrc3": "COMPUTE_PGM_RSRC3",
    "kernel_code_properties": "KERNEL_CODE_PROPERTY",
    "kernarg_preload": "KERNARG_PRELOAD_SPEC",
}
# A constant's target label: `GFX90A`, `GFX10`, `GFX6_GFX11`, `GFX12_PLUS`, `GFX125` (gfx12.5).
_LABEL = r"GFX90A|GFX\d+(?:_GFX\d+|_PLUS)?"
_UNSIGNED = {1: ctypes.c_uint8, 2: ctypes.c_uint16, 4: ctypes.c_uint32, 8: ctypes.c_uint64}
_SIGNED = {1: ctypes.c_int8, 2: ctypes.c_int16, 4: ctypes.c_int32, 8: ctypes.c_int64}


def _members():
    """(name, ctypes type, byte offset) of each member of `kernel_descriptor_t`, in order."""
    record = _header.kernel_descriptor_t
    fields = (getattr(record, name) for name in record.PROPERTIES())
    out = []
    for field in sorted(fields, key=lambda f: f.offset):
        size, signed, count = field.int_layout
        ctype = (_SIGNED if signed else _UNSIGNED)[size]
        out.append((field.name, ctype * count if count > 1 else ctype, field.offset))
    return tuple(out)


def _bits():
    """(member, target label, field, shift, width) of each bit field the header defines."""
    constants = vars(_header)
    out = []
    for member, register in _REGISTERS.items():
        pattern = re.compile(rf"{register}_(?:({_LABEL})_)?(\w+)_SHIFT$")
        for name, shift in constants.items():
            m = pattern.match(name)
            if m:
                label, field = m.group(1) or "ALL", m.group(2)
                width = constants[name[: -len("SHIFT")] + "WIDTH"]
                out.append((member, label, field, int(shift), int(width)))
    return tuple(out)


#: The members of `kernel_descriptor_t`: name, ctypes type, byte offset.
_MEMBERS = _members()
#: The header's bit fields: member, target label, field, shift, width.
_BITS = _bits()

# The assembler's directives: directive, the field it sets (None: computed, see
# _guessed_directives and _derived_directives), the targets that accept it. "ARCH_FS" and
# "NO_ARCH_FS": targets with and without architected flat scratch (the assembler refuses the
# other kind's directives).
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


def _version(number, upper=False):
    """A target label's GFX number as (major, sub): `GFX10` is gfx10 (any sub-family, the
    lowest where it starts a range, the highest where it ends one), `GFX120` gfx12.0 and
    `GFX125` gfx12.5 (gfx1250's family)."""
    if number >= 100:
        return number // 10, number % 10
    return number, 15 if upper else 0


def _applies(targets, major, minor):
    """Whether every word of `targets` (the header's target labels, plus ALL and
    ARCH_FS/NO_ARCH_FS) holds for the architecture."""
    # gfx12 and later are told apart by the minor's first digit: gfx1250 is gfx12.5.
    arch = (major, minor >> 4 if major >= 12 else 0)
    for word in targets.split():
        if word == "ALL":
            ok = True
        elif word == "GFX90A":
            ok = _has_gfx90a_insts(major, minor)
        elif word in ("ARCH_FS", "NO_ARCH_FS"):
            ok = _has_architected_flat_scratch(major, minor) == (word == "ARCH_FS")
        elif m := re.fullmatch(r"GFX(\d+)_GFX(\d+)", word):
            ok = _version(int(m.group(1))) <= arch <= _version(int(m.group(2)), upper=True)
        elif m := re.fullmatch(r"GFX(\d+)_PLUS", word):
            ok = arch >= _version(int(m.group(1)))
        elif m := re.fullmatch(r"GFX(\d+)", word):
            n = int(m.group(1))
            ok = arch == _version(n) if n >= 100 else major == n
        else:
            raise ValueError(f"unknown target label {word!r} in the kernel descriptor header")
        if not ok:
            return False
    return True


def _bit_entries():
    """(member, targets, field name, shift, width) of each bit field of the header."""
    for member, targets, name, shift, width in _BITS:
        field = name.lower()
        if member == "kernarg_preload":
            field = "kernarg_preload_spec_" + field  # LENGTH/OFFSET alone would be ambiguous
        yield member, targets, field, shift, width


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

    def _guessed_directives(self):
        """Values of the directives the descriptor holds only in derived form, as LLVM's
        disassembler and AMD's rocm-llvm-python write them.

        The descriptor keeps granulated register counts, not the `.amdhsa_next_free_*` and
        `.amdhsa_reserve_*` values they were computed from: the next-free counts are the
        granules' ends, VCC and flat scratch unreserved. The XNACK mask is written only where
        the target names `xnack+` or `xnack-` (the assembler derives it from the target ID
        otherwise, and refuses a value that disagrees with it).
        """
        major, minor = split_amdgpu_arch(self._amdgpu_arch)
        wave32 = bool(getattr(self, "enable_wavefront_size32", 0)) and major >= 10
        # Encoding granules (LLVM's IsaInfo::get{S,V}GPREncodingGranule): 8 SGPRs; VGPRs in 8s
        # on gfx90a-like targets and in wave32, otherwise in 4s.
        vgpr_granule = 8 if _has_gfx90a_insts(major, minor) or wave32 else 4
        values = {
            ".amdhsa_next_free_vgpr": (self.granulated_workitem_vgpr_count + 1) * vgpr_granule,
            ".amdhsa_next_free_sgpr": (self.granulated_wavefront_sgpr_count + 1) * 8,
            ".amdhsa_reserve_vcc": 0,
            ".amdhsa_reserve_flat_scratch": 0,
        }
        xnack = [f for f in self._features if f.lstrip(":") in ("xnack+", "xnack-")]
        if xnack and _supports_xnack(major, minor):
            values[".amdhsa_reserve_xnack_mask"] = int(xnack[-1].lstrip(":") == "xnack+")
        return values

    def _derived_directives(self):
        """Values of the directives computed from a field: `.amdhsa_accum_offset`, from
        ACCUM_OFFSET, which holds (first AccVGPR / 4) - 1 on gfx90a-like targets."""
        major, minor = split_amdgpu_arch(self._amdgpu_arch)
        if not _has_gfx90a_insts(major, minor):
            return {}
        return {".amdhsa_accum_offset": (self.accum_offset + 1) * 4}

    def render_amdhsa_kernel_directive(self, kernel_name, guess_next_free_sgpr_etc=True, indent="\t"):
        """The descriptor as the assembler's `.amdhsa_kernel` block, in `.rodata`.

        With `guess_next_free_sgpr_etc` (the default) the directives the assembler requires but
        the descriptor holds only derived (`.amdhsa_next_free_vgpr/sgpr`, `.amdhsa_reserve_*`)
        are written with the values LLVM's disassembler writes, marked "; guessed value".
        Meaningful fields no directive sets are written as comments when non-zero (the
        assembler writes zero there).
        """
        major, minor = split_amdgpu_arch(self._amdgpu_arch)
        guessed = self._guessed_directives() if guess_next_free_sgpr_etc else {}
        derived = self._derived_directives()
        lines, covered = [], {"kernel_code_entry_byte_offset"}  # the assembler computes it
        for directive, field, targets in _DIRECTIVES:
            if not _applies(targets, major, minor):
                continue
            if field is None:
                if directive in derived:
                    lines.append(f"{directive} {derived[directive]}")
                elif directive in guessed:
                    lines.append(f"{directive} {guessed[directive]} ; guessed value")
                continue
            covered.add(field)
            lines.append(f"{directive} {getattr(self, field)}")
        if derived:
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
