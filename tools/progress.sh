# Progress lines for the long scripts (sourced by tools/quickstart.sh, tools/test.sh,
# build_pkgs.sh and tools/prepare.sh): a line per phase with the time since the outermost
# script started, and a line at least every 20 s while a long command runs.
#
#   phase "building hip-python"          [ 3:12] building hip-python
#   quietly LABEL command...             runs command with its output in a log; every 20 s
#                                        prints its newest progress line; on failure, the
#                                        log's tail

# The outermost script's start, shared with the scripts it calls.
export HIPGEN_T0=${HIPGEN_T0:-$(date +%s)}

# The time since HIPGEN_T0 as m:ss.
elapsed() {
  local s=$(($(date +%s) - HIPGEN_T0))
  printf '%2d:%02d' $((s / 60)) $((s % 60))
}

phase() {
  echo "[$(elapsed)] $*"
}

# The newest line of the log that says what the command is at (cargo's and maturin's
# `Compiling x`, pip's `Collecting x`, ...), else its last line.
progress_of() {
  { grep -aE 'Compiling |Building |Collecting |Installing |Unpacking |Downloading |Finished' "$1" \
      || grep -av '^[[:space:]]*$' "$1"; } 2>/dev/null \
    | tail -n 1 | sed -E 's/\x1b\[[0-9;]*[A-Za-z]//g; s/^[[:space:]]+//' | cut -c1-100
}

# quietly LABEL COMMAND...: runs COMMAND, its output kept in a log, printing a line every
# 20 s; returns its status, printing the log's last 40 lines when it fails.
quietly() {
  local label=$1; shift
  local log status ticker
  log=$(mktemp)
  "$@" >"$log" 2>&1 &
  local pid=$!
  (
    while sleep 20; do
      kill -0 "$pid" 2>/dev/null || break
      echo "[$(elapsed)]   $label: $(progress_of "$log")"
    done
  ) &
  ticker=$!
  status=0
  wait "$pid" || status=$?
  kill "$ticker" 2>/dev/null || true
  wait "$ticker" 2>/dev/null || true
  if [ "$status" != 0 ]; then
    echo "[$(elapsed)] $label failed (status $status); the end of its output:" >&2
    tail -n 40 "$log" >&2
  fi
  rm -f "$log"
  return "$status"
}
