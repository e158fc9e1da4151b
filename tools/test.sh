#!/usr/bin/env bash
# The whole test suite: Rust lint and unit tests, the check that bindings/ is exactly what the
# generator emits today, Python lint, and pytest against the real HIP runtime and headers.
# Needs tools/setup.sh and an installed build (tools/quickstart.sh does both).
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== cargo fmt / clippy"
cargo fmt --all --check
cargo clippy -q --all-targets -- -D warnings

echo "== generator and runtime unit tests"
cargo test -q -p hipgen
cargo test -q -p hipgen-runtime

echo "== bindings/ is what hipgen generates from the ROCm 6.4.3 headers"
cargo build -q --release -p hipgen
./target/release/hipgen generate --include "${HIPGEN_ROCM_DIR:-.rocm}/6.4.3/usr/include" --cuda-headers "${HIPGEN_CUDA_DIR:-.cuda}" \
  --release 6.4.3 --libs hip,hiprtc,hipblas,hipsparse,rccl,hiprand,hipfft,hipsolver,roctx,cuda,amd_comgr,llvm \
  2>/dev/null
if [ -n "$(git status --porcelain -- bindings/rocm-6.4.3)" ]; then
  git status --short -- bindings/rocm-6.4.3
  echo "bindings/ differs from the generator's output: run ./build_pkgs.sh --regenerate" >&2
  exit 1
fi

echo "== the generator handles other releases: 5.7.1 and 5.2.3 generate and compile"
rocm=${HIPGEN_ROCM_DIR:-.rocm}
gen() { ./target/release/hipgen generate --include "$rocm/$1/usr/include" --cuda-headers "${HIPGEN_CUDA_DIR:-.cuda}" --release "$1" \
          --out target/bindings --libs "$2" 2>/dev/null; }
gen 5.7.1 hip,hiprtc,hipblas,hipsparse,rccl,hiprand,hipfft,hipsolver,roctx,cuda
gen 5.2.3 hip,hiprtc,hipsparse,hiprand,amd_comgr,llvm
HIPGEN_BINDINGS=$PWD/target/bindings/rocm-5.7.1 cargo check -q -p hip-python -p hip-python-as-cuda
HIPGEN_BINDINGS=$PWD/target/bindings/rocm-5.2.3 cargo check -q -p hip-python \
  --no-default-features --features hip,hiprtc,hipsparse,hiprand

echo "== rocm-llvm-python for the comgr that runs here (bookworm's 2.4: interface 2, whose"
echo "   enums differ from the checked-in interface-3 bindings) installed into .venv for pytest"
rm -f target/test-wheels/rocm_llvm_python-*.whl  # one wheel for pip, whatever an earlier run left
bash tools/stubs.sh target/bindings/rocm-5.2.3 rocm-llvm-python rocm.amd_comgr.amd_comgr rocm.llvm
(cd rocm-llvm-python && CARGO_TARGET_DIR=../target/wheel-llvm HIPGEN_BINDINGS=$PWD/../target/bindings/rocm-5.2.3 \
  ../.venv/bin/python -m maturin build --release -q --out ../target/test-wheels 2>/dev/null)
.venv/bin/python -m pip install -q --disable-pip-version-check --force-reinstall --no-deps \
  target/test-wheels/rocm_llvm_python-*.whl

echo "== ruff"
.venv/bin/ruff check .
.venv/bin/ruff format --check .

echo "== pytest"
.venv/bin/python -m pytest -q tests
