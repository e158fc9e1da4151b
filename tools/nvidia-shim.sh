#!/usr/bin/env bash
# Builds hip-python/python/hip/_nvidia/libhip_nvidia.so: the HIP API over CUDA, for the
# NVIDIA platform. hipgen generates it from HIP's nvidia_detail headers (Debian trixie's
# HIP 5.7.1, unpacked by tools/setup.sh) and the bindings' IRs of the same release; g++
# compiles it against CUDA 12 headers from NVIDIA's PyPI wheels (CUDA 13's do not compile).
#
#   tools/nvidia-shim.sh [RELEASE]     (default 5.7.1)
set -euo pipefail
cd "$(dirname "$0")/.."
release=${1:-5.7.1}
rocm=${HIPGEN_ROCM_DIR:-.rocm}
cuda=.cuda/12
PY=${PY:-.venv/bin/python}
# CUDA 12 headers (and the runtime/NVRTC libraries to link against), unpacked from wheels.
WHEELS=(nvidia-cuda-runtime-cu12==12.9.79 nvidia-cuda-nvrtc-cu12==12.9.86
        nvidia-cuda-nvcc-cu12==12.9.86 nvidia-cuda-cccl-cu12==12.9.27
        nvidia-cuda-profiler-api-cu12==12.9.79)
if [ "$(cat "$cuda/.wheels" 2>/dev/null)" != "${WHEELS[*]}" ]; then
  rm -rf "$cuda"; mkdir -p "$cuda/wheels"
  "$PY" -m pip download -q --no-deps --disable-pip-version-check -d "$cuda/wheels" "${WHEELS[@]}"
  for w in "$cuda"/wheels/*.whl; do "$PY" -m zipfile -e "$w" "$cuda"; done
  echo "${WHEELS[*]}" >"$cuda/.wheels"
fi
inc=(); for d in cuda_runtime cuda_nvrtc cuda_cccl cuda_nvcc cuda_profiler_api; do
  inc+=("$cuda/nvidia/$d/include")
done

cargo build -q --release -p hipgen
./target/release/hipgen generate --include "$rocm/$release/usr/include" --release "$release" \
  --out target/bindings --libs hip,hiprtc,rccl 2>/dev/null
mkdir -p target/nvidia hip-python/python/hip/_nvidia
./target/release/hipgen shim --include "$rocm/$release/usr/include" \
  $(printf -- '--cuda-include %s ' "${inc[@]}") \
  --ir "target/bindings/rocm-$release/hip.ir.json" --ir "target/bindings/rocm-$release/hiprtc.ir.json" \
  --out target/nvidia/hip_nvidia.cpp
# Only the wrappers are exported. CUDA's libraries are not linked by name: the loader
# loads the driver, the CUDA 12 runtime and NVRTC (12, else 13: its C API is the same)
# globally first, from NVIDIA's wheels or the system, so one shim serves either install.
g++ -std=c++17 -shared -fPIC -O2 -fvisibility=hidden -w \
  -I"$rocm/$release/usr/include" $(printf -- '-I%s ' "${inc[@]}") \
  target/nvidia/hip_nvidia.cpp -o hip-python/python/hip/_nvidia/libhip_nvidia.so
echo "built hip-python/python/hip/_nvidia/libhip_nvidia.so ($(nm -D --defined-only \
  hip-python/python/hip/_nvidia/libhip_nvidia.so | grep -c ' T ') functions)"
