#!/usr/bin/env bash
# --budget's estimate against the clock on the NCCL path, with simulated workers that spend their
# modelled times (COMMTUNE_SIMULATED_REAL_TIME=1: each timed batch and data check sleeps for what it
# reports, a communicator's init for the cost model's setting start, a case's preparation for its
# case overhead). The clock then differs from the estimate only where the plan's shape does:
# racing's rounds and survivors, the samples a case takes, the finalists' re-measure.
#
# Per run it prints the plan line's estimate ("about X, at most Y"), the sweep's measured time (to
# its results file's last write), the ratio of the two, the racing rounds the sweep ran, and the
# whole command's time (the sweep, then the re-measure in the time left of the budget). The target
# (issue 29): the estimate within a factor of 1.5 of the measured sweep.
#
# Usage: scripts/bench-budget-simulated.sh [BUILD_DIR] [BUDGET] [extra sweep flags...]
#   env: CONFIG=configs/nccl-algorithms.json, RUNS=1, JITTER (the simulated timings' relative
#   spread, COMMTUNE_SIMULATED_JITTER; default the engine's 1%), KEEP=DIR keeps each run's files,
#   SIMULATED=PATH the commtune-simulated executable (default BUILD_DIR/tests/commtune-simulated).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build}
budget=${2:-4m}
shift 2 || shift $#
simulated=${SIMULATED:-$build/tests/commtune-simulated}
[ -x "$simulated" ] || { echo "no $simulated: build the tests first (scripts/build.sh)" >&2; exit 2; }
config=${CONFIG:-$here/../configs/nccl-algorithms.json}
if [ -n "${KEEP:-}" ]; then
  mkdir -p "$KEEP"
  top=$(cd "$KEEP" && pwd)
else
  top=$(mktemp -d)
  trap 'rm -rf "$top"' EXIT
fi
export COMMTUNE_SIMULATED_REAL_TIME=1
[ -n "${JITTER:-}" ] && export COMMTUNE_SIMULATED_JITTER=$JITTER
for run in $(seq 1 "${RUNS:-1}"); do
  dir=$top/run-$run
  mkdir -p "$dir"
  t0=$(date +%s.%N)
  "$simulated" sweep --backend nccl --config "$config" --budget "$budget" --out "$dir/sweep.json" "$@" \
    > "$dir/sweep.txt" 2> "$dir/sweep.err" || { tail -5 "$dir/sweep.err" >&2; exit 1; }
  t1=$(date +%s.%N)
  python3 - "$dir" "$t0" "$t1" <<'PY'
import os, re, sys
d, t0, t1 = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
plan = next(l for l in open(f"{d}/sweep.err") if l.startswith("commtune: plan for --budget"))
def seconds(text):
    total = 0.0
    for n, unit in re.findall(r"([\d.]+)([hms])", text):
        total += float(n) * {"h": 3600, "m": 60, "s": 1}[unit]
    return total
about = seconds(re.search(r"about (\S+?),", plan).group(1))
most = seconds(re.search(r"at most (\S+?);", plan).group(1))
sweep = os.stat(f"{d}/sweep.json").st_mtime - t0
rounds = re.findall(r"^# racing round (\d+) of at most \d+: (\d+) cases", open(f"{d}/sweep.txt").read(), re.M)
print(plan.strip())
print(f"estimate about {about:.1f} s, at most {most:.1f} s; measured sweep {sweep:.1f} s "
      f"(estimate / measured {about / sweep:.2f}; target within 1.5x); whole command {t1 - t0:.1f} s")
print("racing rounds run: " + (", ".join(f"round {r}: {n} cases" for r, n in rounds) or "none (not raced)"))
PY
done
