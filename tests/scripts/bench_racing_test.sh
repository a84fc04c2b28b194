#!/usr/bin/env bash
# scripts/bench-racing.sh on a small config, 2 ranks, one run: the three commands' lines, where the
# cases' seconds went per collective and size band (the raced ones split by the rounds they ran, and
# adding up), the picks' agreement and the run's summary.json.
# Usage: bench_racing_test.sh BUILD_DIR (the folder of the commtune binary)
set -euo pipefail
src=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:?usage: bench_racing_test.sh BUILD_DIR}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
die() { echo "bench-racing: $*" >&2; exit 1; }
cat > "$work/config.json" <<'JSON'
{"name": "racing-check", "backend": "mpi",
 "sweep": {"min_bytes": "1K", "max_bytes": "1M", "factor": 32, "collectives": ["allreduce"],
           "min_time": 0.002, "max_time": 0.02},
 "settings": [{"name": "default"},
              {"name": "ring", "collectives": ["allreduce"], "knobs": {"coll_tuned_allreduce_algorithm": "ring"}},
              {"name": "basic-linear", "collectives": ["allreduce"],
               "knobs": {"coll_tuned_allreduce_algorithm": "basic_linear"}}]}
JSON
out=$(NP=2 RUNS=1 CONFIG="$work/config.json" KEEP="$work/keep" bash "$src/scripts/bench-racing.sh" "$build") \
  || die "the bench failed: $out"
echo "$out"
echo "$out" > "$work/out.txt"
for command in exhaustive raced exhaustive-again; do
  grep -Eq "^$command +[0-9.]+s +[0-9.]+s" <<< "$out" || die "no line for the $command command"
done
grep -Eq '^ratio raced/exhaustive, whole command: [0-9.]+ \(target <= 0.25\)' <<< "$out" || die "no ratio line"
grep -q '^raced picks the same as the first exhaustive sweep' <<< "$out" || die "no agreement line"
python3 - "$work/keep/run-1" "$work/out.txt" <<'PY' || die "the case seconds do not add up"
import json, re, sys
run = sys.argv[1]
rows = [l.split() for l in open(sys.argv[2]).read().splitlines()
        if re.match(r"allreduce +(up to 256 B|512 B to 512 KiB|1 MiB and up) ", l)]
bands = {" ".join(r[1:-6]): [float(x) for x in r[-6:]] for r in rows}
assert set(bands) == {"512 B to 512 KiB", "1 MiB and up"}, bands  # 1 KiB, 32 KiB and 1 MiB
for band, (raced, exhaustive, *by_round) in bands.items():
    assert abs(raced - sum(by_round)) <= 0.02, (band, raced, by_round)
    assert exhaustive > 0, band
total = sum(c["cost"]["case_s"] for c in json.load(open(f"{run}/raced.json"))["cases"])
assert abs(total - sum(v[0] for v in bands.values())) <= 0.02, (total, bands)
summary = json.load(open(f"{run}/summary.json"))
assert summary["sizes"] == 3 and 0 <= summary["raced"] <= 3 and 0 <= summary["again"] <= 3, summary
assert summary["ratio"] > 0, summary
PY
echo "bench-racing: all checks passed"
