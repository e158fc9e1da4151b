#!/usr/bin/env bash
# Runs the root's python3 inside the ROCm 7.2.4 root (tools/rocm7-root.sh) with the wheels
# build_pkgs.sh wrote (dist/: hip-python, hip-python-as-cuda, rocm-llvm-python, the same files a
# user installs) unpacked onto its path, and this repository at the same path as here, so that
# tests run against ROCm 7.2.4's real runtime.
#
#   tools/rocm7-run.sh -m pytest -q tests/test_hiprtc.py     (arguments are python3's)
#
# HIPGEN_IN_ROOT=7.2.4 inside tells tests/conftest.py not to pin the release the way the
# bookworm session does: the wheel chooses by itself, as on a user's machine.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
root=$(realpath -m "${HIPGEN_ROCM7_ROOT:-${HIPGEN_ROCM_DIR:-$repo/.rocm}/root-7.2.4}")
dist=${HIPGEN_DIST:-$repo/dist}
[ -f "$root/.packages" ] || { echo "rocm7-run.sh: no root at $root: run tools/rocm7-root.sh" >&2; exit 2; }
[ "$(id -u)" = 0 ] || { echo "rocm7-run.sh: chroot needs root" >&2; exit 2; }

# abi3 wheels unpacked onto PYTHONPATH are what `pip install` would put there.
rm -rf "$root/opt/hipgen"
mkdir -p "$root/opt/hipgen" "$root$repo"
wheels=("$dist"/hip_python-*.whl "$dist"/hip_python_as_cuda-*.whl "$dist"/rocm_llvm_python-*.whl)
for wheel in "${wheels[@]}"; do
  [ -f "$wheel" ] || { echo "rocm7-run.sh: $wheel missing: run ./build_pkgs.sh" >&2; exit 2; }
  python3 -m zipfile -e "$wheel" "$root/opt/hipgen"
done
mount --bind "$repo" "$root$repo"
trap 'umount "$root$repo"' EXIT
chroot "$root" env -i PATH=/usr/bin:/bin HOME=/root LANG=C.UTF-8 PYTHONPATH=/opt/hipgen \
  PYTHONDONTWRITEBYTECODE=1 HIPGEN_IN_ROOT=7.2.4 sh -c 'cd "$0" && exec python3 "$@"' "$repo" "$@"
