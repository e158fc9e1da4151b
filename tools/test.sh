#!/usr/bin/env bash
# The whole test suite: Rust lint and unit tests, the check that bindings/ is exactly what the
# generator emits today, Python lint, and pytest against the real HIP runtime and headers.
# Needs tools/setup.sh and an installed build (tools/quickstart.sh does both).
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== cargo fmt / clippy"
cargo fmt --all --check
cargo clippy -q --all-targets -- -D warnings

echo "== generator unit tests"
cargo test -q -p hipgen

echo "== bindings/ is what hipgen generates from the ROCm 6.4.3 headers"
cargo build -q --release -p hipgen
./target/release/hipgen generate --include "${HIPGEN_ROCM_DIR:-.rocm}/6.4.3/usr/include" \
  --release 6.4.3 --libs hip,hiprtc,hipblas,hipsparse,rccl,hiprand,hipfft,hipsolver,roctx 2>/dev/null
if [ -n "$(git status --porcelain -- bindings)" ]; then
  git status --short -- bindings
  echo "bindings/ differs from the generator's output: run ./build_pkgs.sh --regenerate" >&2
  exit 1
fi

echo "== ruff"
.venv/bin/ruff check .
.venv/bin/ruff format --check .

echo "== pytest"
.venv/bin/python -m pytest -q tests
