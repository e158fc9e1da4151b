#!/usr/bin/env bash
# cuda-python's own test modules and examples, unmodified, against NVIDIA's cuda-bindings and
# against ours, side by side on one NVIDIA GPU machine, and every device attribute compared
# (docs/cuda.md has the latest figures), with `python -m hip doctor`'s counts.
#
#   tools/cuda-python-tests.sh CUDA_PYTHON_CHECKOUT WHEEL_DIR [OUT_DIR]
#
# CUDA_PYTHON_CHECKOUT: a checkout of NVIDIA/cuda-python (its cuda_bindings/tests,
# cuda_python_test_helpers and cuda_bindings/examples/*_test.py are used as they are);
# WHEEL_DIR: hip-python and hip-python-as-cuda built with `./build_pkgs.sh --platform nvidia`
# (and the CUDA 12 runtime wheel). NVIDIA's cuda-bindings, cuda-pathfinder, numpy and pytest
# must be installed. The examples' `common/` helpers of late 2026 import cuda-pathfinder 1.4's
# `get_cuda_home_or_path`: EXAMPLES_PATH may name a folder holding that release.
set -uo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
checkout=$(cd "$1" && pwd); wheels=$2; out=${3:-target/cuda-python-tests}
mkdir -p "$out"; out=$(cd "$out" && pwd)
site=$out/site
python3 -m pip install -q --no-index --no-deps --no-compile --target "$site" "$wheels"/*.whl || exit 1
ours() { env PYTHONPATH="$site${1:+:$1}" HIP_PLATFORM=nvidia "${@:2}"; }
nvidia() { env ${1:+PYTHONPATH="$1"} "${@:2}"; }
# What resolves on the shim this machine loads (hip and hiprtc functions, and the math
# libraries the wheels carry).
ours "" python3 -m hip doctor >"$out/doctor.txt" 2>&1
grep -E '^hip\.|loaded from|symbols:' "$out/doctor.txt"
cd "$checkout/cuda_bindings/tests"
for m in test_nvrtc test_kernelParams test_interoperability test_cuda test_cudart; do
  for who in nvidia ours; do
    $who "" timeout 300 python3 -m pytest -v -p no:cacheprovider -rfEs --tb=short "$m.py" >"$out/$m.$who.log" 2>&1
    echo "$m $who: $(tail -1 "$out/$m.$who.log")"
  done
done
nvidia "" python3 "$repo/tools/cuda_attributes.py" ask "$out/attributes.nvidia.json"
ours "" python3 "$repo/tools/cuda_attributes.py" ask "$out/attributes.ours.json" "$out/attributes.nvidia.json"
python3 "$repo/tools/cuda_attributes.py" compare "$out/attributes.nvidia.json" "$out/attributes.ours.json" \
  >"$out/attributes.txt"
grep -v '^  ' "$out/attributes.txt"
examples=$checkout/cuda_bindings/examples
for f in $(cd "$examples" && ls ./*/*_test.py); do
  for who in nvidia ours; do
    log=$out/example.$(basename "$f" .py).$who.log
    (cd "$examples/$(dirname "$f")" && $who "${EXAMPLES_PATH:+$EXAMPLES_PATH:}$examples" timeout 150 python3 "$(basename "$f")" >"$log" 2>&1)
    echo "example $f $who: exit $?"
  done
done
