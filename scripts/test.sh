#!/usr/bin/env bash
# Installs, builds and runs every test: unit, MPI integration (mpirun -np 2..4), fault injection,
# and GPU tests (skipped with a reason where no GPU is visible). Exit 0 when all pass.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
ctest --test-dir "${COMMTUNE_BUILD_DIR:-build}" --output-on-failure -j "${COMMTUNE_TEST_JOBS:-1}"
# ctest only says "Skipped": where no GPU is visible, show why the GPU tests did not run.
build_dir=${COMMTUNE_BUILD_DIR:-build}
"$build_dir/commtune" info | grep -q '^visible GPUs: [1-9]' || { ctest --test-dir "${COMMTUNE_BUILD_DIR:-build}" -L gpu -V 2>/dev/null | grep -A1 ': Skipped$' |
  grep -vE ': Skipped$|^--$' | sed 's/^[0-9]*: */gpu tests skipped: /' | sort -u; } || true
