"""hipgen on the headers of other ROCm releases: trixie's 5.7.1 and bookworm's 5.2.3."""

import subprocess
from pathlib import Path

import pytest

from conftest import REPO, ROCM, load_ir

ROCM_ROOT = ROCM.parent.parent
HIPGEN = REPO / "target" / "release" / "hipgen"


@pytest.fixture(scope="module")
def hipgen():
    subprocess.run(["cargo", "build", "-q", "--release", "-p", "hipgen"], cwd=REPO, check=True)
    return HIPGEN


def generate(hipgen, release, libs, out):
    include = ROCM_ROOT / release / "usr" / "include"
    if not include.exists():
        pytest.fail(f"{include} missing: run tools/setup.sh")
    subprocess.run(
        [
            str(hipgen),
            "generate",
            "--include",
            str(include),
            "--release",
            release,
            "--out",
            str(out),
            "--libs",
            libs,
        ],
        cwd=REPO,
        check=True,
        capture_output=True,
    )
    return out / f"rocm-{release}"


def exported(soname):
    """Symbols the installed (bookworm) library exports."""
    lib = next(Path("/usr/lib").rglob(soname))
    out = subprocess.run(["nm", "-D", "--defined-only", str(lib)], capture_output=True, text=True, check=True)
    return {line.split()[-1].split("@")[0] for line in out.stdout.splitlines() if line.strip()}


@pytest.fixture(scope="module")
def release_523(hipgen, tmp_path_factory):
    return generate(hipgen, "5.2.3", "hip,hiprtc,hipsparse,hiprand", tmp_path_factory.mktemp("gen"))


@pytest.mark.parametrize(
    "lib, installed",
    [("hip", "libamdhip64.so.5"), ("hipsparse", "libhipsparse.so.0"), ("hiprand", "libhiprand.so.1")],
)
def test_523_symbols_exist_in_the_installed_523_libraries(release_523, lib, installed):
    """Bindings generated from bookworm's headers match bookworm's real libraries."""
    ir = load_ir(lib, release_523)
    symbols = {f["symbol"] for f in ir["functions"] if not any(s["name"] == f["name"] for s in ir["skipped"])}
    missing = symbols - exported(installed)
    assert len(symbols) > {"hip": 300, "hipsparse": 400, "hiprand": 20}[lib]
    # Declared in the 5.2.3 headers, not exported by the 5.2.3 runtime (calls raise HipLoadError).
    known = {
        "hipGraphKernelNodeGetAttribute",
        "hipGraphKernelNodeSetAttribute",
        "hipLaunchHostFunc",
        "hipTexRefGetMipMappedArray",
    }
    assert missing == (known if lib == "hip" else set())


def test_523_has_no_r0600_renames(release_523):
    ir = load_ir("hip", release_523)
    props = next(f for f in ir["functions"] if f["name"] == "hipGetDeviceProperties")
    assert props["symbol"] == "hipGetDeviceProperties"


def test_hiprand_523_uses_its_cplusplus_spec(release_523):
    ir = load_ir("hiprand", release_523)
    assert {s["name"] for s in ir["skipped"]} == {"hiprandGenerateNormalHalf", "hiprandGenerateLogNormalHalf"}
    assert any(f["name"] == "hiprandCreateGenerator" for f in ir["functions"])


def test_diff_between_571_and_643(hipgen, tmp_path):
    old = generate(hipgen, "5.7.1", "hip", tmp_path)
    out = subprocess.run(
        [str(hipgen), "diff", str(old / "hip.ir.json.gz"), str(REPO / "bindings/rocm-6.4.3/hip.ir.json.gz")],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert out.startswith("hip: ROCm 5.7.1 -> 6.4.3")
    assert "[hipGetDeviceProperties] -> " in out and "[hipGetDevicePropertiesR0600]" in out
    assert "~ hipDeviceProp_t: size 792 -> 1472" in out
    assert "  + hipDrvGraphAddMemFreeNode" in out
    for section in ("functions:", "enums:", "records:"):
        assert f"\n{section}" in out


def test_build_pkgs_never_builds_another_release_than_asked(tmp_path):
    # A release without bindings is an error before anything is built, not a wheel built
    # silently from 6.4.3's bindings.
    out = subprocess.run(
        ["bash", str(REPO / "build_pkgs.sh"), "--release", "9.9.9", "--no-install", "--out", str(tmp_path)],
        capture_output=True,
        text=True,
        cwd=REPO,
    )
    assert out.returncode == 2
    assert "no bindings for ROCm 9.9.9" in out.stderr and "--regenerate" in out.stderr
    assert not list(tmp_path.iterdir())
