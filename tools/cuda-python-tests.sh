#!/usr/bin/env bash
# cuda-python's own test modules, unmodified, against NVIDIA's cuda-bindings and against ours,
# side by side on one NVIDIA GPU machine (docs/cuda.md has the latest figures).
#
#   tools/cuda-python-tests.sh CUDA_PYTHON_CHECKOUT WHEEL_DIR [OUT_DIR]
#
# CUDA_PYTHON_CHECKOUT: a checkout of NVIDIA/cuda-python (its cuda_bindings/tests and
# cuda_python_test_helpers are used as they are); WHEEL_DIR: hip-python and
# hip-python-as-cuda built with `./build_pkgs.sh --platform nvidia` (and the CUDA 12 runtime
# wheel). NVIDIA's cuda-bindings, cuda-pathfinder, numpy and pytest must be installed.
set -uo pipefail
checkout=$(cd "$1" && pwd); wheels=$2; out=${3:-target/cuda-python-tests}
mkdir -p "$out"; out=$(cd "$out" && pwd)
site=$out/site
python3 -m pip install -q --no-index --no-deps --no-compile --target "$site" "$wheels"/*.whl || exit 1
cd "$checkout/cuda_bindings/tests"
for m in test_nvrtc test_kernelParams test_interoperability test_cuda test_cudart; do
  for who in nvidia ours; do
    if [ $who = ours ]; then env=(PYTHONPATH="$site" HIP_PLATFORM=nvidia); else env=(); fi
    env "${env[@]}" timeout 300 python3 -m pytest -v -p no:cacheprovider -rfEs --tb=short "$m.py" \
      >"$out/$m.$who.log" 2>&1
    echo "$m $who: $(tail -1 "$out/$m.$who.log")"
  done
done
