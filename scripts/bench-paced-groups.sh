#!/usr/bin/env bash
# A broadcast's time per call in paced groups of 8, 4, 3 and 2 calls, alternating, at 1, 2 and
# 4 MiB (scripts/paced-groups.cpp, built here with mpicxx): what a smaller group adds, the
# barrier's exit spread being divided by fewer calls (docs/statistics.md, "Rooted collectives on
# the MPI host backend").
# Usage: scripts/bench-paced-groups.sh [ranks=4] [samples=40] [runs=3]
set -euo pipefail
cd "$(dirname "$0")/.."
ranks=${1:-4}
samples=${2:-40}
runs=${3:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mpicxx -std=c++20 -O2 -o "$work/paced-groups" scripts/paced-groups.cpp
for run in $(seq 1 "$runs"); do
  echo "== run $run of $runs"
  scripts/mpirun.sh -np "$ranks" "$work/paced-groups" "$samples"
done
