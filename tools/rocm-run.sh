#!/usr/bin/env bash
# Runs the root's python3 inside the Debian root of a release's ROCm runtime
# (tools/rocm-root.sh) with the wheels build_pkgs.sh wrote (dist/: hip-python,
# hip-python-as-cuda, rocm-llvm-python, the same files a user installs) unpacked onto its
# path, and this repository at the same path as here, so that tests run against that
# release's real runtime.
#
#   tools/rocm-run.sh 7.2.4 -m pytest -q tests/test_hiprtc.py     (then python3's arguments)
#
# HIPGEN_IN_ROOT=RELEASE inside tells tests/conftest.py not to pin the release the way the
# bookworm session does: the wheel chooses by itself, as on a user's machine.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
release=${1:?usage: tools/rocm-run.sh RELEASE PYTHON-ARGS...}
shift
root=$(realpath -m "${HIPGEN_ROCM_DIR:-$repo/.rocm}/root-$release")
dist=${HIPGEN_DIST:-$repo/dist}
[ -f "$root/.packages" ] || { echo "rocm-run.sh: no root at $root: run tools/rocm-root.sh $release" >&2; exit 2; }
[ "$(id -u)" = 0 ] || { echo "rocm-run.sh: chroot needs root" >&2; exit 2; }

# abi3 wheels unpacked onto PYTHONPATH are what `pip install` would put there.
rm -rf "$root/opt/hipgen"
mkdir -p "$root/opt/hipgen" "$root$repo"
wheels=("$dist"/hip_python-*-abi3-*.whl "$dist"/hip_python_as_cuda-*-abi3-*.whl "$dist"/rocm_llvm_python-*-abi3-*.whl)
for wheel in "${wheels[@]}"; do
  [ -f "$wheel" ] || { echo "rocm-run.sh: $wheel missing: run ./build_pkgs.sh" >&2; exit 2; }
  python3 -m zipfile -e "$wheel" "$root/opt/hipgen"
done
mount --bind "$repo" "$root$repo"
trap 'umount "$root$repo"' EXIT
chroot "$root" env -i PATH=/usr/bin:/bin HOME=/root LANG=C.UTF-8 PYTHONPATH=/opt/hipgen \
  PYTHONDONTWRITEBYTECODE=1 HIPGEN_IN_ROOT="$release" sh -c 'cd "$0" && exec python3 "$@"' "$repo" "$@"
