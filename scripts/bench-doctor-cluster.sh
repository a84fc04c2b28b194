#!/usr/bin/env bash
# The doctor's finding rates on the emulated cluster (scripts/cluster.sh), side by side, in one run:
#   - slow node: 4 nodes, n4 shaped to 100 Mbit (tc tbf): the runs that name n4 as the slow node
#     and no other node (target: at least 9 of 10);
#   - straggler: rank 2 (node n3) under a CPU limit (cgroup v2 cpu.max, or v1 cpu.cfs_quota_us
#     where the cpu controller is on v1): the runs that name rank 2 as the straggler, and no other;
#   - slow pair: only the route n2 <-> n4 shaped to 100 Mbit (scripts/cluster.sh shape-pair): the
#     runs that name that pair (confirmed alone) and no other pair or node (target: at least 9 of 10);
#   - healthy: no shaping, no limit: the runs with no slow-node finding (target: 10 of 10), with no
#     slow-pair finding (target: 10 of 10), and those with no straggler finding (`straggler`, from the CPU shares; `straggler-arrivals`, from
#     the arrivals alone, on a row of its own).
# Every run is `mpirun --map-by ppr:1:node -np 4 commtune doctor --quick --json`; the load average
# is printed at the start and the end (the rates need a fairly quiet machine).
#
# Usage: scripts/bench-doctor-cluster.sh [BUILD_DIR]
#   env: RUNS=10 (each kind), CPU_PERCENT=20 (the limit, % of one CPU), CPU_PERIOD_US=10000,
#        KEEP=DIR (keep the findings files there; DIR must not exist)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)

# --- inside the cluster, as every rank's program: the limited rank asks to join the CPU-limited
# group (the nodes' /sys has no cgroup tree: a watcher on the host moves it, by a file named by pid)
if [ "${1:-}" = --rank ]; then
  shift
  if [ -n "${BENCH_LIMIT_DIR:-}" ] && [ "${OMPI_COMM_WORLD_RANK:-}" = "${BENCH_LIMIT_RANK:-}" ]; then
    : > "$BENCH_LIMIT_DIR/$$"
  fi
  exec "$@"
fi

# --- inside the cluster, on n1: every run ---------------------------------------------------------
if [ "${1:-}" = --inside ]; then
  commtune=$2 work=$3 runs=$4 requests=$5
  read -r -a mpirun <<< "$CLUSTER_MPIRUN"
  doctor() {  # OUT [env...]
    local out=$1; shift
    env "$@" "${mpirun[@]}" --map-by ppr:1:node -np 4 -x BENCH_LIMIT_DIR -x BENCH_LIMIT_RANK \
      "$here/bench-doctor-cluster.sh" --rank "$commtune" doctor --quick --json "$out" > "$out.log" 2>&1 || true
    [ -f "$out" ] || { echo "bench: $out: no findings file (see $out.log)" >&2; tail -5 "$out.log" >&2; }
  }
  for i in $(seq "$runs"); do
    echo "[${SECONDS}s] run $i of $runs" >&2
    doctor "$work/healthy-$i.json" BENCH_LIMIT_DIR= BENCH_LIMIT_RANK=
    bash "$here/cluster.sh" shape n4 100mbit
    doctor "$work/shaped-$i.json" BENCH_LIMIT_DIR= BENCH_LIMIT_RANK=
    bash "$here/cluster.sh" unshape n4
    bash "$here/cluster.sh" shape-pair n2 n4 100mbit
    doctor "$work/pair-$i.json" BENCH_LIMIT_DIR= BENCH_LIMIT_RANK=
    bash "$here/cluster.sh" unshape-pair n2 n4
    doctor "$work/limited-$i.json" BENCH_LIMIT_DIR="$requests" BENCH_LIMIT_RANK=2
  done
  exit 0
fi

# --- on the host: the CPU-limited group, the cluster, the tally ----------------------------------
build=${1:-$here/../build}
commtune=$(cd "$build" && pwd)/commtune
runs=${RUNS:-10} percent=${CPU_PERCENT:-20} period=${CPU_PERIOD_US:-10000}
[ -x "$commtune" ] || { echo "bench: no $commtune (build first)" >&2; exit 2; }
work=$(mktemp -d /tmp/commtune-bench-doctor.XXXXXX)
chmod 755 "$work"
name=commtune-bench-$$
if [ -f /sys/fs/cgroup/cgroup.controllers ] && grep -qw cpu /sys/fs/cgroup/cgroup.controllers; then
  group=/sys/fs/cgroup/$name
  mkdir "$group"
  echo "$((period * percent / 100)) $period" > "$group/cpu.max"
elif [ -d /sys/fs/cgroup/cpu ] && [ -f /sys/fs/cgroup/cpu/cpu.cfs_quota_us ]; then
  group=/sys/fs/cgroup/cpu/$name
  mkdir "$group"
  echo "$period" > "$group/cpu.cfs_period_us"
  echo "$((period * percent / 100))" > "$group/cpu.cfs_quota_us"
else
  echo "bench: no cgroup cpu controller to limit a rank" >&2; exit 77
fi
requests=$work/limit-requests
mkdir "$requests"
# Moves each requesting pid into the group, once (a process keeps its group across exec).
( while :; do
    for f in "$requests"/*; do
      [ -e "$f" ] || continue
      echo "${f##*/}" > "$group/cgroup.procs" 2>/dev/null || true
      rm -f "$f"
    done
    sleep 0.05
  done ) &
watcher=$!
cleanup() {
  kill "$watcher" 2>/dev/null || true
  wait "$watcher" 2>/dev/null || true
  [ -n "${KEEP:-}" ] && cp -r "$work" "$KEEP" 2>/dev/null || true
  rm -rf "$work"
  # the limited processes have ended with their runs; an empty group can be removed
  rmdir "$group" 2>/dev/null || echo "bench: could not remove $group (processes left in it?)" >&2
}
trap cleanup EXIT
echo "load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
start=$(date +%s)
bash "$here/cluster.sh" --nodes 4 --slots 2 --timeout 3000 -- \
  bash "$here/bench-doctor-cluster.sh" --inside "$commtune" "$work" "$runs" "$requests"
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg) ($(( $(date +%s) - start )) s)"
python3 - "$work" "$runs" "$percent" <<'PY'
import json, sys, pathlib
work, runs, percent = pathlib.Path(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
def findings(kind, i):
    p = work / f"{kind}-{i}.json"
    return json.loads(p.read_text())["findings"] if p.exists() else None
def subjects(fs, fid):
    return [f["subject"] for f in fs if f["id"] == fid]
rows = []
def rate(label, kind, ok):
    hits, missing, seen = 0, 0, []
    for i in range(1, runs + 1):
        fs = findings(kind, i)
        if fs is None:
            missing += 1
            continue
        hits += ok(fs)
        seen.append(";".join(subjects(fs, "slow-node") + subjects(fs, "slow-pair") + subjects(fs, "straggler") +
                             [s + " (arrivals)" for s in subjects(fs, "straggler-arrivals")]) or "-")
    rows.append((label, f"{hits}/{runs}", missing, " | ".join(seen)))
rate("shaped n4: n4 is the slow node, no other", "shaped", lambda fs: subjects(fs, "slow-node") == ["node n4"])
rate("shaped route n2 <-> n4: that pair, no other, no node", "pair",
     lambda fs: subjects(fs, "slow-pair") == ["n2 <-> n4"] and not subjects(fs, "slow-node"))
rate(f"rank 2 at {percent}% CPU: the straggler, no other", "limited", lambda fs: [s.split(" (")[0] for s in subjects(fs, "straggler")] == ["rank 2"])
rate("healthy: no slow-node finding", "healthy", lambda fs: not subjects(fs, "slow-node"))
rate("healthy: no slow-pair finding", "healthy", lambda fs: not subjects(fs, "slow-pair"))
rate("healthy: no straggler finding", "healthy", lambda fs: not subjects(fs, "straggler"))
rate("shaped n4: no straggler finding", "shaped", lambda fs: not subjects(fs, "straggler"))
rate("healthy: no straggler-arrivals (info) finding", "healthy", lambda fs: not subjects(fs, "straggler-arrivals"))
print(f"{'check':<52} {'rate':>6} {'no file':>7}  named per run (slow-node; slow-pair; straggler)")
for label, r, missing, seen in rows:
    print(f"{label:<52} {r:>6} {missing:>7}  {seen}")
PY
