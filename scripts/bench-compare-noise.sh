#!/usr/bin/env bash
# compare's false-alarm rate and power on this machine, side by side.
#
# Runs the same host sweep (MPI backend, 4 ranks, all-reduce 256 KiB..4 MiB, `--repeat R`) N
# times, and N times again with a forced slower algorithm for the whole job (Open MPI's
# basic_linear all-reduce). Then:
#   - false alarms: compare on every ordered pair of the identical sweeps (A vs B, B vs A): the
#     share of pairs that exit 1 at the default threshold (target: at most 5%);
#   - power: compare of every identical sweep against every slow sweep: the share of pairs in which
#     every size where the slow algorithm is slower (its median over all runs beyond the threshold)
#     is found SLOWER (target: at least 95%), and the share of pairs that exit 1;
#   - the between-run noise: the 95th percentile of |run median / case median - 1| over every run
#     of every identical sweep (what --run-noise stands for), and the same within one sweep.
#   - the single-run view: S extra sweeps without --repeat, compared pairwise (widened verdicts).
#   - the CI gate of docs/compare.md, several launches a side: every way of splitting the
#     identical sweeps into SET baseline files and SET current files (`compare --baseline x SET
#     --current x SET`: false alarms, target <= 5%), and every SET of identical sweeps against the
#     first SET slow sweeps (power, target >= 95%). Needs SWEEPS >= 2 x SET and SLOWS >= SET.
#
# Usage: scripts/bench-compare-noise.sh [BUILD_DIR]   (env: SWEEPS=8 SLOWS=4 REPEAT=4 SINGLES=6
#   NP=4 SET=4; RUN_NOISE=D passes --run-noise D to compare; KEEP=DIR keeps the sweeps, or
#   compares them again)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build}
commtune=$build/commtune
sweeps=${SWEEPS:-8} slows=${SLOWS:-4} repeat=${REPEAT:-4} singles=${SINGLES:-6} np=${NP:-4} set=${SET:-4}
# KEEP=DIR keeps the sweeps' files there (and, when they are there already, only compares them again).
if [ -n "${KEEP:-}" ]; then work=$KEEP; mkdir -p "$work"; else work=$(mktemp -d); trap 'rm -rf "$work"' EXIT; fi
sweep() {  # OUT [--repeat R]
  local out=$1; shift
  "$here/mpirun.sh" -np "$np" "$commtune" sweep --backend mpi -b 256K -e 4M --collectives allreduce --out "$out" "$@" > /dev/null 2>&1
}
start=$(date +%s)
load_before=$(cut -d' ' -f1 /proc/loadavg)
# Interleaved: identical and slow sweeps alternate while both remain, so that drift of the
# machine falls on both kinds alike.
if [ ! -e "$work/single-$singles.json" ]; then
  for i in $(seq "$(( sweeps > slows ? sweeps : slows ))"); do
    [ "$i" -le "$sweeps" ] && sweep "$work/same-$i.json" --repeat "$repeat"
    [ "$i" -le "$slows" ] && OMPI_MCA_coll_tuned_use_dynamic_rules=1 OMPI_MCA_coll_tuned_allreduce_algorithm=1 sweep "$work/slow-$i.json" --repeat "$repeat"
  done
  for i in $(seq "$singles"); do sweep "$work/single-$i.json"; done
fi
echo "# bench-compare-noise: $sweeps sweeps x --repeat $repeat, $slows forced basic_linear, $singles single-run sweeps; $np ranks; $(( $(date +%s) - start )) s; load average $load_before before, $(cut -d' ' -f1 /proc/loadavg) after"
exec python3 - "$commtune" "$work" "$sweeps" "$singles" "$slows" "$set" <<'PY'
import itertools, json, os, statistics, subprocess, sys
commtune, work, sweeps, singles, slows, set_size = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6])
def compare_sets(baseline, current):
    noise = ["--run-noise", os.environ["RUN_NOISE"]] if os.environ.get("RUN_NOISE") else []
    sides = [arg for path in baseline for arg in ("--baseline", path)] + [arg for path in current for arg in ("--current", path)]
    p = subprocess.run([commtune, "compare"] + sides + ["--format", "json"] + noise, capture_output=True, text=True)
    if p.returncode not in (0, 1):
        sys.exit(f"compare {baseline} {current} exited {p.returncode}: {p.stderr}")
    return p.returncode, json.loads(p.stdout)
def compare(a, b):
    return compare_sets([a], [b])
same = [f"{work}/same-{i}.json" for i in range(1, sweeps + 1)]
slow = [f"{work}/slow-{i}.json" for i in range(1, slows + 1)]
single = [f"{work}/single-{i}.json" for i in range(1, singles + 1)]
def cases(path):
    return {(c["bytes"], c["placement"]): c for c in json.load(open(path))["cases"] if c["status"] == "ok"}
# Between-run noise of the identical sweeps.
runs = {}
within = []
for path in same:
    for key, c in cases(path).items():
        runs.setdefault(key, []).extend(c["run_medians_us"])
        m = statistics.median(c["run_medians_us"])
        within += [abs(x / m - 1) for x in c["run_medians_us"]]
across = []
for key, values in runs.items():
    m = statistics.median(values)
    across += [abs(x / m - 1) for x in values]
def p95(values):
    values = sorted(values)
    return values[min(len(values) - 1, int(0.95 * len(values)))]
print(f"between-run noise (p95 |run median / case median - 1|): across sweeps {p95(across):.1%}, within one sweep {p95(within):.1%}")
# Where the slow algorithm is slower: its median over every run beyond the default threshold.
slow_runs = {}
for path in slow:
    for key, c in cases(path).items():
        slow_runs.setdefault(key, []).extend(c["run_medians_us"])
slower_at = sorted(k for k in runs if k in slow_runs and statistics.median(slow_runs[k]) > 1.05 * statistics.median(runs[k]))
ratio = {k: statistics.median(slow_runs[k]) / statistics.median(runs[k]) for k in slower_at}
print("basic_linear slower at: " + ", ".join(f"{b // 1024} KiB {p} (x{ratio[(b, p)]:.2f})" for b, p in slower_at))
def false_alarms(files):
    pairs = list(itertools.permutations(files, 2))
    alarms = sum(compare(a, b)[0] == 1 for a, b in pairs)
    return alarms, len(pairs)
alarms, pairs = false_alarms(same)
print(f"false alarms, --repeat files: {alarms}/{pairs} ordered pairs exit 1 ({alarms / pairs:.1%}; target <= 5%)")
alarms1, pairs1 = false_alarms(single)
print(f"false alarms, single-run files (widened by the default run noise): {alarms1}/{pairs1} ({alarms1 / pairs1:.1%})")
found = exits = 0
total = 0
for a, b in itertools.product(same, slow):
    code, report = compare(a, b)
    verdicts = {(c["bytes"], c["placement"]): c["verdict"] for c in report["cases"]}
    total += 1
    exits += code == 1
    found += all(verdicts.get(k) == "SLOWER" for k in slower_at)
per_size = {k: 0 for k in slower_at}
for a, b in itertools.product(same, slow):
    verdicts = {(c["bytes"], c["placement"]): c["verdict"] for c in compare(a, b)[1]["cases"]}
    for k in slower_at: per_size[k] += verdicts.get(k) == "SLOWER"
print("power per size: " + ", ".join(f"{b // 1024} KiB {p} {n}/{total}" for (b, p), n in per_size.items()))
print(f"power: {found}/{total} pairs find SLOWER at every size where basic_linear is slower ({found / total:.1%}; target >= 95%); {exits}/{total} exit 1")
# The CI gate: SET launches a side.
if sweeps >= 2 * set_size and slows >= set_size:
    splits = [(list(b), [f for f in same if f not in b]) for b in itertools.combinations(same, set_size)]
    splits = [(b, c[:set_size]) for b, c in splits]
    alarms = sum(compare_sets(b, c)[0] == 1 for b, c in splits)
    print(f"gate, {set_size} launches a side: false alarms {alarms}/{len(splits)} splits of the {sweeps} identical sweeps exit 1 "
          f"({alarms / len(splits):.1%}; target <= 5%)")
    found = exits = 0
    per_size = {k: 0 for k in slower_at}
    subsets = list(itertools.combinations(same, set_size))
    for b in subsets:
        code, report = compare_sets(list(b), slow[:set_size])
        verdicts = {(c["bytes"], c["placement"]): c["verdict"] for c in report["cases"]}
        exits += code == 1
        found += all(verdicts.get(k) == "SLOWER" for k in slower_at)
        for k in slower_at: per_size[k] += verdicts.get(k) == "SLOWER"
    print(f"gate, {set_size} launches a side: power per size: " + ", ".join(f"{b // 1024} KiB {p} {n}/{len(subsets)}" for (b, p), n in per_size.items()))
    print(f"gate, {set_size} launches a side: power {found}/{len(subsets)} sets of identical sweeps against the first {set_size} slow "
          f"sweeps find SLOWER at every size where basic_linear is slower ({found / len(subsets):.1%}; target >= 95%); {exits}/{len(subsets)} exit 1")
PY
