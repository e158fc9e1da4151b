#!/usr/bin/env bash
# Unpacks numba-hip 0.2.1 (AMD's Numba backend, from PyPI) with the numba, llvmlite and NumPy
# it runs with into a release's Debian root (tools/rocm-root.sh), at /opt/numba-hip, for
# tests/test_numba_hip.py. Wheels for the root's own Python, installed with --no-deps as a
# user of our packages would (`pip install --no-deps numba-hip`): none of AMD's packages.
# numba-hip 0.2.1 asks for numba < 0.64, which asks for NumPy <= 2.3.
#
#   tools/numba-hip-env.sh 7.2.4
set -euo pipefail
cd "$(dirname "$0")/.."
release=${1:?usage: tools/numba-hip-env.sh RELEASE}
root=${HIPGEN_ROCM_DIR:-.rocm}/root-$release
dest=$root/opt/numba-hip
wanted="numba-hip==0.2.1 numba==0.63.1 llvmlite==0.46.0 numpy==2.3.5 clang==19.1.7"
pyver=$(chroot "$root" python3 -c 'import sys; print(f"{sys.version_info[0]}.{sys.version_info[1]}")')
stamp="$dest/.wheels"
if [ "$(cat "$stamp" 2>/dev/null)" = "$pyver $wanted" ]; then
  echo "$dest is ready"
  exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck disable=SC2086 # the names are separate arguments
python3 -m pip download -q --disable-pip-version-check --no-deps --only-binary=:all: -d "$tmp" \
  --python-version "$pyver" --implementation cp --platform manylinux_2_28_x86_64 \
  --platform manylinux_2_27_x86_64 --platform manylinux_2_17_x86_64 --platform manylinux2014_x86_64 \
  $wanted
rm -rf "$dest"
mkdir -p "$dest"
for wheel in "$tmp"/*.whl; do
  python3 -m zipfile -e "$wheel" "$dest"
done
echo "$pyver $wanted" >"$stamp"
echo "numba-hip for Python $pyver in $dest"
