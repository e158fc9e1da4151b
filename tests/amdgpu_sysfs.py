"""One AMD GPU as the amdgpu and amdkfd kernel drivers show it in sysfs, for ROCm SMI to read.

rocm-smi (librocm_smi64) is a reader of /sys: the PCI device's attribute files, its hwmon
monitor and KFD's topology. `build(root, gpu)` writes that tree for the values in `gpu` (the
units are the kernel's: µW, millidegrees, bytes, MHz in the DPM tables), so that tests run the
real library against a known GPU on a machine without one. `mounted(gpu)` puts it at /sys in
a private mount namespace of the calling process (root only, Linux), leaving the machine's
/sys as it was for every other process.
"""

from __future__ import annotations

import ctypes
import os

#: The GPU the tests read: an MI210-like board (device 0x740f) at PCI 0000:03:00.0.
GPU = {
    "domain": 0,
    "bus": 3,
    "device": 0,
    "function": 0,
    "vendor": 0x1002,
    "device_id": 0x740F,
    "subsystem_vendor": 0x1002,
    "subsystem_device": 0x0C34,
    "unique_id": 0x5A1B2C3D4E5F6071,
    "serial_number": "692251001234",
    "vbios_version": "113-D67301-063",
    "product_name": "AMD Instinct MI210",
    "card": 0,
    "render_minor": 128,
    "busy_percent": 37,
    "mem_busy_percent": 12,
    "vram_total": 64 << 30,
    "vram_used": 5 << 30,
    "vis_vram_total": 64 << 30,
    "vis_vram_used": 1 << 30,
    "sclk_mhz": [500, 1200, 1700],
    "sclk_current": 1,
    "mclk_mhz": [1600],
    "mclk_current": 0,
    "temp_edge_milli": 45000,
    "temp_junction_milli": 52000,
    "power_average_uw": 151_000_000,
    "power_cap_uw": 300_000_000,
    "power_cap_default_uw": 300_000_000,
    "power_cap_min_uw": 0,
    "power_cap_max_uw": 300_000_000,
    "pwm": 102,
    "pwm_max": 255,
    "ecc_mask": 0x3FFF,
    "driver_version": "6.10.5",
}


def _write(path: str, text: str) -> None:
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def _dpm(mhz: list[int], current: int) -> str:
    return "".join(f"{i}: {f}Mhz{' *' if i == current else ''}\n" for i, f in enumerate(mhz))


def build(root: str, gpu: dict = GPU) -> None:
    """Writes the sysfs tree of `gpu` under `root` (which stands for /sys)."""
    bdf = f"{gpu['domain']:04x}:{gpu['bus']:02x}:{gpu['device']:02x}.{gpu['function']:x}"
    dev = f"{root}/devices/pci{gpu['domain']:04x}:00/{gpu['domain']:04x}:00:01.0/{bdf}"
    files = {
        "vendor": f"{gpu['vendor']:#06x}",
        "device": f"{gpu['device_id']:#06x}",
        "subsystem_vendor": f"{gpu['subsystem_vendor']:#06x}",
        "subsystem_device": f"{gpu['subsystem_device']:#06x}",
        "unique_id": f"{gpu['unique_id']:016x}",
        "serial_number": gpu["serial_number"],
        "vbios_version": gpu["vbios_version"],
        "product_name": gpu["product_name"],
        "gpu_busy_percent": str(gpu["busy_percent"]),
        "mem_busy_percent": str(gpu["mem_busy_percent"]),
        "mem_info_vram_total": str(gpu["vram_total"]),
        "mem_info_vram_used": str(gpu["vram_used"]),
        "mem_info_vis_vram_total": str(gpu["vis_vram_total"]),
        "mem_info_vis_vram_used": str(gpu["vis_vram_used"]),
        "pp_dpm_sclk": _dpm(gpu["sclk_mhz"], gpu["sclk_current"]),
        "pp_dpm_mclk": _dpm(gpu["mclk_mhz"], gpu["mclk_current"]),
        "power_dpm_force_performance_level": "auto",
        "ras/features": f"feature mask: {gpu['ecc_mask']:#x}\n",
    }
    for name, text in files.items():
        _write(f"{dev}/{name}", text + ("" if text.endswith("\n") else "\n"))
    hwmon = f"{dev}/hwmon/hwmon0"
    monitor = {
        "name": "amdgpu",
        "temp1_input": gpu["temp_edge_milli"],
        "temp1_label": "edge",
        "temp2_input": gpu["temp_junction_milli"],
        "temp2_label": "junction",
        "power1_average": gpu["power_average_uw"],
        "power1_cap": gpu["power_cap_uw"],
        "power1_cap_default": gpu["power_cap_default_uw"],
        "power1_cap_min": gpu["power_cap_min_uw"],
        "power1_cap_max": gpu["power_cap_max_uw"],
        "pwm1": gpu["pwm"],
        "pwm1_max": gpu["pwm_max"],
    }
    for name, value in monitor.items():
        _write(f"{hwmon}/{name}", f"{value}\n")
    # The DRM nodes: /sys/class/drm/cardN and renderDN link to the device's drm/ folder.
    for node in (f"card{gpu['card']}", f"renderD{gpu['render_minor']}"):
        os.makedirs(f"{dev}/drm/{node}", exist_ok=True)
        os.symlink(f"../../../{bdf}", f"{dev}/drm/{node}/device")
        os.makedirs(f"{root}/class/drm", exist_ok=True)
        os.symlink(os.path.relpath(f"{dev}/drm/{node}", f"{root}/class/drm"), f"{root}/class/drm/{node}")
        _write(
            f"{dev}/drm/{node}/dev",
            f"226:{gpu['card'] if node.startswith('card') else gpu['render_minor']}\n",
        )
    # KFD's topology: node 0 the CPU, node 1 the GPU (gpu_id nonzero), matched to the DRM
    # device by unique id and PCI location.
    nodes = f"{root}/class/kfd/kfd/topology/nodes"
    location = gpu["bus"] << 8 | gpu["device"] << 3 | gpu["function"]
    for node, gpu_id, props in (
        (
            0,
            0,
            {
                "cpu_cores_count": 16,
                "simd_count": 0,
                "unique_id": 0,
                "location_id": 0,
                "domain": 0,
                "drm_render_minor": 0,
            },
        ),
        (
            1,
            0xB3A1,
            {
                "cpu_cores_count": 0,
                "simd_count": 416,
                "unique_id": gpu["unique_id"],
                "location_id": location,
                "domain": gpu["domain"],
                "drm_render_minor": gpu["render_minor"],
                "vendor_id": gpu["vendor"],
                "device_id": gpu["device_id"],
                "gfx_target_version": 90010,
                "hive_id": 0,
                "simd_arrays_per_engine": 1,
                "array_count": 8,
                "cu_per_simd_array": 13,
            },
        ),
    ):
        _write(f"{nodes}/{node}/gpu_id", f"{gpu_id}\n")
        _write(f"{nodes}/{node}/name", "cpu\n" if gpu_id == 0 else "aldebaran\n")
        _write(f"{nodes}/{node}/properties", "".join(f"{k} {v}\n" for k, v in props.items()))
        os.makedirs(f"{nodes}/{node}/io_links", exist_ok=True)
        os.makedirs(f"{nodes}/{node}/p2p_links", exist_ok=True)
    _write(f"{root}/class/kfd/kfd/topology/generation_id", "1\n")
    _write(f"{root}/module/amdgpu/version", f"{gpu['driver_version']}\n")


def mounted(gpu: dict = GPU) -> None:
    """Mounts a tmpfs at /sys in a new mount namespace of this process and builds `gpu` in it."""
    os.unshare(os.CLONE_NEWNS)
    libc = ctypes.CDLL(None, use_errno=True)
    # Private propagation where / is a mount point (in a chroot it is not: EINVAL, harmless).
    libc.mount(None, b"/", None, 1 << 14 | 1 << 18, None)  # MS_REC | MS_PRIVATE
    if libc.mount(b"tmpfs", b"/sys", b"tmpfs", 0, None) != 0:
        raise OSError(ctypes.get_errno(), "mount tmpfs on /sys")
    build("/sys", gpu)
