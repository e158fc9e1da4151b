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

cargo build -q --release -p hipgen
shipped=$(.venv/bin/python tools/manifest.py shipped)
echo "== bindings/ is what hipgen generates from the headers of each release the wheels carry"
for release in $shipped; do
  ./target/release/hipgen generate --release "$release" 2>/dev/null
  if [ -n "$(git status --porcelain -- "bindings/rocm-$release")" ]; then
    git status --short -- "bindings/rocm-$release"
    echo "bindings/rocm-$release differs from the generator's output: run" \
         "./build_pkgs.sh --regenerate --release $release" >&2
    exit 1
  fi
done

echo "== the generator handles every other release: each generates and compiles"
for release in $(./target/release/hipgen releases | cut -d' ' -f1); do
  [[ " $shipped " == *" $release "* ]] && continue
  echo "   ROCm $release"
  ./target/release/hipgen generate --release "$release" --out target/bindings 2>/dev/null
  export HIPGEN_BINDINGS=$PWD/target/bindings/rocm-$release
  # Each package the release has modules for (package names are their crates').
  cargo check -q $(printf -- '-p %s ' $(.venv/bin/python tools/manifest.py packages))
  unset HIPGEN_BINDINGS
done

echo "== rocm-llvm-python for the comgr that runs here (bookworm's 2.4: interface 2, whose"
echo "   enums differ from the checked-in interface-3 bindings) installed into .venv (and .venv-ft)"
rm -f target/test-wheels/rocm_llvm_python-*.whl  # one wheel for pip, whatever an earlier run left
mods=$(.venv/bin/python tools/manifest.py --bindings target/bindings/rocm-5.2.3 modules --package rocm-llvm-python amd_comgr,llvm)
bash tools/stubs.sh target/bindings/rocm-5.2.3 rocm-llvm-python $mods
.venv/bin/python tools/layout.py target/bindings/rocm-5.2.3 rocm-llvm-python $mods
(cd rocm-llvm-python && CARGO_TARGET_DIR=../target/wheel-llvm HIPGEN_BINDINGS=$PWD/../target/bindings/rocm-5.2.3 \
  ../.venv/bin/python -m maturin build --release -q --out ../target/test-wheels 2>/dev/null)
.venv/bin/python -m pip install -q --disable-pip-version-check --force-reinstall --no-deps \
  target/test-wheels/rocm_llvm_python-*-abi3-*.whl
ft_python=$(.venv-ft/bin/python -c 'import sys; print(sys._base_executable)')
(cd rocm-llvm-python && CARGO_TARGET_DIR=../target/wheel-llvm-ft HIPGEN_BINDINGS=$PWD/../target/bindings/rocm-5.2.3 \
  PYO3_PYTHON=$ft_python ../.venv/bin/python -m maturin build --release -q -i "$ft_python" \
  --out ../target/test-wheels 2>/dev/null)
.venv-ft/bin/python -m pip install -q --disable-pip-version-check --force-reinstall --no-deps \
  target/test-wheels/rocm_llvm_python-*-cp3*t-*.whl

echo "== ruff"
.venv/bin/ruff check .
.venv/bin/ruff format --check .

echo "== pytest"
.venv/bin/python -m pytest -q tests
echo "== the API of hip-python 6.4.3 against our bindings of that release"
HIPGEN_SESSION_RELEASE=6.4.3 .venv/bin/python -m pytest -q tests/test_parity.py

# The free-threaded wheels (./build_pkgs.sh --freethreaded) in .venv-ft (tools/setup.sh): the
# suite again, with the GIL off (tests/test_threads.py checks it stays off). Left out there:
# what runs other interpreters' packages (the anchors' venvs, numba and the other neighbours
# of .venv, built for 3.11), and building abi3 wheels and sdists with .venv's tools (the run
# above covers them; the free-threaded wheels' own tests and fresh venv run here).
echo "== pytest under the free-threaded CPython (.venv-ft), GIL off"
.venv-ft/bin/python -m pytest -q -p no:cacheprovider tests \
  --ignore=tests/test_parity.py --ignore=tests/test_parity_rocm_bindings.py \
  --ignore=tests/test_rocm_llvm_parity.py --ignore=tests/test_hip_python_idioms.py \
  --ignore=tests/test_neighbours.py --ignore=tests/test_numba_hip.py --ignore=tests/test_libraries.py \
  --deselect tests/test_packaging.py::test_auditwheel_accepts_the_tag \
  --deselect tests/test_packaging.py::test_sdist_builds_from_checked_in_bindings

# Each family's runtime: the wheels of dist/ inside the Debian root of each shipped release
# that has one (tools/rocm-root.sh; bookworm's own 5.2 runtime served the tests above).
for release in $(python3 tools/manifest.py runtimes); do
  echo "== the wheels of dist/ against ROCm $release's runtime, in its Debian root (tools/rocm-root.sh)"
  if [ "$(id -u)" = 0 ]; then
    bash tools/rocm-run.sh "$release" -m pytest -q -p no:cacheprovider tests/test_runtime_root.py tests/test_hiprtc.py \
      tests/test_numba_hip.py tests/test_nvml.py tests/test_threads.py
  else
    echo "   skipped: chroot needs root" >&2
  fi
done
