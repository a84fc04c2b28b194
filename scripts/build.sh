#!/usr/bin/env bash
# Configures and builds commtune (Release) into build/ (or $COMMTUNE_BUILD_DIR).
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=${COMMTUNE_BUILD_DIR:-build}
jobs=${COMMTUNE_JOBS:-$(nproc)}
cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=Release "$@"
cmake --build "$build_dir" -j "$jobs"
