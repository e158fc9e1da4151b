#!/usr/bin/env bash
# From a fresh Debian 12 machine to the demo: installs what building needs (tools/setup.sh
# build), builds the three packages for the default ROCm release (one hip-python wheel for AMD
# and NVIDIA GPUs), installs them into .venv and runs the demo (compiles a HIP kernel with
# hiprtc; launches it where a GPU exists). A line per phase, and one at least every 20 s while
# a long step runs. What only the tests need is prepared by tools/test.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=tools/progress.sh
. tools/progress.sh
phase "quick start: what building needs (tools/setup.sh build)"
bash tools/setup.sh build
release=$(python3 tools/manifest.py default)
# hip-python carries the bindings of the default release and, where the HIP runtime installed
# here is of another release family, of that one's too: the demo runs on it.
installed=$(python3 tools/manifest.py installed)
phase "building the wheels for ROCm $release${installed:+ and $installed (the runtime here)} into dist/, installing them into .venv"
./build_pkgs.sh --release "$release" --releases "$installed"
phase "the demo (examples/hiprtc_demo.py)"
.venv/bin/python examples/hiprtc_demo.py
phase "quick start done: .venv has hip-python, hip-python-as-cuda and rocm-llvm-python"
