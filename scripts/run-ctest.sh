#!/usr/bin/env bash
# Runs a build tree's tests in two parts: the tests that start no mpirun, no emulated cluster and no
# browser (label unit, and any unlabelled one) side by side, one per core; then the mpi, cluster
# and browser tests one at a time, since each already runs several processes on this machine's
# cores (mpirun --oversubscribe, namespaced nodes, Chromium). A unit test asserts data and exit
# codes, not wall time, so running two at once only shortens the stage (on the 2-core VM, 259 s of
# unit tests in 130 s).
# Usage: scripts/run-ctest.sh BUILD_DIR [--skip-labels LABEL|LABEL...] [ctest args...]
#   --skip-labels: of mpi, cluster and browser, those left out of the second part.
#   env: COMMTUNE_UNIT_JOBS (the first part; default: the cores), COMMTUNE_TEST_JOBS (the second
#   part; default 1).
set -euo pipefail
build_dir=$1
shift
skip=
if [ "${1:-}" = --skip-labels ]; then
  skip=$2
  shift 2
fi
serial=()
for label in mpi cluster browser; do
  [[ "|$skip|" == *"|$label|"* ]] || serial+=("$label")
done
status=0
ctest --test-dir "$build_dir" --output-on-failure -j "${COMMTUNE_UNIT_JOBS:-$(nproc)}" \
  -LE 'mpi|cluster|browser' "$@" || status=$?
if [ "${#serial[@]}" -gt 0 ]; then
  ctest --test-dir "$build_dir" --output-on-failure -j "${COMMTUNE_TEST_JOBS:-1}" \
    -L "$(IFS='|'; echo "${serial[*]}")" "$@" || status=$?
fi
exit "$status"
