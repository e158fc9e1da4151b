#!/usr/bin/env bash
# Builds the Python packages as abi3 wheels into dist/ and installs them into the venv; with
# --freethreaded, also the free-threaded CPython's wheels beside them (installed into .venv-ft).
set -euo pipefail
cd "$(dirname "$0")"
# shellcheck source=tools/progress.sh
. tools/progress.sh

# The libraries, their packages and their order are the release's manifest's
# (bindings/rocm-<release>/manifest.json; tools/manifest.py reads it).
usage() {
  cat <<USAGE
Usage: ./build_pkgs.sh [options]

  --platform P      all (default): one hip-python wheel for AMD and NVIDIA GPUs, the
                    platform chosen at load time; amd: without the NVIDIA shims;
                    nvidia: only hip, hiprtc, rccl and the math libraries over CUDA
                    (roctx has no NVIDIA counterpart). The shims are built by
                    tools/nvidia-shim.sh: for CUDA 12 (HIP 5.7.1's NVIDIA headers where
                    the ABI is the release's, CUDA's own API for the rest) and for
                    CUDA 13 (CUDA's own API alone)
  --rocm-path DIR   ROCm root whose include/ the bindings are regenerated from
                    (default: \$ROCM_PATH, else the release file's folder under .rocm)
  --release VER     ROCm release of the bindings to build or regenerate (default: the
                    checked-in bindings', generator/specs/releases/*.yaml says which)
  --releases LIST   the other shipped releases whose bindings hip-python carries beside
                    the built release's ('5.7.1,6.4.3', 'all' or 'none'; default: all
                    without --release, none with it); tools/manifest.py installed names
                    the one of the runtime installed here. rocm-llvm-python carries the
                    LLVM and comgr versions of every shipped release when the default
                    release is built, none beside another's
  --libs LIST       modules to build: 'hip,hiprtc' includes only those, '^hiprtc' excludes
                    (default: \$HIP_PYTHON_LIBS, else all of the release's manifest)
  --regenerate      run hipgen on the headers first (needs libclang)
  --no-hip          do not build hip-python
  --no-cuda         do not build hip-python-as-cuda
  --cuda-libs LIST  CUDA modules of hip-python-as-cuda: 'cuda,cudart' or '^nvrtc'
                    (default: \$HIP_PYTHON_CUDA_LIBS, else all); cuda brings cuda.cuda
                    and cuda.bindings.driver, cudart cuda.cudart and cuda.bindings.runtime,
                    nvrtc cuda.nvrtc and cuda.bindings.nvrtc (the manifest's
                    python_modules: tools/manifest.py alias-modules)
  --no-rocm-llvm    do not build rocm-llvm-python
  --llvm-libs LIST  modules of rocm-llvm-python: 'amd_comgr,llvm' or '^llvm'
                    (default: \$ROCM_PYTHON_LIBS, else all of the release's manifest)
  --run-tests       run the test suite after building
  --out DIR         where wheels go (default dist)
  --no-install      build only; do not install into the venv
  --freethreaded    also build the wheels of the free-threaded CPython that
                    tools/freethreaded-python.sh builds (cp313t, from the same code: abi3
                    cannot be free-threaded) into the same folder, and install them into
                    .venv-ft (tools/setup.sh makes it)
  --python PATH     build for the interpreter PATH only, instead of abi3 (a free-threaded
                    one gives its cpXYt wheels); installs into .venv-ft if PATH is its
  --dry-run         print the modules that would be built and stop
  --pre-clean       remove dist/ and build outputs before building
  --post-clean      remove build outputs after building
  -n, --no-venv     use the current Python instead of ./.venv
  -j N              parallel build jobs (cargo)
  -h, --help        this help
USAGE
}

ROCM_ROOT=${ROCM_PATH:-}
RELEASE=
CARRY=
LIBS=${HIP_PYTHON_LIBS:-^}
CUDA_LIBS=${HIP_PYTHON_CUDA_LIBS:-^}
LLVM_LIBS=${ROCM_PYTHON_LIBS:-^}
BUILD_LLVM=1
PLATFORM=all
REGENERATE=0; BUILD_HIP=1; BUILD_CUDA=1; RUN_TESTS=0; PRE_CLEAN=0; POST_CLEAN=0; USE_VENV=1
OUT=dist; INSTALL=1; DRY_RUN=0; TARGET_PYTHON=; ALSO_FREETHREADED=0
ARGS=("$@")
while [ $# -gt 0 ]; do
  case "$1" in
    --rocm-path) ROCM_ROOT=$2; shift ;;
    --release) RELEASE=$2; shift ;;
    --releases) CARRY=$2; shift ;;
    --platform) PLATFORM=$2; shift ;;
    --libs) LIBS=$2; shift ;;
    --regenerate) REGENERATE=1 ;;
    --no-hip) BUILD_HIP=0 ;;
    --no-cuda) BUILD_CUDA=0 ;;
    --cuda-libs) CUDA_LIBS=$2; shift ;;
    --no-rocm-llvm) BUILD_LLVM=0 ;;
    --llvm-libs) LLVM_LIBS=$2; shift ;;
    --run-tests) RUN_TESTS=1 ;;
    --pre-clean) PRE_CLEAN=1 ;;
    --post-clean) POST_CLEAN=1 ;;
    -n|--no-venv) USE_VENV=0 ;;
    -j) export CARGO_BUILD_JOBS=$2; shift ;;
    --out) OUT=$2; shift ;;
    --no-install) INSTALL=0 ;;
    --freethreaded) ALSO_FREETHREADED=1 ;;
    --python) TARGET_PYTHON=$2; shift ;;
    --dry-run) DRY_RUN=1 ;;
    -h|--help) usage; exit 0 ;;
    *) echo "unknown option: $1" >&2; usage >&2; exit 2 ;;
  esac
  shift
done

PY=python3
if [ "$USE_VENV" = 1 ]; then
  PY=.venv/bin/python
  # maturin finds zig (from the `ziglang` wheel) through the venv's Python.
  export PATH="$PWD/.venv/bin:$PATH"
fi
# Wheels link against glibc 2.28 through zig, so they install on manylinux_2_28 systems
# whatever glibc the build machine has; without zig the machine's own glibc sets the tag.
MANYLINUX=(--zig --compatibility manylinux_2_28)
"$PY" -m ziglang version >/dev/null 2>&1 || MANYLINUX=()
# The interpreter the extensions are for: abi3 (any CPython >= 3.10) unless one is named. A
# free-threaded interpreter cannot load abi3 extensions, so it gets wheels of its own version,
# with the same code and its extension suffix; PyO3 builds them without the limited API.
EXT_SUFFIX=.abi3.so
TARGET_TAG=
if [ -n "$TARGET_PYTHON" ]; then
  EXT_SUFFIX=$("$TARGET_PYTHON" -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')
  MANYLINUX+=(--interpreter "$TARGET_PYTHON")
  export PYO3_PYTHON=$TARGET_PYTHON
  # In build folders of their own; installed into .venv-ft where that is this interpreter's.
  TARGET_TAG=-$(basename "$TARGET_PYTHON")
  ft_base=$(.venv-ft/bin/python -c 'import sys; print(sys._base_executable)' 2>/dev/null || true)
  if [ "$(realpath -m "$ft_base")" = "$(realpath -m "$TARGET_PYTHON")" ]; then
    PY_INSTALL=.venv-ft/bin/python
  else
    INSTALL=0
  fi
fi
PY_INSTALL=${PY_INSTALL:-$PY}
# The ABI tag of the wheels this build makes (abi3, or the interpreter's: cp313t), asked once.
WHEEL_TAG=abi3
if [ -n "$TARGET_PYTHON" ]; then
  WHEEL_TAG=$("$TARGET_PYTHON" -c 'import sys, sysconfig; t = "t" if sysconfig.get_config_var("Py_GIL_DISABLED") else ""; print("cp%d%d%s" % (*sys.version_info[:2], t))')
fi
# Removes the wheels of package $1 this build makes anew (abi3 ones and the sdist, or those of
# the free-threaded interpreter), leaving the other kind's.
clear_wheels() {
  rm -f "$OUT/$1"-*-"$WHEEL_TAG"-*.whl
  # The sdist does not depend on the interpreter: the abi3 build makes it anew.
  [ -n "$TARGET_PYTHON" ] || rm -f "$OUT/$1"-*.tar.gz
}

DEFAULT_RELEASE=$("$PY" tools/manifest.py default)
# Without --release (or HIPGEN_BINDINGS), hip-python carries every shipped release's bindings
# (--releases narrows them).
if [ -z "$CARRY" ]; then
  CARRY=none
  [ -z "$RELEASE" ] && [ -z "${HIPGEN_BINDINGS:-}" ] && CARRY=all
fi
RELEASE=${RELEASE:-$DEFAULT_RELEASE}
if [ "$REGENERATE" = 1 ] && [ "$DRY_RUN" = 0 ]; then
  cargo build -q --release -p hipgen
  ./target/release/hipgen generate --release "$RELEASE" ${ROCM_ROOT:+--include "$ROCM_ROOT/include"}
fi
# The extensions build from bindings/rocm-$RELEASE (the default release's unless --release
# says otherwise, or HIPGEN_BINDINGS names a folder): never silently from another release's.
if [ -z "${HIPGEN_BINDINGS:-}" ]; then
  if [ ! -f "bindings/rocm-$RELEASE/manifest.json" ]; then
    echo "no bindings for ROCm $RELEASE (bindings/rocm-$RELEASE): add --regenerate, with" \
         "--rocm-path pointing at that release's headers unless they are under .rocm" >&2
    exit 2
  fi
  [ "$RELEASE" = "$DEFAULT_RELEASE" ] || export HIPGEN_BINDINGS=$PWD/bindings/rocm-$RELEASE
fi
BINDINGS=${HIPGEN_BINDINGS:-$PWD/bindings/rocm-$RELEASE}

# The libraries a wheel carries are those of AMD unless it is for NVIDIA alone.
case "$PLATFORM" in
  all|amd) LIB_PLATFORM=amd ;;
  nvidia) LIB_PLATFORM=nvidia; BUILD_LLVM=0 ;;
  *) echo "unknown platform '$PLATFORM' (all, amd, nvidia)" >&2; exit 2 ;;
esac
# Include ('a,b') or exclude ('^a,b') lists, resolved against the manifest with the libraries
# those use (hip comes with hipblas), in its order; on NVIDIA without what has no NVIDIA form.
manifest() { "$PY" tools/manifest.py --bindings "$BINDINGS" "$@"; }
SELECTED=$(manifest select --package hip-python --platform "$LIB_PLATFORM" "$LIBS")
LLVM_SELECTED=$(manifest select --package rocm-llvm-python "$LLVM_LIBS")
# The CUDA modules are files of hip-python-as-cuda: (selected by, module, legacy module) lines.
mapfile -t CUDA_MODULES < <(manifest alias-modules --package hip-python-as-cuda)
ALL_CUDA_LIBS=$(for m in "${CUDA_MODULES[@]}"; do echo "${m%% *}"; done | paste -sd,)
CUDA_SELECTED=$("$PY" tools/manifest.py choose "$ALL_CUDA_LIBS" "$CUDA_LIBS")
if [ "$DRY_RUN" = 1 ]; then
  echo "$SELECTED"
  [ "$BUILD_CUDA" = 1 ] && echo "cuda: $CUDA_SELECTED"
  [ "$BUILD_LLVM" = 1 ] && echo "rocm-llvm: $LLVM_SELECTED"
  exit 0
fi
[ -n "$SELECTED" ] || { echo "no library selected" >&2; exit 2; }
OUT=$(mkdir -p "$OUT" && cd "$OUT" && pwd)

if [ "$PRE_CLEAN" = 1 ]; then
  rm -rf dist target/wheels
  cargo clean -q
fi

if [ "$PLATFORM" != amd ] && [ "$BUILD_HIP" = 1 ]; then
  phase "the NVIDIA shims (HIP over CUDA 12 and 13) for ROCm $RELEASE's bindings"
  quietly "NVIDIA shims" bash tools/nvidia-shim.sh "$RELEASE"
else
  rm -rf hip-python/python/hip/_nvidia
fi

# Each package builds in a target folder of its own: the three extensions are all the cdylib
# `_native`, and in one folder a package whose crate is up to date would be handed the
# library another package linked there last.

if [ "$BUILD_HIP" = 1 ]; then
  phase "building hip-python ($PLATFORM) with: $SELECTED"
  # The generated modules' stubs come from the bindings the extensions are built from.
  mapfile -t hip_modules < <(manifest modules --package hip-python "$SELECTED")
  bash tools/stubs.sh "$BINDINGS" hip-python "${hip_modules[@]}"
  "$PY" tools/layout.py "$BINDINGS" hip-python "${hip_modules[@]}"
  clear_wheels hip_python
  # The other releases' extensions (hip/_rocm<major>/_bindings.abi3.so; on AMD, one per ROCm
  # major version) go into the package beside the one maturin builds, and `_releases.json` tells
  # hip._select which modules each has and how to recognise its runtime.
  rm -rf hip-python/python/hip/_rocm[0-9]* hip-python/python/hip/_releases.json
  catalog=("$SELECTED=$BINDINGS")
  if [ "$CARRY" != none ] && [ "$PLATFORM" != nvidia ]; then
    for other in $("$PY" tools/manifest.py shipped); do
      [ "$other" = "$RELEASE" ] && continue
      [ "$CARRY" = all ] || [[ ",$CARRY," == *",$other,"* ]] || continue
      folder=$PWD/bindings/rocm-$other
      # The libraries of this release that --libs selects (an exclude list keeps those only
      # this release has, hipBLASLt in ROCm 7).
      known=",$("$PY" tools/manifest.py --bindings "$folder" libs --package hip-python),"
      names=$(IFS=,; for l in ${LIBS#^}; do [[ $known == *",$l,"* ]] && printf '%s,' "$l"; done)
      if [[ $LIBS == ^* ]]; then
        libs=$("$PY" tools/manifest.py --bindings "$folder" select --package hip-python "^${names%,}")
      else
        libs=$(IFS=,; for l in $SELECTED; do [[ $known == *",$l,"* ]] && printf '%s,' "$l"; done)
        libs=${libs%,}
      fi
      [ -n "$libs" ] || continue
      phase "building hip-python's ROCm $other bindings with: $libs"
      tmp=$(mktemp -d)
      (cd hip-python && HIPGEN_BINDINGS=$folder HIPGEN_LIBS=$libs CARGO_TARGET_DIR=../target/wheel-hip-$other$TARGET_TAG \
         quietly "hip-python ($other)" "../$PY" -m maturin build --release --out "$tmp" "${MANYLINUX[@]}" --features pyo3/extension-module)
      major=${other%%.*}
      mkdir -p "hip-python/python/hip/_rocm$major"
      "$PY" -c "import sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); n = next(n for n in z.namelist() if n.startswith('hip/_native.')); open(sys.argv[2] + '/_bindings' + sys.argv[3], 'wb').write(z.read(n))" \
        "$(ls "$tmp"/hip_python-*.whl)" "hip-python/python/hip/_rocm$major" "$EXT_SUFFIX"
      rm -rf "$tmp"
      # Its C levels for Cython (types laid out for that release): hip.get_include() gives
      # this folder where hip-python chooses that release.
      include=hip-python/python/hip/_rocm$major/include/hip
      mkdir -p "$include"
      for module in $("$PY" tools/manifest.py --bindings "$folder" modules --package hip-python "$libs"); do
        pxd=$folder/stubs/hip/c${module##*.}.pxd
        if [ -f "$pxd" ]; then cp "$pxd" "$include/"; fi
      done
      echo "# Cython's package marker: hip's C levels of ROCm $other." >"$include/__init__.pxd"
      # The cuda package's C levels of that release too (they cimport hip's).
      if [ -d "$folder/stubs/cuda" ]; then
        (cd "$folder/stubs" && find cuda -name '*.pxd' -exec cp --parents {} "$OLDPWD/${include%/hip}/" \;)
        # Package markers: Cython then takes these before the default release's on sys.path.
        for package in cuda cuda/bindings; do
          echo "# Cython's package marker: the cuda package's C levels of ROCm $other." \
            >"${include%/hip}/$package/__init__.pxd"
        done
      fi
      catalog+=("$libs=$folder")
    done
  fi
  version=$(sed -n 's/^version = "\(.*\)"/\1/p' hip-python/pyproject.toml)
  "$PY" tools/manifest.py catalog --version "$version" --suffix "$EXT_SUFFIX" "${catalog[@]}" \
    >hip-python/python/hip/_releases.json
  (cd hip-python && HIPGEN_LIBS=$SELECTED CARGO_TARGET_DIR=../target/wheel-hip-$RELEASE$TARGET_TAG \
     quietly "hip-python ($RELEASE)" "../$PY" -m maturin build --release --out "$OUT" "${MANYLINUX[@]}" \
     --features pyo3/extension-module)
  (cd hip-python && quietly "hip-python's sdist" "../$PY" -m maturin sdist --out "$OUT")
  if [ "$INSTALL" = 1 ]; then
    "$PY_INSTALL" -m pip install -q --disable-pip-version-check --force-reinstall --no-deps \
       "$OUT"/hip_python-*"$WHEEL_TAG"-*.whl
  fi
fi

if [ "$BUILD_CUDA" = 1 ]; then
  phase "building hip-python-as-cuda with: $CUDA_SELECTED"
  clear_wheels hip_python_as_cuda
  # Modules left out are moved aside for the build and put back afterwards.
  aside=$(mktemp -d)
  restore() { cp -a "$aside"/. hip-python-as-cuda/python/cuda/ 2>/dev/null || true; rm -rf "$aside"; }
  trap restore EXIT
  cuda_modules=()
  for m in "${CUDA_MODULES[@]}"; do
    read -r lib module legacy <<<"$m"
    if [[ ",$CUDA_SELECTED," == *",$lib,"* ]]; then cuda_modules+=("$module"); continue; fi
    # Its file and its legacy name's, with that one's .pyi (cuda/bindings/driver.py,
    # cuda/cuda.py, cuda/cuda.pyi), set aside; paths are relative to cuda/ there.
    files=("${module//.//}.py")
    [ "$legacy" = - ] || files+=("${legacy//.//}.py" "${legacy//.//}.pyi")
    for f in "${files[@]}"; do
      [ -f "hip-python-as-cuda/python/$f" ] || continue
      mkdir -p "$aside/$(dirname "${f#cuda/}")"
      mv "hip-python-as-cuda/python/$f" "$aside/${f#cuda/}"
    done
  done
  bash tools/stubs.sh "$BINDINGS" hip-python-as-cuda "${cuda_modules[@]}"
  (cd hip-python-as-cuda && CARGO_TARGET_DIR=../target/wheel-cuda$TARGET_TAG \
     quietly hip-python-as-cuda "../$PY" -m maturin build --release --out "$OUT" "${MANYLINUX[@]}")
  restore
  trap - EXIT
  (cd hip-python-as-cuda && quietly "hip-python-as-cuda's sdist" "../$PY" -m maturin sdist --out "$OUT")
  if [ "$INSTALL" = 1 ]; then
    "$PY_INSTALL" -m pip install -q --disable-pip-version-check --force-reinstall --no-deps \
       "$OUT"/hip_python_as_cuda-*"$WHEEL_TAG"-*.whl
  fi
fi

if [ "$BUILD_LLVM" = 1 ] && [ -n "$LLVM_SELECTED" ]; then
  phase "building rocm-llvm-python with: $LLVM_SELECTED"
  mapfile -t llvm_modules < <(manifest modules --package rocm-llvm-python "$LLVM_SELECTED")
  bash tools/stubs.sh "$BINDINGS" rocm-llvm-python "${llvm_modules[@]}"
  "$PY" tools/layout.py "$BINDINGS" rocm-llvm-python "${llvm_modules[@]}"
  clear_wheels rocm_llvm_python
  # The bindings of LLVM's and comgr's other versions (rocm/_<library><version>/, one
  # extension each, from the newest shipped release of that version; the default release's
  # are rocm._native's), and `_bindings.json`, which tells rocm._select what each holds.
  rm -rf rocm-llvm-python/python/rocm/_llvm[0-9]* rocm-llvm-python/python/rocm/_amd_comgr[0-9]* \
    rocm-llvm-python/python/rocm/_bindings.json
  # Every shipped release's LLVM and comgr versions with the default release (whatever
  # --releases gives hip-python), none with another.
  llvm_carry=all
  [ "$RELEASE" = "$DEFAULT_RELEASE" ] || llvm_carry=none
  while read -r lib major folder; do
    [ "$folder" = "$BINDINGS" ] && continue
    phase "building rocm-llvm-python's $lib $major bindings (ROCm ${folder##*/rocm-})"
    tmp=$(mktemp -d)
    (cd rocm-llvm-python && HIPGEN_BINDINGS=$folder HIPGEN_LIBS=$lib CARGO_TARGET_DIR=../target/wheel-llvm-$lib$major$TARGET_TAG \
       quietly "rocm-llvm-python ($lib $major)" "../$PY" -m maturin build --release --out "$tmp" "${MANYLINUX[@]}" --features pyo3/extension-module)
    mkdir -p "rocm-llvm-python/python/rocm/_$lib$major"
    "$PY" -c "import sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); n = next(n for n in z.namelist() if n.startswith('rocm/_native.')); open(sys.argv[2], 'wb').write(z.read(n))" \
      "$(ls "$tmp"/rocm_llvm_python-*.whl)" "rocm-llvm-python/python/rocm/_$lib$major/_bindings$EXT_SUFFIX"
    rm -rf "$tmp"
  done < <("$PY" tools/manifest.py version-sets --package rocm-llvm-python --releases "$llvm_carry" "$LLVM_SELECTED")
  version=$(sed -n 's/^version = "\(.*\)"/\1/p' rocm-llvm-python/pyproject.toml)
  "$PY" tools/manifest.py version-catalog --package rocm-llvm-python --version "$version" \
    --suffix "$EXT_SUFFIX" --releases "$llvm_carry" "$LLVM_SELECTED" >rocm-llvm-python/python/rocm/_bindings.json
  (cd rocm-llvm-python && HIPGEN_LIBS=$LLVM_SELECTED CARGO_TARGET_DIR=../target/wheel-llvm$TARGET_TAG \
     quietly rocm-llvm-python "../$PY" -m maturin build --release --out "$OUT" "${MANYLINUX[@]}" \
     --features pyo3/extension-module)
  (cd rocm-llvm-python && quietly "rocm-llvm-python's sdist" "../$PY" -m maturin sdist --out "$OUT")
  if [ "$INSTALL" = 1 ]; then
    "$PY_INSTALL" -m pip install -q --disable-pip-version-check --force-reinstall --no-deps \
       "$OUT"/rocm_llvm_python-*"$WHEEL_TAG"-*.whl
  fi
fi

# rocm-llvm-python's dependencies (libclang's Python API), so that the wheelhouse installs
# without an index; where no index can be reached, pip resolves them at install time instead.
if [ "$BUILD_LLVM" = 1 ] && [ -n "$LLVM_SELECTED" ]; then
  mapfile -t llvm_deps < <("$PY" -c 'import sys, tomllib; print(*tomllib.load(open(sys.argv[1], "rb"))["project"]["dependencies"], sep="\n")' rocm-llvm-python/pyproject.toml)
  "$PY" -m pip download -q --disable-pip-version-check --no-deps --only-binary=:all: -d "$OUT" "${llvm_deps[@]}" \
    || echo "build_pkgs.sh: could not download ${llvm_deps[*]} into $OUT (no index?)" >&2
fi
# The free-threaded interpreter's wheels beside these: the same build for that interpreter.
if [ "$ALSO_FREETHREADED" = 1 ]; then
  args=()
  for a in "${ARGS[@]}"; do [ "$a" = --freethreaded ] || args+=("$a"); done
  bash "$0" "${args[@]}" --python "$(bash tools/freethreaded-python.sh)"
fi
# A wheelhouse: `pip install --find-links dist hip-python` (or --index-url of dist/simple),
# listing every wheel of the folder (abi3 and free-threaded).
bash tools/wheelhouse.sh "$OUT"

if [ "$POST_CLEAN" = 1 ]; then
  cargo clean -q
fi

if [ "$RUN_TESTS" = 1 ]; then
  "$PY" -m pytest -q tests
fi
