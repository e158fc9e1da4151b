#!/usr/bin/env bash
# Builds (once, cached) a small Debian sid root with experimental's ROCm 7.2.4 runtime: its
# libraries need a newer glibc than bookworm's, so the 7.x family's tests run inside it
# (tests/rocm7/run.sh). Needs root and Debian's mirror; about 1 minute and 700 MB.
#
#   tools/rocm7-root.sh [ROOT]        ROOT defaults to .rocm/root-7.2.4
set -euo pipefail
cd "$(dirname "$0")/.."
root=${1:-${HIPGEN_ROCM7_ROOT:-.rocm/root-7.2.4}}
# The runtime, the host-side libraries the tests call (hipSPARSE, hipRAND, hipBLAS, comgr) and
# what the tests themselves need.
packages=(libamdhip64-7 libhiprtc7 libhiprtc-builtins7 libamd-comgr3
  libhipsparse4 libhiprand1 libhipblas3 python3 python3-pytest python3-numpy)
stamp="$root/.packages"
if [ "$(cat "$stamp" 2>/dev/null)" = "${packages[*]}" ]; then
  echo "$root is ready"
  exit 0
fi
sudo_() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
command -v mmdebstrap >/dev/null || {
  sudo_ apt-get update -qq
  sudo_ env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq mmdebstrap >/dev/null
}
uri=$(awk '/^URIs:/{print $2; exit}' /etc/apt/sources.list.d/debian.sources)
key=/usr/share/keyrings/debian-archive-keyring.gpg
# Never remove a root that has something mounted in it (tools/rocm7-run.sh binds the repository).
if grep -q " $(realpath -m "$root")/" /proc/mounts; then
  echo "rocm7-root.sh: $root has mounts (see /proc/mounts); unmount them first" >&2
  exit 1
fi
sudo_ rm -rf "$root"
mkdir -p "$(dirname "$root")"
# The mirror's sid and experimental Release files can be past their Valid-Until date; the
# experimental packages are NotAutomatic, hence the pin through APT::Default-Release.
sudo_ mmdebstrap --variant=apt --include=python3 \
  --aptopt='Acquire::Check-Valid-Until "false"' --aptopt='APT::Default-Release "unstable"' \
  sid "$root" "deb [signed-by=$key] $uri sid main" "deb [signed-by=$key] $uri experimental main"
sudo_ chroot "$root" sh -c "apt-get update -qq -o Acquire::Check-Valid-Until=false &&
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    -o Acquire::Check-Valid-Until=false -t experimental ${packages[*]} >/dev/null &&
  apt-get clean"
echo "${packages[*]}" | sudo_ tee "$stamp" >/dev/null
echo "built $root"
