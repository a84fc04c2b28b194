#!/usr/bin/env bash
# Installs, builds and runs every test: unit, MPI integration (mpirun -np 2..4), fault injection,
# the bad-input corpus and GPU tests (skipped with a reason where no GPU is visible); then the
# whole suite again under AddressSanitizer and UndefinedBehaviorSanitizer (build-asan), and the
# fuzzers (scripts/fuzz.sh, COMMTUNE_FUZZ_SECONDS each). COMMTUNE_SANITIZE=0 / COMMTUNE_FUZZ=0 leave
# those two stages out for a quick local loop; CI runs them. Exit 0 when all pass.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
build_dir=${COMMTUNE_BUILD_DIR:-build}
bash scripts/run-ctest.sh "$build_dir"
# ctest only says "Skipped": where no GPU is visible, show why the GPU tests did not run.
"$build_dir/commtune" info | grep -q '^visible GPUs: [1-9]' || { ctest --test-dir "$build_dir" -L gpu -V 2>/dev/null | grep -A1 ': Skipped$' |
  grep -vE ': Skipped$|^--$' | sed 's/^[0-9]*: */gpu tests skipped: /' | sort -u; } || true
if [ "${COMMTUNE_SANITIZE:-1}" != 0 ]; then
  bash scripts/test-sanitized.sh
fi
if [ "${COMMTUNE_FUZZ:-1}" != 0 ]; then
  bash scripts/fuzz.sh
fi
