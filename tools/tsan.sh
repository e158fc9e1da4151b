#!/usr/bin/env bash
# The stress test (tools/stress_threads.py) under ThreadSanitizer, GIL off: a free-threaded
# CPython built with clang's -fsanitize=thread (tools/freethreaded-python.sh, cached beside the
# plain one), hip-python (hip, hiprtc) and hip-python-as-cuda built for it with the runtime and
# bindings instrumented (Rust's -Zsanitizer=thread), and the stress run against this machine's
# HIP runtime. TSan's reports go to target/tsan/report.*; a summary of them is printed.
#
#   tools/tsan.sh [--threads 8] [--seconds 30]     (stress_threads.py's arguments)
#
# Takes about 25 minutes the first time on two cores (the interpreter, then the extensions).
# Rust's sanitizers are unstable options: RUSTC_BOOTSTRAP=1 lets the stable compiler take them.
# Rust's standard library is not rebuilt with TSan (that needs the rust-src component, which
# this toolchain lacks), so synchronisation done inside std's compiled code (the slow paths of
# Once and Mutex) is invisible to TSan: a report between an initialisation and a later read
# through a `Once` is read with that in mind (docs/threads.md, which has this run's result); rustc
# is told that the uninstrumented std is meant (-Cunsafe-allow-abi-mismatch).
set -euo pipefail
cd "$(dirname "$0")/.."
out=target/tsan
release=$(.venv/bin/python tools/manifest.py default)
cc=${HIPGEN_TSAN_CC:-clang-19}  # a versioned name: its runtime is libclang-rt-<version>-dev
command -v "$cc" > /dev/null || apt-get -qq install -y --no-install-recommends "$cc" "libclang-rt-${cc#clang-}-dev" > /dev/null
# Quiet while building (CPython's own races, which its suppressions list, and pip's): the
# reports that count are the stress run's, below.
export TSAN_OPTIONS="report_bugs=0 exitcode=0"
cache=${XDG_CACHE_HOME:-$HOME/.cache}/hipgen/freethreaded-tsan
python=$(CC=$cc CXX=${cc/clang/clang++} HIPGEN_FT_CACHE=$cache HIPGEN_FT_CONFIGURE=--with-thread-sanitizer \
  bash tools/freethreaded-python.sh)
# Its own name, so that build_pkgs.sh builds in target folders of its own (the instrumented
# objects never replace the free-threaded wheels' ones).
ln -sf "$(basename "$python")" "$python-tsan"
mkdir -p "$out"
rm -rf "$out/dist" "$out"/report.*
# The target named: RUSTFLAGS then reach only the extensions' code, not build scripts and
# procedural macros (which run inside the uninstrumented compiler). The default release's
# bindings, run on this machine's HIP 5.2 runtime as the test suite runs them (pinned below).
RUSTC_BOOTSTRAP=1 RUSTFLAGS="-Zsanitizer=thread -Cunsafe-allow-abi-mismatch=sanitizer" CARGO_BUILD_TARGET=x86_64-unknown-linux-gnu \
  ./build_pkgs.sh --release "$release" --libs hip,hiprtc --no-rocm-llvm --python "$python-tsan" \
  --out "$out/dist" --no-install
"$python" -m venv --clear "$out/venv"
# The NumPy tools/setup.sh chose for .venv-ft (a cp313t wheel).
numpy=$(.venv-ft/bin/python -c 'import numpy; print(numpy.__version__)')
"$out/venv/bin/pip" install -q --disable-pip-version-check --only-binary=:all: "numpy==$numpy"
"$out/venv/bin/pip" install -q --disable-pip-version-check --no-deps "$out"/dist/*.whl
# CPython's own suppressions (races it knows of in its free-threaded build), kept with the build.
suppressions=$(dirname "$python")/../share/tsan_suppressions.txt
export TSAN_OPTIONS="exitcode=0 halt_on_error=0 report_signal_unsafe=0 log_path='$PWD/$out/report'"
[ -f "$suppressions" ] && TSAN_OPTIONS+=" suppressions='$suppressions'"
status=0
HIP_PYTHON_ROCM_RELEASE=$release HIP_PYTHON_LIBHIPRTC=libamdhip64.so.5 \
  PYTHON_GIL=0 "$out/venv/bin/python" tools/stress_threads.py "$@" || status=$?
reports=$(cat "$out"/report.* 2>/dev/null | grep -c "^WARNING: ThreadSanitizer" || true)
echo "tsan: $reports report(s) in $out/report.*; stress exit status $status"
cat "$out"/report.* 2>/dev/null | grep -A12 "^WARNING: ThreadSanitizer" | head -200 || true
exit "$status"
