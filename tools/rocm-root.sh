#!/usr/bin/env bash
# Builds (once, cached) a small Debian root with one release's ROCm runtime: libraries of
# Debian sid and experimental need a newer glibc than bookworm's, so the 6.x and 7.x families'
# tests run inside such a root (tools/rocm-run.sh). The release file's `runtime:` says which
# suite and packages (generator/specs/releases/<release>.yaml, passed on in its manifest).
# Needs root and Debian's mirror; about 2 minutes and 3 GB (rocBLAS/rocSOLVER kernels).
#
#   tools/rocm-root.sh RELEASE [ROOT]        ROOT defaults to .rocm/root-RELEASE
set -euo pipefail
cd "$(dirname "$0")/.."
release=${1:?usage: tools/rocm-root.sh RELEASE [ROOT]}
root=${2:-${HIPGEN_ROCM_DIR:-.rocm}/root-$release}
{ read -r suite; read -r -a packages; } < <(python3 tools/manifest.py --bindings "bindings/rocm-$release" runtime)
stamp="$root/.packages"
if [ "$(cat "$stamp" 2>/dev/null)" = "$suite ${packages[*]}" ]; then
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
# Never remove a root that has something mounted in it (tools/rocm-run.sh binds the repository).
if grep -q " $(realpath -m "$root")/" /proc/mounts; then
  echo "rocm-root.sh: $root has mounts (see /proc/mounts); unmount them first" >&2
  exit 1
fi
sudo_ rm -rf "$root"
mkdir -p "$(dirname "$root")"
sources=("deb [signed-by=$key] $uri sid main")
[ "$suite" = sid ] || sources+=("deb [signed-by=$key] $uri $suite main")
# The mirror's sid and experimental Release files can be past their Valid-Until date; the
# experimental packages are NotAutomatic, hence the pin through APT::Default-Release.
sudo_ mmdebstrap --variant=apt --include=python3 \
  --aptopt='Acquire::Check-Valid-Until "false"' --aptopt='APT::Default-Release "unstable"' \
  sid "$root" "${sources[@]}"
sudo_ chroot "$root" sh -c "apt-get update -qq -o Acquire::Check-Valid-Until=false &&
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    -o Acquire::Check-Valid-Until=false -t $suite ${packages[*]} >/dev/null &&
  apt-get clean"
echo "$suite ${packages[*]}" | sudo_ tee "$stamp" >/dev/null
echo "built $root"
