#!/usr/bin/env bash
# A free-threaded CPython (built with --disable-gil) to build and test the free-threaded wheels
# with. None is packaged for Debian, so it is built once from Debian's source package of CPython
# (apt verifies the signed index and the tarball's checksum) and cached outside the checkout,
# where later runs and CI on the same machine find it: building takes about seven minutes on two
# cores. Prints the interpreter's path on stdout; everything else goes to stderr.
#
#   tools/freethreaded-python.sh            # build if needed, print the path
#   HIPGEN_FT_CACHE=/somewhere tools/freethreaded-python.sh
#
# The source package is the newest CPython whose source Debian's stable suite serves here
# (trixie's python3.13); the same build works for any CPython >= 3.13 (HIPGEN_FT_SOURCE names
# another source package, HIPGEN_FT_SUITE another suite). HIPGEN_FT_CONFIGURE adds configure
# options, CC names the compiler: tools/tsan.sh builds a ThreadSanitizer interpreter so, into a
# cache of its own, keeping CPython's TSan suppressions in share/tsan_suppressions.txt.
set -euo pipefail

suite=${HIPGEN_FT_SUITE:-trixie}
source_pkg=${HIPGEN_FT_SOURCE:-python3.13}
cache=${HIPGEN_FT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/hipgen/freethreaded}
minor=${source_pkg#python}
prefix=$cache/$source_pkg-$suite
python=$prefix/bin/python${minor}t

log() { echo "freethreaded-python: $*" >&2; }

if [ -x "$python" ] && "$python" -c 'import sys, sysconfig; sys.exit(not sysconfig.get_config_var("Py_GIL_DISABLED"))' 2>/dev/null; then
  echo "$python"
  exit 0
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/lists/partial" "$work/src"
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
cat > "$work/sources.list" <<EOF
deb-src [signed-by=$keyring] http://deb.debian.org/debian $suite main
deb-src [signed-by=$keyring] http://deb.debian.org/debian-security $suite-security main
EOF
# A private source list and list directory: the machine's apt configuration stays as it is.
apt=(-o "Dir::Etc::SourceList=$work/sources.list" -o Dir::Etc::SourceParts=/dev/null
     -o "Dir::State::Lists=$work/lists" -o APT::Sandbox::User=root)
log "fetching Debian's $suite source package $source_pkg"
apt-get "${apt[@]}" -qq update >&2
(cd "$work/src" && apt-get "${apt[@]}" -qq source --download-only "$source_pkg" >&2)
orig=$(ls "$work"/src/*.orig.tar.* | grep -v "\.asc$")
log "building $(basename "$orig") with --disable-gil into $prefix"
tar -xf "$orig" -C "$work/src"
srcdir=$(find "$work/src" -mindepth 1 -maxdepth 1 -type d | head -1)
# The headers and libraries CPython's modules need (ssl for pip, ctypes' libffi, ...).
if [ "$(id -u)" = 0 ] && command -v apt-get > /dev/null; then
  apt-get -qq install -y --no-install-recommends build-essential libssl-dev zlib1g-dev \
    libffi-dev libbz2-dev liblzma-dev libsqlite3-dev libreadline-dev uuid-dev > /dev/null
fi
rm -rf "$prefix"
# shellcheck disable=SC2086 # HIPGEN_FT_CONFIGURE: options, split on spaces
(cd "$srcdir" && ./configure -q --disable-gil --disable-test-modules --prefix="$prefix" --with-ensurepip=install ${HIPGEN_FT_CONFIGURE:-} > /dev/null \
  && make -s -j"$(nproc)" > "$work/make.log" 2>&1 || { tail -40 "$work/make.log" >&2; exit 1; }
  make -s install > "$work/install.log" 2>&1 || { tail -40 "$work/install.log" >&2; exit 1; })
if [ -f "$srcdir/Tools/tsan/suppressions_free_threading.txt" ]; then
  mkdir -p "$prefix/share"
  cp "$srcdir/Tools/tsan/suppressions_free_threading.txt" "$prefix/share/tsan_suppressions.txt"
fi
"$python" -c 'import sys, sysconfig, ssl, ctypes; assert sysconfig.get_config_var("Py_GIL_DISABLED"); print(sys.version)' >&2
echo "$python"
