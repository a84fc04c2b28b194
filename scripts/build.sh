#!/usr/bin/env bash
# Configures and builds commtune (Release) into build/ (or $COMMTUNE_BUILD_DIR).
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=${COMMTUNE_BUILD_DIR:-build}
jobs=${COMMTUNE_JOBS:-$(nproc)}
# A unity build (16 sources per translation unit) parses each heavy header (nlohmann/json, gtest)
# once per batch instead of once per file: a fresh build takes about a third of the time, which is
# what CI and a newcomer pay. COMMTUNE_UNITY=0 builds file by file (quicker for small edits).
unity=()
[ "${COMMTUNE_UNITY:-1}" != 0 ] && unity=(-DCMAKE_UNITY_BUILD=ON -DCMAKE_UNITY_BUILD_BATCH_SIZE=16)
cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=Release "${unity[@]}" "$@"
cmake --build "$build_dir" -j "$jobs"
