"""`cuda.bindings.nvml` over ROCm SMI: cuda-python's NVML conventions (values returned,
`NvmlError` subclasses by return code, integer handles) on the real librocm_smi64.

On bookworm's session the 5.x bindings have no rocm_smi: every call says so. Inside 7.2.4's
root (tools/rocm-run.sh 7.2.4 -m pytest tests/test_nvml.py) the library is there: with no GPU
its init fails as the driver's absence, and in a child process whose /sys is the tree of one
GPU (tests/amdgpu_sysfs.py) each call answers what rocm-smi reads there, in NVML's units.
"""

import json
import os
import pickle
import subprocess
import sys

import amdgpu_sysfs
import pytest

from conftest import IN_ROOT

nvml = pytest.importorskip("cuda.bindings.nvml")

in_7_root = pytest.mark.skipif(
    not (IN_ROOT or "").startswith("7."), reason="needs ROCm 7's rocm_smi: tools/rocm-run.sh 7.2.4"
)


def test_errors_are_nvml_return_codes_with_cuda_pythons_classes():
    err = nvml.NotSupportedError(3, "why")
    assert isinstance(err, nvml.NvmlError) and err.status == nvml.Return.ERROR_NOT_SUPPORTED
    assert str(err) == "Not Supported (why)"
    again = pickle.loads(pickle.dumps(err))
    assert type(again) is nvml.NotSupportedError and str(again) == str(err)
    assert nvml.error_string(nvml.Return.ERROR_UNINITIALIZED) == "Uninitialized"
    assert issubclass(nvml.DriverNotLoadedError, nvml.NvmlError)
    assert nvml.EnableState.FEATURE_ENABLED == 1 and nvml.ComputeMode.COMPUTEMODE_EXCLUSIVE_PROCESS == 3
    assert nvml.TemperatureSensors.TEMPERATURE_GPU == 0


def test_calls_before_init_are_uninitialized_and_other_names_say_so():
    with pytest.raises(nvml.UninitializedError):
        nvml.device_get_count_v2()
    with pytest.raises(nvml.UninitializedError):
        nvml.shutdown()
    with pytest.raises(AttributeError, match="not provided over ROCm SMI"):
        nvml.device_get_nvlink_state  # noqa: B018
    with pytest.raises(TypeError, match="device handle"):
        nvml.device_get_name("0")


@pytest.mark.skipif(bool(IN_ROOT), reason="the bookworm session's 5.x bindings")
def test_without_rocm_smi_init_names_the_library():
    with pytest.raises(nvml.LibraryNotFoundError, match="rocm_smi") as raised:
        nvml.init_v2()
    assert raised.value.status == nvml.Return.ERROR_LIBRARY_NOT_FOUND


@in_7_root
def test_without_a_gpu_init_is_the_driver_not_loaded():
    with pytest.raises(nvml.DriverNotLoadedError, match="rsmi_init returned RSMI_STATUS_INIT_ERROR"):
        nvml.init_v2()
    assert nvml.system_get_nvml_version().count(".") == 2  # the library answers without a GPU


# Run in a child: the GPU's /sys is mounted in that process's own mount namespace.
CHILD = """
import json, sys
import amdgpu_sysfs
amdgpu_sysfs.mounted()
from cuda.bindings import nvml
out = {}
def ask(name, *args, key=None):
    try:
        value = getattr(nvml, name)(*args)
    except nvml.NvmlError as e:
        value = {"error": type(e).__name__, "status": e.status}
    if hasattr(value, "__slots__"):
        value = {n: getattr(value, n) for n in value.__slots__}
    out[key or name] = value
nvml.init_v2()
nvml.init_v2()  # reference counted, as NVML's
ask("device_get_count_v2")
h = nvml.device_get_handle_by_index_v2(0)
out["handle"] = h
for name in ("device_get_name", "device_get_serial", "device_get_vbios_version", "device_get_uuid",
             "device_get_index", "device_get_minor_number", "device_get_pci_info_v3",
             "device_get_persistence_mode", "device_get_display_active", "device_get_ecc_mode",
             "device_get_fan_speed", "device_get_performance_state", "device_get_power_usage",
             "device_get_power_management_limit", "device_get_enforced_power_limit",
             "device_get_power_management_default_limit",
             "device_get_power_management_limit_constraints", "device_get_memory_info_v2",
             "device_get_bar1_memory_info", "device_get_utilization_rates", "device_get_compute_mode",
             "device_get_total_energy_consumption"):
    ask(name, h)
ask("device_get_temperature_v", h, nvml.TemperatureSensors.TEMPERATURE_GPU)
ask("device_get_clock_info", h, nvml.ClockType.CLOCK_GRAPHICS)
ask("device_get_max_clock_info", h, nvml.ClockType.CLOCK_SM)
ask("device_get_clock_info", h, nvml.ClockType.CLOCK_VIDEO, key="video_clock")
out["by_bus_id"] = nvml.device_get_handle_by_pci_bus_id_v2("0000:03:00.0")
out["by_uuid"] = nvml.device_get_handle_by_uuid(out["device_get_uuid"])
ask("device_get_handle_by_index_v2", 1, key="index_1")
ask("device_get_name", 0, key="name_of_0")
ask("system_get_driver_version")
nvml.shutdown()
ask("device_get_name", h, key="after_one_shutdown")  # one init still holds
nvml.shutdown()
ask("device_get_count_v2", key="after_both")
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def one_gpu():
    if os.geteuid() != 0:
        pytest.skip("mounting a /sys of one GPU needs root")
    env = dict(
        os.environ, PYTHONPATH=os.pathsep.join([os.path.dirname(__file__), os.environ.get("PYTHONPATH", "")])
    )
    run = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True, env=env, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    return json.loads(run.stdout.strip().splitlines()[-1])


@in_7_root
def test_one_gpu_reads_as_nvml_reports_it(one_gpu):
    gpu, got = amdgpu_sysfs.GPU, one_gpu
    assert got["device_get_count_v2"] == 1
    assert got["device_get_name"] == gpu["product_name"]
    assert got["device_get_serial"] == gpu["serial_number"]
    assert got["device_get_vbios_version"] == gpu["vbios_version"]
    assert got["device_get_uuid"] == f"GPU-{gpu['unique_id']:016x}"
    assert got["device_get_index"] == 0 and got["device_get_minor_number"] == gpu["render_minor"]
    assert got["by_bus_id"] == got["by_uuid"] == got["handle"]
    assert got["device_get_pci_info_v3"] == {
        "bus_id_legacy": "0000:03:00.0",
        "bus_id": "00000000:03:00.0",
        "domain": 0,
        "bus": 3,
        "device_": 0,
        "pci_device_id": gpu["device_id"] << 16 | gpu["vendor"],
        "pci_sub_system_id": gpu["subsystem_device"] << 16 | gpu["subsystem_vendor"],
    }
    # °C, percent, mW, bytes, MHz: NVML's units from the kernel's.
    assert got["device_get_temperature_v"] == gpu["temp_edge_milli"] // 1000
    assert got["device_get_fan_speed"] == round(gpu["pwm"] * 100 / gpu["pwm_max"])
    assert got["device_get_power_usage"] == gpu["power_average_uw"] // 1000
    for name in ("device_get_power_management_limit", "device_get_enforced_power_limit"):
        assert got[name] == gpu["power_cap_uw"] // 1000
    assert got["device_get_power_management_default_limit"] == gpu["power_cap_default_uw"] // 1000
    assert got["device_get_power_management_limit_constraints"] == [
        gpu["power_cap_min_uw"] // 1000,
        gpu["power_cap_max_uw"] // 1000,
    ]
    assert got["device_get_memory_info_v2"] == {
        "version": 2 << 24 | 40,
        "total": gpu["vram_total"],
        "reserved": 0,
        "free": gpu["vram_total"] - gpu["vram_used"],
        "used": gpu["vram_used"],
    }
    assert got["device_get_bar1_memory_info"] == {
        "bar1_total": gpu["vis_vram_total"],
        "bar1_free": gpu["vis_vram_total"] - gpu["vis_vram_used"],
        "bar1_used": gpu["vis_vram_used"],
    }
    assert got["device_get_utilization_rates"] == {
        "gpu": gpu["busy_percent"],
        "memory": gpu["mem_busy_percent"],
    }
    assert got["device_get_max_clock_info"] == max(gpu["sclk_mhz"])
    # P0 is the top graphics clock level; the fixture runs one below it.
    assert got["device_get_performance_state"] == len(gpu["sclk_mhz"]) - 1 - gpu["sclk_current"]
    assert got["device_get_ecc_mode"] == [1, 1]
    assert got["device_get_compute_mode"] == nvml.ComputeMode.COMPUTEMODE_DEFAULT
    assert got["system_get_driver_version"] == gpu["driver_version"]


@in_7_root
def test_one_gpu_refuses_what_it_lacks_and_bad_handles(one_gpu):
    got = one_gpu
    for name in ("device_get_persistence_mode", "device_get_display_active"):
        assert got[name] == {"error": "NotSupportedError", "status": 3}
    # rocm-smi reads energy from gpu_metrics, which the tree lacks; the video clock has no
    # rocm-smi counterpart.
    assert got["device_get_total_energy_consumption"]["error"] == "NotSupportedError"
    assert got["device_get_clock_info"] == amdgpu_sysfs.GPU["sclk_mhz"][amdgpu_sysfs.GPU["sclk_current"]]
    assert got["video_clock"] == {"error": "NotSupportedError", "status": 3}
    assert got["index_1"] == {"error": "InvalidArgumentError", "status": 2}
    assert got["name_of_0"] == {"error": "InvalidArgumentError", "status": 2}
    assert got["after_one_shutdown"] == amdgpu_sysfs.GPU["product_name"]
    assert got["after_both"] == {"error": "UninitializedError", "status": 1}
