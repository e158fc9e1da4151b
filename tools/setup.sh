#!/usr/bin/env bash
# Installs what building and testing need on a Debian 12 machine: libclang (for the
# generator), bookworm's HIP 5.2.3 runtime (hiprtc and comgr compile for real without a GPU),
# each release's ROCm headers and libraries from the Debian suite its release file names
# (unpacked, not installed: they are what the bindings are generated from and checked
# against), and a Python venv with the tools.
set -euo pipefail
cd "$(dirname "$0")/.."
ROCM_DIR=${HIPGEN_ROCM_DIR:-.rocm}

sudo_() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
packages=(libclang-15-dev gcc g++ binutils python3-venv
          libamdhip64-5 libamdhip64-dev libamd-comgr2 libhiprtc-builtins5 rocm-device-libs
          libhipsparse0 libhipsparse-dev libhiprand1 libhiprand-dev
          llvm-19-dev libllvm19 libllvm15  # LLVM C API: headers and the library that runs it
          libegl-dev  # EGL's types, which CUDA's EGL interop headers use
          libdrm-dev)  # drm.h, which rocm_smi's kfd_ioctl.h includes
if ! dpkg -s "${packages[@]}" >/dev/null 2>&1; then
  sudo_ apt-get update -qq
  sudo_ env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    "${packages[@]}" >/dev/null
fi

# Each release's headers (-dev) and the libraries the symbol checks read, unpacked from the
# Debian suite and packages its release file names (generator/specs/releases/*.yaml
# `headers`; a new release is one release file): experimental's 7.2.4 (the default bindings;
# its runtime also in tools/rocm-root.sh), sid's 6.4.3, trixie's 5.7.1, bookworm's 5.2.3.
cargo build -q --release -p hipgen
./target/release/hipgen releases --headers | while read -r release suite packages; do
  dest=$ROCM_DIR/$release
  if [ "$(cat "$dest/.packages" 2>/dev/null)" != "$packages" ]; then
    rm -rf "$dest"
    # shellcheck disable=SC2086  # the packages, one word each
    bash tools/debian-rocm.sh "$suite" "$dest" $packages </dev/null
    echo "$packages" >"$dest/.packages"
  fi
done

# CUDA's headers of each cuda-bindings major version, from NVIDIA's wheels (headers only, by
# HTTP range reads: ~5 MB): hipgen reads cuda-python's calling conventions there
# (generator/specs/cuda.yaml `conventions`).
CUDA_DIR=${HIPGEN_CUDA_DIR:-.cuda}
fetch_cuda() {
  local dest=$1; shift
  if [ "$(cat "$dest/.headers" 2>/dev/null)" != "$*" ]; then
    python3 tools/cuda_headers.py "$dest" "$@"
    echo "$*" >"$dest/.headers"
  fi
}
fetch_cuda "$CUDA_DIR/12" nvidia-cuda-runtime-cu12==12.9.79 nvidia-cuda-nvrtc-cu12==12.9.86 \
  nvidia-cuda-nvcc-cu12==12.9.86
fetch_cuda "$CUDA_DIR/13" nvidia-cuda-runtime==13.5.37 nvidia-cuda-nvrtc==13.5.37 nvidia-cuda-crt==13.5.37 \
  nvidia-cuda-profiler-api==13.5.25

if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
fi
.venv/bin/pip install -q --disable-pip-version-check maturin ziglang auditwheel pytest numpy ruff mypy cython \
  'clang==19.1.7'  # rocm-llvm-python's dependency (libclang's Python API), installed with --no-deps
# Packages a program may import beside ours (tests/test_neighbours.py), each in a folder of its
# own under .venv/neighbours with what it needs beyond .venv's NumPy, not in .venv itself:
# NVIDIA's cuda-bindings has the paths of our cuda.bindings. ~330 MB of wheels, seconds to
# install; torch is left out (its Linux wheel on PyPI comes with ~3 GB of CUDA libraries).
neighbour() {
  local dest=.venv/neighbours/$1; shift
  if [ "$(cat "$dest/.packages" 2>/dev/null)" != "$*" ]; then
    rm -rf "$dest"
    if .venv/bin/pip install -q --disable-pip-version-check --no-deps --no-compile --target "$dest" "$@"; then
      echo "$*" >"$dest/.packages"
    else
      rm -rf "$dest"
      echo "$1 does not install here: tests/test_neighbours.py skips it"
    fi
  fi
}
neighbour numba numba==0.68.1 llvmlite==0.50.0
neighbour jax jax==0.10.2 jaxlib==0.10.2 ml_dtypes==0.6.0 opt_einsum==3.4.0 scipy==1.17.1
neighbour cupy cupy-cuda12x==14.2.0 fastrlock==0.8.4 cuda-pathfinder==1.9.0 nvidia-cuda-runtime-cu12==12.9.79
neighbour cuda-core cuda-core==1.2.2 cuda-pathfinder==1.9.0
neighbour nvidia-cuda cuda-bindings==13.5.0 cuda-core==1.2.2 cuda-pathfinder==1.9.0
# A free-threaded CPython (built once from Debian's source package and cached; see
# tools/freethreaded-python.sh) and a venv of it, where build_pkgs.sh --freethreaded installs
# the free-threaded wheels and tools/test.sh runs the suite with the GIL off.
ft_python=$(bash tools/freethreaded-python.sh)
if [ ! -x .venv-ft/bin/python ] || ! .venv-ft/bin/python -c 'import sys; sys.exit(sys._is_gil_enabled())'; then
  rm -rf .venv-ft
  "$ft_python" -m venv .venv-ft
fi
# Wheels only: NumPy's newest releases ship none for CPython 3.13t, and building one from its
# source takes ten minutes here; 2.4.6 is the newest with a cp313t wheel.
.venv-ft/bin/pip install -q --disable-pip-version-check --only-binary=:all: pytest numpy==2.4.6 cython \
  setuptools 'clang==19.1.7'
# AMD's hip-python 6.4.3 in a venv of its own: tests run hip-python's documented idioms under
# it and under ours and compare (tests/idioms.py). Its hiprtc loads `libhiprtc.so`, which ROCm 5
# keeps inside libamdhip64: a link in .venv-anchor/lib stands for it.
if [ ! -x .venv-anchor/bin/python ]; then
  python3 -m venv .venv-anchor
fi
if .venv-anchor/bin/pip install -q --disable-pip-version-check hip-python==6.4.3.555.40 numpy; then
  mkdir -p .venv-anchor/hiprtc
  amdhip=$(ls /usr/lib/x86_64-linux-gnu/libamdhip64.so.5 2>/dev/null || true)
  [ -n "$amdhip" ] && ln -sf "$amdhip" .venv-anchor/hiprtc/libhiprtc.so
else
  echo "hip-python 6.4.3 does not install here: the comparison with it is skipped"
fi
# A Debian root with the runtime of each shipped release whose release file names one (7.2.4
# from experimental, 6.4.3 from sid): their libraries need a newer glibc than bookworm's, so
# each family's runtime tests run inside its root (tools/rocm-run.sh, tests/test_runtime_root.py).
if [ "$(id -u)" = 0 ]; then
  for release in $(python3 tools/manifest.py runtimes); do
    bash tools/rocm-root.sh "$release" "$ROCM_DIR/root-$release"
  done
  # numba-hip 0.2.1 (AMD's Numba backend) wants ROCm 7.2's runtime: the default release's root.
  default=$(python3 tools/manifest.py default)
  if [[ " $(python3 tools/manifest.py runtimes | tr '\n' ' ') " == *" $default "* ]]; then
    HIPGEN_ROCM_DIR=$ROCM_DIR bash tools/numba-hip-env.sh "$default"
  fi
else
  echo "not root: no ROCm runtime roots (tools/rocm-root.sh needs chroot); their tests will not run"
fi
echo "setup done: headers in $ROCM_DIR/<release>, venv in .venv"
