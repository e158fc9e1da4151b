#!/usr/bin/env bash
# The whole test suite, after tools/quickstart.sh: prepares what only the tests need (tools/
# setup.sh tests: each piece once, skipped when present), then Rust lint and unit tests, the
# check that bindings/ is exactly what the generator emits today, Python lint, and pytest
# against the real HIP runtime and headers, with the GIL and without, and inside the Debian
# roots of the newer ROCm runtimes. The test builds (every shipped release's bindings, the
# free-threaded wheels) go to target/test-dist and the test venvs (.venv-test, .venv-ft); the
# quick start's .venv and dist/ stay as they are.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=tools/progress.sh
. tools/progress.sh

# What the quick start installed into .venv: the same files when the tests are done.
quickstart_install() {
  [ -d .venv ] || return 0
  find .venv/lib -path '*.dist-info/RECORD' -print0 | sort -z | xargs -0 -r md5sum
}
before=$(quickstart_install)

phase "what the tests need (tools/setup.sh tests)"
bash tools/setup.sh tests
PY=.venv-test/bin/python
FT=
if .venv-ft/bin/python -c 'import sys; sys.exit(sys._is_gil_enabled())' 2>/dev/null; then
  FT=$(.venv-ft/bin/python -c 'import sys; print(sys._base_executable)')
fi
export HIPGEN_DIST=$PWD/target/test-dist

phase "cargo fmt / clippy, no import circle"
cargo fmt --all --check
quietly clippy cargo clippy --all-targets -- -D warnings
"$PY" tools/import_cycles.py

phase "generator and runtime unit tests"
quietly "hipgen's tests" cargo test -q -p hipgen
quietly "the runtime's tests" cargo test -q -p hipgen-runtime

cargo build -q --release -p hipgen
shipped=$("$PY" tools/manifest.py shipped)
phase "bindings/ is what hipgen generates from the headers of each release the wheels carry"
for release in $shipped; do
  ./target/release/hipgen generate --release "$release" 2>/dev/null
  if [ -n "$(git status --porcelain -- "bindings/rocm-$release")" ]; then
    git status --short -- "bindings/rocm-$release"
    echo "bindings/rocm-$release differs from the generator's output: run" \
         "./build_pkgs.sh --regenerate --release $release" >&2
    exit 1
  fi
done

phase "the generator handles every other release: each generates and compiles"
for release in $(./target/release/hipgen releases | cut -d' ' -f1); do
  [[ " $shipped " == *" $release "* ]] && continue
  ./target/release/hipgen generate --release "$release" --out target/bindings 2>/dev/null
  export HIPGEN_BINDINGS=$PWD/target/bindings/rocm-$release
  # Each package the release has modules for (package names are their crates').
  # shellcheck disable=SC2046  # one -p per package
  quietly "cargo check of ROCm $release" cargo check $(printf -- '-p %s ' $("$PY" tools/manifest.py packages))
  unset HIPGEN_BINDINGS
done

phase "the test wheels, with every shipped release's bindings (target/test-dist)"
./build_pkgs.sh --out "$HIPGEN_DIST" --no-install
if [ -n "$FT" ]; then
  phase "the free-threaded CPython's test wheels"
  ./build_pkgs.sh --out "$HIPGEN_DIST" --no-install --python "$FT"
fi
install_wheels() {
  quietly "installing the test wheels into $1" "$1/bin/python" -m pip install --disable-pip-version-check \
    --force-reinstall --no-deps "${@:2}"
}
install_wheels .venv-test "$HIPGEN_DIST"/*-abi3-*.whl
[ -z "$FT" ] || install_wheels .venv-ft "$HIPGEN_DIST"/*-cp3*t-*.whl

phase "ruff"
.venv-test/bin/ruff check .
.venv-test/bin/ruff format --check .

phase "pytest"
"$PY" -m pytest -q --durations=25 tests
phase "the API of hip-python 6.4.3 against our bindings of that release"
HIPGEN_SESSION_RELEASE=6.4.3 "$PY" -m pytest -q tests/test_parity.py

# The free-threaded wheels in .venv-ft: the suite again, with the GIL off (tests/
# test_threads.py checks it stays off). Left out there: what runs other interpreters' packages
# (the anchors' venvs, numba and the other neighbours, built for 3.11), and building abi3
# wheels and sdists with .venv's tools (the run above covers them).
if [ -n "$FT" ]; then
  phase "pytest under the free-threaded CPython (.venv-ft), GIL off"
  .venv-ft/bin/python -m pytest -q -p no:cacheprovider tests \
    --ignore=tests/test_parity.py --ignore=tests/test_parity_rocm_bindings.py \
    --ignore=tests/test_rocm_llvm_parity.py --ignore=tests/test_hip_python_idioms.py \
    --ignore=tests/test_neighbours.py --ignore=tests/test_numba_hip.py --ignore=tests/test_libraries.py \
    --deselect tests/test_packaging.py::test_auditwheel_accepts_the_tag \
    --deselect tests/test_packaging.py::test_sdist_builds_from_checked_in_bindings
else
  phase "skipped: pytest under the free-threaded CPython (no .venv-ft: tools/setup.sh freethreaded)"
fi

# Each family's runtime: the test wheels inside the Debian root of each shipped release that
# has one (tools/rocm-root.sh; bookworm's own 5.2 runtime served the tests above).
for release in $("$PY" tools/manifest.py runtimes); do
  if [ ! -f ".rocm/root-$release/.packages" ]; then
    phase "skipped: the tests against ROCm $release's runtime (no root: tools/setup.sh roots needs root)"
    continue
  fi
  phase "the test wheels against ROCm $release's runtime, in its Debian root (tools/rocm-run.sh)"
  bash tools/rocm-run.sh "$release" -m pytest -q -p no:cacheprovider tests/test_runtime_root.py tests/test_hiprtc.py tests/test_core.py \
    tests/test_numba_hip.py tests/test_nvml.py tests/test_threads.py tests/test_rocm_llvm_versions.py
done
if [ "$(quickstart_install)" != "$before" ]; then
  echo "the tests changed what the quick start installed into .venv" >&2
  exit 1
fi
phase "tests done"
