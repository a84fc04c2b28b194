#!/usr/bin/env bash
# scripts/bench-budget-simulated.sh on a small config: it prints the plan's estimate, the measured
# sweep and their ratio, and the simulated workers spend their modelled times on the clock (the
# sweep takes at least the cost model's start of each of its settings, which an engine answering
# at once would not).
# Usage: bench_budget_simulated_test.sh COMMTUNE_SIMULATED
set -euo pipefail
src=$(cd "$(dirname "$0")/../.." && pwd)
simulated=${1:?usage: bench_budget_simulated_test.sh COMMTUNE_SIMULATED}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
die() { echo "bench-budget-simulated: $*" >&2; exit 1; }
cat > "$work/config.json" <<'JSON'
{"name": "budget-check", "backend": "nccl",
 "sweep": {"min_bytes": "8", "max_bytes": "1K", "factor": 4, "collectives": ["allreduce"], "max_time": 0.05},
 "settings": [{"name": "default"}, {"name": "ring-simple", "knobs": {"NCCL_ALGO": "Ring", "NCCL_PROTO": "Simple"}}]}
JSON
out=$(CONFIG="$work/config.json" SIMULATED="$simulated" KEEP="$work/keep" \
  bash "$src/scripts/bench-budget-simulated.sh" unused-build-dir 2m) || die "the bench failed: $out"
echo "$out"
line=$(grep '^estimate about ' <<< "$out") || die "no estimate line"
python3 - "$line" <<'PY' || die "the estimate line does not add up: $line"
import re, sys
m = re.match(r"estimate about ([\d.]+) s, at most ([\d.]+) s; measured sweep ([\d.]+) s \(estimate / measured ([\d.]+);",
             sys.argv[1])
about, most, sweep, ratio = map(float, m.groups())
assert 0 < about <= most, (about, most)
assert abs(ratio - about / sweep) < 0.01 + 0.01 * ratio, (ratio, about, sweep)
# Two settings open, each 3 s + 0.05 s per rank (2 simulated GPUs) on the clock.
assert sweep >= 2 * 3.1, sweep
PY
grep -q '^racing rounds run: round 1: [0-9]* cases' <<< "$out" || die "no racing rounds line"
grep -q '^commtune: plan for --budget 2m00s: ' <<< "$out" || die "no plan line"
[ -s "$work/keep/run-1/sweep.json" ] || die "KEEP did not keep the results"
echo "bench-budget-simulated: all checks passed"
