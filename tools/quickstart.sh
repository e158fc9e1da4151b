#!/usr/bin/env bash
# From a fresh Debian 12 machine: install what is needed, build and install the wheels (abi3,
# and the free-threaded CPython's beside them), and run the demo (compiles a HIP kernel with
# hiprtc; launches it where a GPU exists).
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/setup.sh
./build_pkgs.sh --freethreaded
.venv/bin/python examples/hiprtc_demo.py
