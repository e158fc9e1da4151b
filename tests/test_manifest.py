"""The release manifests: hipgen writes one per release from the release files and library
specs, and it alone says which libraries a build has, in which package and order."""

import subprocess

import pytest

from conftest import MANIFEST, REPO, manifest

HIPGEN = REPO / "target" / "release" / "hipgen"


@pytest.fixture(scope="module")
def hipgen():
    subprocess.run(["cargo", "build", "-q", "--release", "-p", "hipgen"], cwd=REPO, check=True)
    return HIPGEN


def test_each_library_comes_after_those_it_needs_and_names_its_package():
    seen = set()
    for lib in MANIFEST["libraries"]:
        assert set(lib["needs"]) <= seen, lib["name"]
        assert lib["package"] in ("hip-python", "hip-python-as-cuda", "rocm-llvm-python")
        seen.add(lib["name"])


def test_the_installed_package_has_the_manifests_modules():
    from hip import _native

    assert list(_native.MODULES) == [lib["name"] for lib in manifest.libraries(MANIFEST, "hip-python")]
    assert _native.ROCM_RELEASE == MANIFEST["release"]


def test_selection_adds_what_a_library_needs_and_refuses_unknown_names():
    assert manifest.select(MANIFEST, "hip-python", "hipblas") == ["hip", "hipblas"]
    nvidia = manifest.select(MANIFEST, "hip-python", "^", platform="nvidia")
    assert "roctx" not in nvidia and "hip" in nvidia
    with pytest.raises(ValueError, match="unknown library 'nope'"):
        manifest.select(MANIFEST, "hip-python", "nope")


def test_a_new_library_is_one_spec_file(hipgen, tmp_path):
    # A tree of the fixture library (generator/tests/fixtures) and a release file; then a
    # library new to it, as one spec file (its header is the library's own): the manifest
    # lists it after the library whose types it uses, and its module is generated.
    import shutil

    fixtures = REPO / "generator" / "tests" / "fixtures"
    include = tmp_path / "include"
    shutil.copytree(fixtures / "include", include)
    (include / "hipnew").mkdir()
    (include / "hipnew" / "hipnew.h").write_text(
        '#include "demo/demo.h"\ndemoStatus_t hipnewScale(demoStream_t stream, float factor);\n'
    )
    specs = tmp_path / "specs"
    (specs / "releases").mkdir(parents=True)
    shutil.copy(fixtures / "demo.yaml", specs / "demo.yaml")
    (specs / "releases" / "1.0.0.yaml").write_text(
        f"release: 1.0.0\ndefault: true\nsource: the fixtures\ninclude: {include}\n"
    )
    (specs / "hipnew.yaml").write_text(
        "kind: library\nname: hipnew\npackage: hip-python\nheaders: [hipnew/hipnew.h]\n"
        "bind_files: ['hipnew/.*']\nimports: [demo]\n"
        "library: {name: hipnew, env: HIPNEW_LIB, sonames: [libhipnew.so]}\n"
    )
    out = tmp_path / "out"
    run = subprocess.run(
        [str(hipgen), "generate", "--release", "1.0.0", "--specs", str(specs), "--out", str(out)],
        cwd=REPO,
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, run.stderr
    made = manifest.load(out / "rocm-1.0.0")
    assert [lib["name"] for lib in made["libraries"]] == ["demo", "hipnew"]
    assert made["libraries"][1]["needs"] == ["demo"]
    assert "hipnewScale" in (out / "rocm-1.0.0" / "hipnew.rs").read_text()
    listed = subprocess.run([str(hipgen), "releases", "--specs", str(specs)], capture_output=True, text=True)
    assert listed.stdout == "1.0.0 default\n"
    # A new release is one release file too: where its headers come from is in it, and
    # tools/setup.sh unpacks what `hipgen releases --headers` lists.
    (specs / "releases" / "1.1.0.yaml").write_text(
        f"release: 1.1.0\nsource: Debian's packages\ninclude: {include}\n"
        "headers: {suite: sid, packages: [libhipnew-dev, libhipnew1]}\n"
    )
    listed = subprocess.run(
        [str(hipgen), "releases", "--headers", "--specs", str(specs)], capture_output=True, text=True
    )
    assert listed.stdout == "1.1.0 sid libhipnew-dev libhipnew1\n"
