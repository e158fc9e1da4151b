#!/usr/bin/env bash
# Writes a PEP 503 simple index over the wheels and sdists in a folder, so the folder works
# both with `pip install --find-links DIR` and `pip install --index-url file://DIR/simple`.
set -euo pipefail
dir=${1:-dist}
rm -rf "$dir/simple"
mkdir -p "$dir/simple"
{
  echo '<!DOCTYPE html><html><body>'
  for f in "$dir"/*.whl "$dir"/*.tar.gz; do
    [ -e "$f" ] || continue
    name=$(basename "$f" | sed -E 's/-[0-9].*//; s/[-_.]+/-/g' | tr 'A-Z' 'a-z')
    mkdir -p "$dir/simple/$name"
    echo "<a href=\"../../$(basename "$f")\">$(basename "$f")</a><br>" >>"$dir/simple/$name/index.html"
    echo "$name"
  done | sort -u | sed 's|.*|<a href="&/">&</a><br>|'
  echo '</body></html>'
} >"$dir/simple/index.html"
