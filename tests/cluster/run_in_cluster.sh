#!/usr/bin/env bash
# CTest's entry to the cluster tests: brings up 4 emulated nodes (scripts/cluster.sh; with Slurm
# for `slurm`) and runs MODE's checks on n1. Exit 77 (skipped, with the reason) where the
# cluster cannot run. Usage: run_in_cluster.sh mpirun|slurm|groups COMMTUNE COMMTUNE_SIMULATED
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
mode=$1
shift
case "$mode" in
  mpirun | groups) options=() ;;
  slurm) options=(--slurm) ;;
  *) echo "run_in_cluster: unknown mode '$mode'" >&2; exit 2 ;;
esac
work=$(mktemp -d /tmp/commtune-cluster-test.XXXXXX)
trap 'rm -rf "$work"' EXIT
status=0
bash "$root/scripts/cluster.sh" --nodes 4 --slots 2 --timeout 240 --logs "$work/logs" "${options[@]}" -- \
  bash "$here/${mode}_checks.sh" "$@" "$work" || status=$?
if [ "$status" -ne 0 ] && [ "$status" -ne 77 ] && [ -d "$work/logs" ]; then
  for log in "$work"/logs/*; do [ -f "$log" ] && { echo "--- $log"; tail -n 15 "$log"; }; done
fi
exit "$status"
