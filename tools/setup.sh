#!/usr/bin/env bash
# Prepares what building and testing need on a Debian 12 machine, one piece at a time; each
# piece is skipped when it is present and current (a stamp file holds what it was made from).
#
#   tools/setup.sh build      what tools/quickstart.sh needs: the packages that build and run
#                             the wheels and the demo (libclang for the NVIDIA shims, bookworm's
#                             HIP 5.2.3 runtime, hiprtc and comgr), .venv with the build tools,
#                             the headers the NVIDIA shims are compiled against
#   tools/setup.sh tests      what tools/test.sh needs besides: every release's headers, the
#                             test tools (.venv-test), the neighbour packages, AMD's
#                             hip-python (.venv-anchor), a free-threaded CPython (.venv-ft),
#                             the Debian roots with ROCm 6.4.3's and 7.2.4's runtimes, numba-hip
#   tools/setup.sh PIECE...   single pieces (the names below); no argument: build and tests
#
# Headers and libraries of other Debian suites are unpacked, not installed: the bindings are
# generated from and checked against them. A piece that cannot be made here (the roots need
# root) says so; the tests that need it are skipped with that reason.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=tools/progress.sh
. tools/progress.sh
ROCM_DIR=${HIPGEN_ROCM_DIR:-.rocm}
CUDA_DIR=${HIPGEN_CUDA_DIR:-.cuda}

sudo_() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

# apt_install PACKAGE...: installs those not installed yet.
apt_install() {
  dpkg -s "$@" >/dev/null 2>&1 && return
  quietly "apt-get install" sudo_ sh -c "apt-get update -qq &&
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $*"
}

piece_build_packages() {
  phase "Debian packages for building and running the wheels"
  apt_install libclang-15-dev gcc g++ binutils python3-venv \
    libamdhip64-5 libamd-comgr2 libhiprtc-builtins5 rocm-device-libs libllvm19
}

piece_test_packages() {
  phase "Debian packages for the tests"
  apt_install libamdhip64-dev libhipsparse0 libhipsparse-dev libhiprand1 libhiprand-dev \
    llvm-19-dev libllvm15 \
    libegl-dev `# EGL's types, which CUDA's EGL interop headers use` \
    libdrm-dev `# drm.h, which rocm_smi's kfd_ioctl.h includes` \
    mmdebstrap `# the runtime roots (tools/rocm-root.sh)`
}

# venv DIR PYTHON PACKAGE...: a venv with those packages, installed when the list changed.
venv() {
  local dir=$1 python=$2; shift 2
  [ -x "$dir/bin/python" ] || "$python" -m venv "$dir"
  if [ "$(cat "$dir/.tools" 2>/dev/null)" != "$*" ]; then
    quietly "pip install into $dir" "$dir/bin/pip" install --disable-pip-version-check "$@"
    echo "$*" >"$dir/.tools"
  fi
}

piece_venv() {
  phase "the build venv (.venv): maturin, zig"
  venv .venv python3 maturin ziglang
}

piece_test_venv() {
  phase "the test venv (.venv-test): pytest, NumPy, ruff, mypy, Cython, auditwheel"
  venv .venv-test python3 maturin ziglang auditwheel pytest numpy ruff mypy cython setuptools \
    'clang==19.1.7'  # rocm-llvm-python's dependency (libclang's Python API)
}

# headers RELEASE...: each release's headers (-dev) and the libraries the symbol checks read,
# unpacked from the Debian suite and packages its release file names
# (generator/specs/releases/*.yaml `headers`).
headers() {
  quietly "building hipgen" cargo build --release -p hipgen
  local release suite packages dest
  while read -r release suite packages; do
    [ $# = 0 ] || [[ " $* " == *" $release "* ]] || continue
    dest=$ROCM_DIR/$release
    [ "$(cat "$dest/.packages" 2>/dev/null)" = "$packages" ] && continue
    rm -rf "$dest"
    # shellcheck disable=SC2086  # the packages, one word each
    quietly "ROCm $release's headers from Debian $suite" bash tools/debian-rocm.sh "$suite" "$dest" $packages </dev/null
    echo "$packages" >"$dest/.packages"
  done < <(./target/release/hipgen releases --headers)
}

piece_headers() {
  phase "every release's ROCm headers (.rocm/<release>)"
  headers
}

# CUDA's headers from NVIDIA's wheels (headers only, by HTTP range reads): hipgen reads
# cuda-python's calling conventions there (generator/specs/cuda.yaml `conventions`) and the
# NVIDIA shims are compiled against them.
fetch_cuda() {
  local dest=$1; shift
  if [ "$(cat "$dest/.headers" 2>/dev/null)" != "$*" ]; then
    rm -rf "$dest"
    quietly "CUDA headers into $dest" python3 tools/cuda_headers.py "$dest" "$@"
    echo "$*" >"$dest/.headers"
  fi
}

piece_cuda_headers() {
  phase "CUDA 12 and 13 headers (.cuda)"
  fetch_cuda "$CUDA_DIR/12" nvidia-cuda-runtime-cu12==12.9.79 nvidia-cuda-nvrtc-cu12==12.9.86 \
    nvidia-cuda-nvcc-cu12==12.9.86 nvidia-cuda-cccl-cu12==12.9.27 nvidia-cuda-profiler-api-cu12==12.9.79
  # cuBLAS, cuFFT, cuRAND, cuSPARSE, cuSOLVER: 70-600 MB wheels, of which the headers are read.
  fetch_cuda "$CUDA_DIR/12/math" nvidia-cublas-cu12==12.9.1.4 nvidia-cufft-cu12==11.4.1.4 \
    nvidia-curand-cu12==10.3.10.19 nvidia-cusparse-cu12==12.5.10.65 nvidia-cusolver-cu12==11.7.5.82
  fetch_cuda "$CUDA_DIR/13" nvidia-cuda-runtime==13.5.37 nvidia-cuda-nvrtc==13.5.37 nvidia-cuda-crt==13.5.37 \
    nvidia-cuda-profiler-api==13.5.25
}

piece_shim_headers() {
  phase "the headers the NVIDIA shims are generated from (the default release's, HIP 5.7.1's NVIDIA headers)"
  # shellcheck disable=SC2046  # two release names
  headers $(PY=python3 bash tools/nvidia-shim.sh --headers)
  piece_cuda_headers
}

# A folder of its own under .venv-test/neighbours per package a program may import beside ours
# (tests/test_neighbours.py), with what it needs beyond the test venv's NumPy: NVIDIA's
# cuda-bindings has the paths of our cuda.bindings. torch is left out (its Linux wheel on PyPI
# comes with ~3 GB of CUDA libraries).
neighbour() {
  local dest=.venv-test/neighbours/$1; shift
  [ "$(cat "$dest/.packages" 2>/dev/null)" = "$*" ] && return
  rm -rf "$dest"
  if quietly "neighbour $1" .venv-test/bin/pip install -q --disable-pip-version-check --no-deps --no-compile --target "$dest" "$@"; then
    echo "$*" >"$dest/.packages"
  else
    rm -rf "$dest"
    echo "   $1 does not install here: tests/test_neighbours.py skips it"
  fi
}

piece_neighbours() {
  phase "neighbour packages (.venv-test/neighbours)"
  neighbour numba numba==0.68.1 llvmlite==0.50.0
  neighbour jax jax==0.10.2 jaxlib==0.10.2 ml_dtypes==0.6.0 opt_einsum==3.4.0 scipy==1.17.1
  neighbour cupy cupy-cuda12x==14.2.0 fastrlock==0.8.4 cuda-pathfinder==1.9.0 nvidia-cuda-runtime-cu12==12.9.79
  neighbour cuda-core cuda-core==1.2.2 cuda-pathfinder==1.9.0
  neighbour nvidia-cuda cuda-bindings==13.5.0 cuda-core==1.2.2 cuda-pathfinder==1.9.0
}

# AMD's hip-python 6.4.3 in a venv of its own: tests run hip-python's documented idioms under it
# and under ours and compare (tests/idioms.py). Its hiprtc loads `libhiprtc.so`, which ROCm 5
# keeps inside libamdhip64: a link in .venv-anchor/hiprtc stands for it.
piece_anchor() {
  phase "AMD's hip-python 6.4.3 (.venv-anchor)"
  if venv .venv-anchor python3 hip-python==6.4.3.555.40 numpy; then
    mkdir -p .venv-anchor/hiprtc
    ln -sf /usr/lib/x86_64-linux-gnu/libamdhip64.so.5 .venv-anchor/hiprtc/libhiprtc.so
  else
    echo "   hip-python 6.4.3 does not install here: the comparison with it is skipped"
  fi
}

# A free-threaded CPython (built once from Debian's source package and cached; see
# tools/freethreaded-python.sh) and a venv of it, where tools/test.sh installs the free-threaded
# wheels and runs the suite with the GIL off.
piece_freethreaded() {
  phase "a free-threaded CPython (.venv-ft; built once, cached in ~/.cache/hipgen)"
  if ! quietly "building CPython with --disable-gil" bash tools/freethreaded-python.sh; then
    echo "   no free-threaded CPython: the free-threaded wheels and their test run are skipped"
    return
  fi
  local ft_python
  ft_python=$(bash tools/freethreaded-python.sh)
  if [ ! -x .venv-ft/bin/python ] || ! .venv-ft/bin/python -c 'import sys; sys.exit(sys._is_gil_enabled())'; then
    rm -rf .venv-ft
  fi
  # Wheels only: NumPy's newest releases ship none for CPython 3.13t, and building one from its
  # source takes ten minutes here; 2.4.6 is the newest with a cp313t wheel.
  venv .venv-ft "$ft_python" --only-binary=:all: pytest numpy==2.4.6 cython setuptools 'clang==19.1.7'
}

# A Debian root with the runtime of each shipped release whose release file names one (7.2.4
# from experimental, 6.4.3 from sid): their libraries need a newer glibc than bookworm's, so
# each family's runtime tests run inside its root (tools/rocm-run.sh).
piece_roots() {
  phase "Debian roots with ROCm runtimes (.rocm/root-<release>)"
  if [ "$(id -u)" != 0 ]; then
    echo "   not root: no ROCm runtime roots (chroot needs root); their tests are skipped"
    return
  fi
  local release
  for release in $(python3 tools/manifest.py runtimes); do
    quietly "the ROCm $release root" bash tools/rocm-root.sh "$release" "$ROCM_DIR/root-$release"
  done
  # numba-hip 0.2.1 (AMD's Numba backend) wants ROCm 7.2's runtime: the default release's root.
  local default
  default=$(python3 tools/manifest.py default)
  if [ -f "$ROCM_DIR/root-$default/.packages" ]; then
    quietly "numba-hip in the ROCm $default root" env HIPGEN_ROCM_DIR="$ROCM_DIR" bash tools/numba-hip-env.sh "$default"
  fi
}

all_build=(build_packages venv shim_headers)
all_tests=(test_packages headers test_venv neighbours anchor freethreaded roots)
pieces=()
for arg in "${@:-build tests}"; do
  for word in $arg; do
    case "$word" in
      build) pieces+=("${all_build[@]}") ;;
      tests) pieces+=("${all_tests[@]}") ;;
      *) pieces+=("${word//-/_}") ;;
    esac
  done
done
for piece in "${pieces[@]}"; do
  declare -F "piece_$piece" >/dev/null || { echo "setup.sh: no piece '$piece'" >&2; exit 2; }
  "piece_$piece"
done
