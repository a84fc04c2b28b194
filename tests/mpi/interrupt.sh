#!/usr/bin/env bash
# Ctrl-C in the middle of a sweep leaves a valid results file holding every finished case.
source "$(dirname "$0")/common.sh"
run_and_interrupt() {
  local out=$1; shift
  "$@" -b 8 -e 64M -f 2 --min-time 0.2 --max-time 0.3 --out "$out" > "$WORK/table.txt" 2>&1 &
  local pid=$!
  for _ in $(seq 1 200); do
    [ -s "$out" ] && [ "$(grep -c '"setting"' "$out" || true)" -ge 3 ] && break
    sleep 0.1
  done
  kill -INT "$pid"
  set +e; wait "$pid"; local code=$?; set -e
  echo "exit code after SIGINT: $code"
  "$CHECK" "$out" --incomplete --min-cases 2
}
say "no launcher"
run_and_interrupt "$WORK/single.json" "$COMMTUNE" sweep --backend mpi
say "under mpirun -np 2"
run_and_interrupt "$WORK/mpi.json" "${MPIRUN[@]}" -np 2 "$COMMTUNE" sweep
