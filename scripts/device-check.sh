#!/usr/bin/env bash
# shellcheck disable=SC2317  # the step_* functions are called by name (step_$NAME)
# The whole GPU check in one run, for a session lent a GPU machine for a few minutes, giving one
# verdict per step (docs/nccl-backend.md, "Checking on a GPU machine": how to pack and start it).
# On the GPU machine, from the repository root, after `source .device/on-device.sh`:
#
#   scripts/device-check.sh [STEP...]     STEP: bench tests local mpi doctor tune replay torch (default: all, in that order)
#
#   bench  nccl-tests against commtune first, 2 ranks on the one GPU as emulated nodes (nccl-tests
#          through scripts/bench-nccl-tests.sh's NCCL_HOSTID wrapper, commtune --emulate-nodes),
#          1 KiB to 16 MiB by 4, all-reduce and all-gather: every nccl-tests size run 5 times and the
#          median taken, commtune with --repeat 5 on the same sizes. FAIL when commtune / nccl-tests
#          is off by more than 2% at any size from 64 KiB up, when the two loaded different NCCL
#          versions (or one is unknown), on wrong data, and when nccl-tests was not packed.
#   tests  the gpu test binaries (gpu_kernel_tests, then gpu_sweep_tests in 2 concurrent shards);
#          a skipped test fails the step (a GPU is there)
#   local  commtune sweep --config configs/nccl-quick.json, no launcher (one worker per GPU)
#   mpi    mpirun -np 4 commtune sweep --config configs/nccl-quick.json --emulate-nodes
#   doctor commtune doctor --backend nccl --quick --ranks 2 --emulate-nodes: passes when the NCCL
#          pairwise map has both ranks and neither the map nor the small sweep failed (findings
#          about the machine itself do not fail it)
#   tune   commtune tune on the mpi sweep (else the local one), then export --format all
#   replay commtune replay of a DDP preset's step (50M bfloat16 parameters, 2 emulated nodes) under the default
#          and configs/nccl-quick.json's settings: passes when every setting replayed (issue 28)
#   torch  scripts/ddp-tiny.py: a tiny DistributedDataParallel job, 2 processes on the one GPU (a
#          distinct NCCL_HOSTID each, NCCL_NET=Socket), NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,COLL and
#          the PyTorch profiler on; SKIP only when python3 cannot import torch. Then `commtune
#          workload` reads the NCCL logs and rank 0's trace (issue 28): the figures say whether each
#          read and whether both give the same collectives (not a verdict: real data to look at)
# The sweeps stop at 16 MiB (local) and 4 MiB (mpi) with --max-time 0.05.
#
# Time, by construction: every step has a fixed deadline (seconds) and the deadlines, with the
# preflight's and the final reserve's, sum to at most DEVICE_CHECK_BUDGET (default 480); the plan
# is printed first, a plan over the budget is refused (exit 2). A step still running at its
# deadline is killed with everything it started (TIMEOUT) and the next step runs. Defaults:
#   preflight 30, bench 80, tests 120, local 35, mpi 50, doctor 30, tune 15, replay 40, torch 55, finish 15 (470)
# DEVICE_CHECK_DEADLINES="bench=120,tests=100" changes some (whole seconds). Give the device tool a
# timeout_s above the budget (540).
# MPS: where nvidia-cuda-mps-control is found (and DEVICE_CHECK_MPS is not 0), the preflight starts
# an MPS control daemon of its own (pipe and log folders in the run's temporary folder) so that the
# ranks sharing the one GPU run concurrently, checks that two ranks on the GPU run under it (a tiny
# commtune sweep; else stops it and goes on without), and stops it at the end, whatever happens (trap).
#
# Writes into $OUT (default ./device-check-out), refreshed as each step ends, 8 files at most:
#   log.txt, summary.txt, bench-nccl-tests.txt (the tables and verdicts), sweep-local.json,
#   sweep-mpi.json, recommendation.json, extras.tar.gz (doctor-nccl.json, exports, gtest XML, the
#   benchmark's raw outputs and results, end-of-sweep recommendations), ddp-tiny.tar.gz (the torch
#   job's NCCL logs, Chrome traces and outputs).
# summary.txt: '#' lines (the plan), then one line per step and a last 'result' line:
#   STEP VERDICT time_s=T deadline_s=D KEY=VALUE... [# why]       VERDICT: PASS FAIL SKIP TIMEOUT
#   result PASS|FAIL exit=N failed=STEP,... dry_run=0|1
# e.g. bench's worst_ratio, worst_size, worst_collective, geomean, checked, nccl_tests_nccl,
# commtune_nccl; a sweep's cases, ok, not_ok, ranks; tune's sizes, non_default, choices.
#
# Environment: DEVICE_BIN (the packed binaries, default .device/bin; nccl-tests' *_perf there too),
# OUT, DEVICE_CHECK_BUDGET, DEVICE_CHECK_DEADLINES, DEVICE_CHECK_MPS (auto, 0), DEVICE_CHECK_GTEST_FILTER
# (--gtest_filter for gpu_sweep_tests, to rerun a few), DEVICE_CHECK_TEST_SHARDS (default 2),
# DEVICE_CHECK_BENCH_COLLECTIVES (default allreduce,allgather), DEVICE_CHECK_BENCH_REPEATS (5),
# DEVICE_CHECK_BENCH_MIN / _MAX (1K, 16M), DEVICE_CHECK_BENCH_MAX_TIME (0.1),
# DEVICE_CHECK_SWEEP_MAX (local's -e, 16M), DEVICE_CHECK_MPI_MAX (4M), DEVICE_CHECK_MAX_TIME (0.05).
# Exit: 0 every step passed (or was skipped: torch without torch), 1 a step failed or timed out,
# 2 nothing packed, a library missing or a plan over the budget, 3 no GPU visible.
#
# TEST ONLY, the dry run (tests/scripts/device_check_test.sh): DEVICE_CHECK_DRY_RUN=1 skips the "no
# GPU visible" refusal and enables these, which are ignored (and said so) without it:
#   DEVICE_CHECK_TEST_COMMTUNE     the commtune to run instead of DEVICE_BIN's (the test build
#                                  commtune-simulated: simulated workers, no GPU)
#   DEVICE_CHECK_TEST_NCCL_TESTS   the folder of nccl-tests binaries (stand-ins) instead of DEVICE_BIN
#   DEVICE_CHECK_TEST_PYTHON       the python of the torch step (a stand-in) instead of python3
# A dry run's summary says so in its first line and in its result line (dry_run=1): it is never a
# GPU verdict.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
root=$(pwd)
self=$root/scripts/device-check.sh
all_steps=(bench tests local mpi doctor tune replay torch)

note() { echo "device-check: $*"; }

# ---------------------------------------------------------------------------------------------
# The steps. Each runs in its own process (`device-check.sh --step NAME`, started by the main run
# under `timeout`, so that a deadline ends the step and all it started); what they share comes in
# DC_* variables. A step exits 0 (PASS), 1 (FAIL) or 77 (SKIP), and leaves its figures
# (KEY=VALUE words) in $DC_WORK/figures-NAME and why it did not pass in $DC_WORK/why-NAME.
# ---------------------------------------------------------------------------------------------
figure() { echo "$*" >> "$DC_WORK/figures-$DC_STEP"; }
why() { echo "$*" >> "$DC_WORK/why-$DC_STEP"; note "$DC_STEP: $*"; }

# RESULTS NRANKS: every case ok with #wrong 0 on NRANKS ranks (0: one per GPU the workers saw),
# the run complete; its figures.
check_results() {
  python3 - "$1" "$2" "$DC_WORK/figures-$DC_STEP" <<'PY'
import collections, json, sys
path, want, figures = sys.argv[1], int(sys.argv[2]), sys.argv[3]
try:
    results = json.load(open(path))
except (OSError, ValueError) as e:
    print(f"{path}: unreadable ({e})")
    open(figures, "a").write("cases=0\n")
    sys.exit(1)
nccl = results.get("provenance", {}).get("nccl", {})
devices = (nccl.get("supervisors") or [{}])[0].get("devices", {})
if want == 0:
    want = len(devices.get("devices", []))
cases = results.get("cases", [])
bad = [c for c in cases if c.get("status") != "ok" or c.get("wrong") != 0 or c.get("nranks") != want]
status = collections.Counter(c.get("status") for c in cases)
print(f"{path}: {len(cases)} cases {dict(status)}, complete {results.get('complete')},"
      f" {want} ranks, NCCL {devices.get('nccl_version')}, CUDA driver {devices.get('cuda_driver')},"
      f" GPU {[d.get('name') for d in devices.get('devices', [])]}")
for c in bad[:12]:
    print(f"  not ok: {c.get('setting')} {c.get('collective')} {c.get('bytes')} B {c.get('placement')} ranks {c.get('nranks')}:"
          f" {c.get('status')} wrong {c.get('wrong')} {c.get('reason', '')}")
open(figures, "a").write(f"cases={len(cases)} ok={status.get('ok', 0)} not_ok={len(bad)} ranks={want}"
                         f" complete={str(bool(results.get('complete'))).lower()} nccl={devices.get('nccl_version') or 'unknown'}\n")
sys.exit(0 if cases and results.get("complete") and not bad else 1)
PY
}

step_bench() {
  local p c missing=() collectives
  declare -A program=([allreduce]=all_reduce_perf [allgather]=all_gather_perf [broadcast]=broadcast_perf
                      [reducescatter]=reduce_scatter_perf)
  IFS=, read -r -a collectives <<< "${DEVICE_CHECK_BENCH_COLLECTIVES:-allreduce,allgather}"
  for c in "${collectives[@]}"; do
    p=${program[$c]:-}
    [ -n "$p" ] || { why "unknown collective '$c' in DEVICE_CHECK_BENCH_COLLECTIVES"; return 1; }
    [ -x "$DC_NCCL_TESTS/$p" ] || missing+=("$p")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    figure "checked=0 missing=$(IFS=,; echo "${missing[*]}")"
    why "nccl-tests was not packed: no ${missing[*]} in $DC_NCCL_TESTS (docs/nccl-backend.md, 'Checking on a GPU machine', step 2)"
    return 1
  fi
  local rc=0 tables=$DC_WORK/bench-nccl-tests.txt
  NCCL_TESTS_DIR=$DC_NCCL_TESTS COMMTUNE=$DC_COMMTUNE MPIRUN=$DC_MPIRUN BENCH_OUT=$DC_WORK/bench \
    COLLECTIVES=$(IFS=,; echo "${collectives[*]}") BENCH_REPEATS=${DEVICE_CHECK_BENCH_REPEATS:-5} \
    BENCH_TOLERANCE=0.02 BENCH_CHECK_FROM=64K BENCH_MAX_TIME=${DEVICE_CHECK_BENCH_MAX_TIME:-0.1} BENCH_NO_GPU_CHECK=1 \
    COMMTUNE_ARGS="--init-timeout 60 --case-timeout 30 --no-report" \
    bash "$root/scripts/bench-nccl-tests.sh" 2 "${DEVICE_CHECK_BENCH_MIN:-1K}" "${DEVICE_CHECK_BENCH_MAX:-16M}" 4 2>&1 |
    tee "$tables" || rc=$?
  # The verdict lines of the tables (one per collective), summed up; the step passes only if the
  # script exited 0 and every collective has a PASS line.
  python3 - "$tables" "$rc" "$DC_WORK/figures-bench" "$DC_WORK/why-bench" "${collectives[@]}" <<'PY'
import math, sys
path, rc, figures, whys, wanted = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5:]
verdicts, problems = {}, []
for line in open(path, errors="replace"):
    if line.startswith("# verdict "):
        name, rest = line[len("# verdict "):].split(":", 1)
        words = rest.split()
        verdicts[name] = dict(w.split("=", 1) for w in words[1:] if "=" in w)
        verdicts[name]["status"] = words[0] if words else "?"
    elif " FAIL: " in line and line.startswith("# "):
        problems.append(line[2:].strip())
worst, logs, compared, checked, versions = None, [], 0, 0, {"nccl_tests_nccl": set(), "commtune_nccl": set()}
for name, v in verdicts.items():
    try:
        ratio = float(v.get("worst_ratio", "-"))
        if worst is None or abs(ratio - 1) > abs(worst[0] - 1):
            worst = (ratio, v.get("worst_size"), name)
    except ValueError:
        pass
    try:
        logs.append((math.log(float(v.get("geomean", "-"))), int(v.get("compared", "0"))))
    except ValueError:
        pass
    checked += int(v.get("checked", "0") or 0)
    for key in versions:
        if v.get(key):
            versions[key].add(v[key])
absent = [c for c in wanted if c not in verdicts]
failed = [c for c in wanted if verdicts.get(c, {}).get("status") != "PASS"]
weight = sum(n for _, n in logs)
geomean = f"{math.exp(sum(l * n for l, n in logs) / weight):.4f}" if weight else "-"
fields = [f"worst_ratio={worst[0]:.4f}" if worst else "worst_ratio=-", f"worst_size={worst[1] if worst else '-'}",
          f"worst_collective={worst[2] if worst else '-'}", f"geomean={geomean}", f"checked={checked}",
          f"collectives={','.join(wanted)}", f"failed={','.join(failed) or '-'}",
          "nccl_tests_nccl=" + ("|".join(sorted(versions["nccl_tests_nccl"])) or "unknown"),
          "commtune_nccl=" + ("|".join(sorted(versions["commtune_nccl"])) or "unknown")]
reasons = sorted({v.get("reason") for v in verdicts.values() if v.get("reason") not in (None, "-")})
fields.append("reason=" + (",".join(reasons) or ("no-verdict" if absent else ("exit-" + str(rc) if rc else "-"))))
open(figures, "a").write(" ".join(fields) + "\n")
with open(whys, "a") as w:
    for p in problems:
        w.write(p + "\n")
    for c in absent:
        w.write(f"{c}: no verdict (its runs broke before a table; the log says why)\n")
    if rc and not problems and not absent:
        w.write(f"scripts/bench-nccl-tests.sh exited {rc}\n")
sys.exit(0 if rc == 0 and not failed else 1)
PY
}

# BINARY XML [ENV=VALUE...]: one gtest binary, its XML report.
# The tests that make the watchdog kill a hung worker. MPS does not support a client killed while it
# has work on the GPU: on the H200 (2026-12-04) every other client then failed (an illegal address,
# then cudaErrorMpsServerNotReady for new ones). Under MPS they run after the shards, one at a time,
# outside it (CUDA_MPS_PIPE_DIRECTORY on an empty folder: no daemon there, so no MPS client).
killing_tests='*SurviveAHang*:*AWorkerHung*'

gtest_run() {  # BINARY XML FILTER [VARIABLE=VALUE...]
  local binary=$1 xml=$2 filter=$3
  shift 3
  env "$@" "$binary" ${filter:+"--gtest_filter=$filter"} --gtest_output="xml:$xml"
}

# The shards' filter: DEVICE_CHECK_GTEST_FILTER (default every test), less the killing tests under MPS.
shard_filter() {
  local user=${DEVICE_CHECK_GTEST_FILTER:-}
  [ -n "${CUDA_MPS_PIPE_DIRECTORY:-}" ] || { echo "$user"; return; }
  case "$user" in
    *-*) echo "$user:$killing_tests" ;;
    *) echo "${user:-*}-$killing_tests" ;;
  esac
}

step_tests() {
  local rc=0 shards=${DEVICE_CHECK_TEST_SHARDS:-2} b i pids=() filter
  for b in gpu_kernel_tests gpu_sweep_tests; do
    [ -x "$DC_BIN/$b" ] || { why "no $b in $DC_BIN: pack it (docs/nccl-backend.md, 'Checking on a GPU machine', step 3)"; rc=1; }
  done
  [ "$rc" = 0 ] || { figure "tests=0"; return 1; }
  gtest_run "$DC_BIN/gpu_kernel_tests" "$DC_WORK/gtest-kernels.xml" "" || rc=1
  case "$shards" in '' | *[!0-9]* | 0) shards=1 ;; esac
  filter=$(shard_filter)
  for ((i = 0; i < shards; i++)); do  # the shards at once, each into its own log
    gtest_run "$DC_BIN/gpu_sweep_tests" "$DC_WORK/gtest-sweeps-$i.xml" "$filter" GTEST_TOTAL_SHARDS="$shards" \
      GTEST_SHARD_INDEX="$i" > "$DC_WORK/gtest-sweeps-$i.log" 2>&1 &
    pids+=($!)
  done
  for i in "${!pids[@]}"; do
    wait "${pids[$i]}" || rc=1
    echo "== gpu_sweep_tests shard $i of $shards"
    cat "$DC_WORK/gtest-sweeps-$i.log"
  done
  if [ -n "${CUDA_MPS_PIPE_DIRECTORY:-}" ] &&
     { [ -z "${DEVICE_CHECK_GTEST_FILTER:-}" ] || [[ "$DEVICE_CHECK_GTEST_FILTER" == *Hang* ]] || [[ "$DEVICE_CHECK_GTEST_FILTER" == *Hung* ]]; }; then
    echo "== gpu_sweep_tests: the tests that kill a hung worker, outside MPS"
    mkdir -p "$DC_WORK/no-mps"
    gtest_run "$DC_BIN/gpu_sweep_tests" "$DC_WORK/gtest-killing.xml" "$killing_tests" \
      CUDA_MPS_PIPE_DIRECTORY="$DC_WORK/no-mps" || rc=1
  fi
  python3 - "$DC_WORK/figures-tests" "$DC_WORK/why-tests" "$DC_WORK"/gtest-*.xml <<'PY' || rc=1
import sys
import xml.etree.ElementTree as ET
figures, whys, files = sys.argv[1], sys.argv[2], sys.argv[3:]
tests = failed = skipped = 0
names = {"failed": [], "skipped": []}
for f in files:
    try:
        root = ET.parse(f).getroot()
    except (OSError, ET.ParseError) as e:
        names["failed"].append(f"{f}: unreadable ({e})")
        continue
    for case in root.iter("testcase"):
        tests += 1
        name = f'{case.get("classname")}.{case.get("name")}'
        if case.find("failure") is not None or case.find("error") is not None:
            failed += 1
            names["failed"].append(name)
        elif case.find("skipped") is not None or case.get("result") == "skipped":
            skipped += 1
            names["skipped"].append(name)
open(figures, "a").write(f"tests={tests} failed={failed} skipped={skipped} reports={len(files)}\n")
with open(whys, "a") as w:
    for name in names["failed"][:10]:
        w.write(f"failed: {name}\n")
    for name in names["skipped"][:10]:
        w.write(f"skipped on a GPU machine: {name}\n")
sys.exit(0 if tests and not failed and not skipped else 1)
PY
  return "$rc"
}

step_local() {
  "$DC_COMMTUNE" sweep --backend nccl --config configs/nccl-quick.json -e "${DEVICE_CHECK_SWEEP_MAX:-16M}" \
    --max-time "${DEVICE_CHECK_MAX_TIME:-0.05}" --init-timeout 60 --case-timeout 30 --no-report --out "$DC_WORK/sweep-local.json" ||
    why "commtune sweep exited $?"
  check_results "$DC_WORK/sweep-local.json" 0 || { why "not every case measured correct data (the log lists them)"; return 1; }
}

step_mpi() {
  local mpirun
  read -r -a mpirun <<< "$DC_MPIRUN"
  "${mpirun[@]}" -np 4 -x NCCL_SOCKET_IFNAME=lo "$DC_COMMTUNE" sweep --backend nccl --config configs/nccl-quick.json --emulate-nodes \
    -e "${DEVICE_CHECK_MPI_MAX:-4M}" --max-time "${DEVICE_CHECK_MAX_TIME:-0.05}" --init-timeout 60 --case-timeout 30 --no-report \
    --out "$DC_WORK/sweep-mpi.json" || why "mpirun -np 4 commtune sweep exited $?"
  check_results "$DC_WORK/sweep-mpi.json" 4 || { why "not every case measured correct data on 4 ranks (the log lists them)"; return 1; }
}

step_doctor() {
  local rc=0
  "$DC_COMMTUNE" doctor --backend nccl --quick --ranks 2 --emulate-nodes --init-timeout 60 --case-timeout 30 \
    --json "$DC_WORK/doctor-nccl.json" || rc=$?
  [ "$rc" = 0 ] || [ "$rc" = 1 ] || { why "commtune doctor exited $rc"; figure "exit=$rc"; return 1; }
  python3 - "$DC_WORK/doctor-nccl.json" "$DC_WORK/figures-doctor" "$DC_WORK/why-doctor" "$rc" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
ids = [f["id"] for f in d.get("findings", [])]
m = d.get("pairwise") or {}
print(f"doctor-nccl.json: findings {ids}; map {m.get('members')} GB/s {m.get('gbps')} us {m.get('latency_us')}")
broken = [i for i in ids if i in ("pairwise-map-failed", "sweep-case-failed")]
members = len(m.get("members", []))
open(sys.argv[2], "a").write(f"exit={sys.argv[4]} members={members} findings={len(ids)} ids={','.join(ids) or '-'}\n")
with open(sys.argv[3], "a") as w:
    if members != 2:
        w.write(f"the NCCL pairwise map has {members} members, not 2\n")
    for i in broken:
        w.write(f"finding {i}\n")
sys.exit(0 if members == 2 and not broken else 1)
PY
}

step_tune() {
  local swept=$DC_WORK/sweep-mpi.json
  [ -s "$swept" ] || swept=$DC_WORK/sweep-local.json
  [ -s "$swept" ] || { why "no sweep results from this run (run the local or mpi step first)"; return 1; }
  "$DC_COMMTUNE" tune "$swept" --out "$DC_WORK/recommendation.json" || { why "commtune tune exited $?"; return 1; }
  "$DC_COMMTUNE" export "$DC_WORK/recommendation.json" --format all --out-dir "$DC_WORK/export" ||
    { why "commtune export exited $?"; return 1; }
  local f
  for f in "$DC_WORK"/export/*; do echo "== $(basename "$f")"; head -n 20 "$f"; done
  python3 - "$DC_WORK/recommendation.json" "$DC_WORK/figures-tune" "$(basename "$swept")" "$(find "$DC_WORK/export" -type f | wc -l)" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
sizes = r.get("sizes", [])
non_default = [s for s in sizes if s.get("winner") not in (None, "default")]
choices = ",".join(f'{c.get("scope")}:{c.get("setting")}' for c in r.get("choices", [])) or "-"
open(sys.argv[2], "a").write(f"from={sys.argv[3]} sizes={len(sizes)} non_default={len(non_default)} choices={choices}"
                             f" defaults_best={str(r.get('defaults_best')).lower()} exports={sys.argv[4]}\n")
PY
}

# A DDP preset's step (50M bfloat16 parameters, 2 ranks as emulated nodes: its buckets) replayed
# under the default and configs/nccl-quick.json's settings, 3 rounds of 10 steps (issue 28).
step_replay() {
  "$DC_COMMTUNE" workload --preset ddp --params 50M --dtype bfloat16 --dp 2 --out "$DC_WORK/replay-workload.json" \
    > /dev/null || { why "commtune workload exited $?"; return 1; }
  "$DC_COMMTUNE" replay "$DC_WORK/replay-workload.json" --backend nccl --ranks 2 --emulate-nodes --config configs/nccl-quick.json \
    --rounds 3 --steps 10 --price-per-gpu-hour 3.5 --steps-per-run 100000 --init-timeout 60 --case-timeout 30 \
    --out "$DC_WORK/replay.json" || why "commtune replay exited $?"
  python3 - "$DC_WORK/replay.json" "$DC_WORK/figures-replay" "$DC_WORK/why-replay" <<'PY'
import json, sys
try:
    doc = json.load(open(sys.argv[1]))
except (OSError, ValueError) as e:
    open(sys.argv[3], "a").write(f"no replay results ({e})\n")
    open(sys.argv[2], "a").write("settings=0\n")
    sys.exit(1)
figures = {s["name"]: s.get("figures", {}) for s in doc.get("settings", [])}
failed = [s["name"] for s in doc.get("settings", []) if s.get("failure") or not s.get("step_seconds")]
base = figures.get("default", {}).get("step_median_s")
words = [f"settings={len(figures)}", f"failed={','.join(failed) or '-'}",
         f"default_ms={base * 1e3:.3f}" if base else "default_ms=-"]
for name, f in figures.items():
    if name != "default" and "vs_default" in f:
        words.append(f"{name}={f['vs_default']['change']:+.4f}:{f['verdict']}")
open(sys.argv[2], "a").write(" ".join(words) + "\n")
if failed:
    open(sys.argv[3], "a").write(f"settings not replayed: {', '.join(failed)}\n")
sys.exit(0 if doc.get("complete") and not failed and base else 1)
PY
}

step_torch() {
  local py=$DC_PYTHON out=$DC_WORK/ddp-tiny error rc=0 entry kept=()
  if ! error=$("$py" -c 'import torch' 2>&1); then
    figure "torch=absent"
    why "$py cannot import torch: $(echo "$error" | tail -n 1)"
    return 77
  fi
  # The packed libraries (.device/lib: another build's CUDA runtime, libstdc++) stay out of torch's
  # way; NCCL's folder (python's own nvidia-nccl) stays on the path.
  IFS=: read -r -a entries <<< "${LD_LIBRARY_PATH:-}"
  for entry in "${entries[@]}"; do
    case "$entry" in "$root"/.device/*) ;; *) kept+=("$entry") ;; esac
  done
  mkdir -p "$out"
  LD_LIBRARY_PATH=$(IFS=:; echo "${kept[*]}") "$py" "$root/scripts/ddp-tiny.py" --out "$out" --ranks 2 --steps 6 \
    --timeout "$((DC_DEADLINE > 20 ? DC_DEADLINE - 10 : 10))" || rc=$?
  python3 - "$out" "$DC_WORK/figures-torch" "$DC_WORK/why-torch" "$rc" <<'PY'
import glob, json, os, sys
out, figures, whys, rc = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
problems = [] if rc == 0 else [f"scripts/ddp-tiny.py exited {rc}"]
try:
    summary = json.load(open(os.path.join(out, "ddp-tiny.json")))
except (OSError, ValueError):
    summary = {}
    problems.append("no ddp-tiny.json")
ranks = summary.get("ranks", 2)
first = next((r for r in summary.get("per_rank") or [] if r), {})
coll_lines = trace_events = kernels = nccl_events = 0
for rank in range(ranks):
    log = os.path.join(out, f"nccl-rank{rank}.log")
    lines = [l for l in open(log, errors="replace")] if os.path.exists(log) else []
    coll = sum(1 for l in lines if "AllReduce" in l or "AllGather" in l or "Broadcast" in l)
    if not coll:
        problems.append(f"rank {rank}: no collective in its NCCL log ({len(lines)} lines)")
    coll_lines += coll
    try:
        events = json.load(open(os.path.join(out, f"trace-rank{rank}.json"))).get("traceEvents", [])
    except (OSError, ValueError, AttributeError):
        events = []
    if not events:
        problems.append(f"rank {rank}: no profiler trace events")
    names = [str(e.get("name", "")) for e in events if isinstance(e, dict)]
    trace_events += len(events)
    nccl_events += sum(1 for n in names if "nccl" in n.lower())
    kernels += sum(1 for e in events if isinstance(e, dict) and e.get("cat") == "kernel")
if trace_events and not nccl_events:
    problems.append("the profiler traces show no NCCL operation")
if summary and not summary.get("parameters_agree"):
    problems.append("the ranks' parameters differ after training")
open(figures, "a").write(f"torch={first.get('torch', 'unknown')} torch_nccl={first.get('nccl', 'unknown')} ranks={ranks}"
                         f" steps={summary.get('steps', 0)} coll_lines={coll_lines} trace_events={trace_events}"
                         f" nccl_events={nccl_events} gpu_kernels={kernels}\n")
with open(whys, "a") as w:
    for p in problems:
        w.write(p + "\n")
sys.exit(0 if not problems else 1)
PY
  local verdict=$?
  read_workloads "$out"
  return "$verdict"
}

# The job's NCCL logs and rank 0's profiler trace, each read into a workload (kept in ddp-tiny/ with
# what commtune said); figures: workload_log, workload_trace (ok or the exit code), workloads_agree.
read_workloads() {  # DIR
  local out=$1 log_rc=0 trace_rc=0
  "$DC_COMMTUNE" workload --nccl-log "$out"/nccl-rank*.log --out "$out/workload-nccl-log.json" --force \
    > "$out/workload-nccl-log.txt" 2>&1 || log_rc=$?
  "$DC_COMMTUNE" workload --torch-trace "$out/trace-rank0.json" --out "$out/workload-torch-trace.json" --force \
    > "$out/workload-torch-trace.txt" 2>&1 || trace_rc=$?
  python3 - "$out" "$log_rc" "$trace_rc" "$DC_WORK/figures-torch" <<'PY'
import json, os, sys
out, log_rc, trace_rc, figures = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
def entries(name):
    try:
        w = json.load(open(os.path.join(out, name)))
    except (OSError, ValueError):
        return None
    return sorted((c["collective"], c["bytes"], c["datatype"], c["group"], c["count"]) for c in w["collectives"])
log, trace = entries("workload-nccl-log.json"), entries("workload-torch-trace.json")
agree = "unknown" if log is None or trace is None else str(log == trace).lower()
open(figures, "a").write(f"workload_log={'ok' if log_rc == 0 else log_rc} workload_trace={'ok' if trace_rc == 0 else trace_rc}"
                         f" workloads_agree={agree}\n")
PY
}

if [ "${1:-}" = --step ]; then  # inside a step's own process (the main run starts it)
  [ -n "${DC_WORK:-}" ] || { echo "device-check: --step is for the script's own use" >&2; exit 2; }
  DC_STEP=$2
  case "$DC_STEP" in
    bench | tests | local | mpi | doctor | tune | replay | torch) "step_$DC_STEP" ;;
    *) echo "device-check: unknown step $DC_STEP" >&2; exit 2 ;;
  esac
  exit $?
fi

# ---------------------------------------------------------------------------------------------
# The main run: plan, preflight, the steps under their deadlines, the summary.
# ---------------------------------------------------------------------------------------------
steps=("$@")
[ ${#steps[@]} -gt 0 ] || steps=("${all_steps[@]}")
for s in "${steps[@]}"; do
  case " ${all_steps[*]} " in *" $s "*) ;; *) echo "device-check: unknown step '$s' (${all_steps[*]})" >&2; exit 2 ;; esac
done

bin=${DEVICE_BIN:-.device/bin}
out=${OUT:-device-check-out}
mkdir -p "$out" || exit 2
out=$(cd "$out" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/device-check.XXXXXX") || exit 2
exec > >(tee -a "$out/log.txt") 2>&1
tee_pid=$!
summary=()
failed=()
budget=${DEVICE_CHECK_BUDGET:-480}
mps_started=

dry_run=0
[ "${DEVICE_CHECK_DRY_RUN:-}" != 1 ] || dry_run=1
if [ "$dry_run" = 1 ]; then
  summary+=("# DRY RUN (test only, DEVICE_CHECK_DRY_RUN=1): stand-ins, no GPU verdict")
  note "DRY RUN (test only): stand-ins from DEVICE_CHECK_TEST_*, the no-GPU refusal off; this is no GPU verdict"
else
  for v in DEVICE_CHECK_TEST_COMMTUNE DEVICE_CHECK_TEST_NCCL_TESTS DEVICE_CHECK_TEST_PYTHON; do
    [ -z "${!v:-}" ] || note "$v is ignored: it is for the test's dry run only (DEVICE_CHECK_DRY_RUN=1)"
  done
fi

# The plan: each step's deadline, fixed; with the preflight and the final reserve within the budget.
declare -A deadline=([preflight]=30 [bench]=80 [tests]=120 [local]=35 [mpi]=50 [doctor]=30 [tune]=15 [replay]=40 [torch]=55 [finish]=15)
plan_error=
IFS=, read -r -a overrides <<< "${DEVICE_CHECK_DEADLINES:-}"
for o in "${overrides[@]}"; do
  name=${o%%=*} value=${o#*=}
  if [ -z "${deadline[$name]:-}" ] || [ "$name" = "$o" ] || [ -z "$value" ] || [ -n "${value//[0-9]/}" ] || [ "$value" -lt 1 ]; then
    plan_error="DEVICE_CHECK_DEADLINES: '$o' is not STEP=SECONDS (steps: ${!deadline[*]})"
  else
    deadline[$name]=$((10#$value))
  fi
done
case "$budget" in '' | *[!0-9]*) plan_error="DEVICE_CHECK_BUDGET=$budget: want whole seconds" ; budget=0 ;; esac
planned=("preflight" "${steps[@]}" "finish")
total=0
plan_text=""
for s in "${planned[@]}"; do
  total=$((total + ${deadline[$s]}))
  plan_text+=" $s=${deadline[$s]}"
done
summary+=("# plan (deadlines in s):$plan_text; sum $total of budget $budget")
note "plan (deadlines in s):$plan_text; sum $total s of a $budget s budget"
[ -n "$plan_error" ] || [ "$total" -le "$budget" ] ||
  plan_error="the deadlines sum to $total s, over the budget of $budget s: shorten some (DEVICE_CHECK_DEADLINES) or raise DEVICE_CHECK_BUDGET"

stop_mps() {
  [ -n "$mps_started" ] || return 0
  mps_started=
  echo quit | timeout 10 nvidia-cuda-mps-control > /dev/null 2>&1 || note "MPS: the quit command failed (its log: extras.tar.gz)"
  note "MPS: control daemon stopped"
}
trap 'stop_mps' EXIT
trap 'note "interrupted"; summary+=("# interrupted by a signal"); failed+=(interrupted); finish 1' INT TERM

collect() {  # the files of $OUT, refreshed after every step
  local f
  for f in bench-nccl-tests.txt sweep-local.json sweep-mpi.json recommendation.json; do
    [ ! -s "$work/$f" ] || cp "$work/$f" "$out/$f"
  done
  (cd "$work" && find . -mindepth 1 -maxdepth 1 \( -name doctor-nccl.json -o -name export -o -name bench -o -name '*.tune.json' \
     -o -name 'gtest-*' -o -name mps-log -o -name mps-probe.json -o -name 'replay*' \) -printf '%P\n' | sort | tar -czf extras.tar.gz -T - 2>/dev/null) &&
    cp "$work/extras.tar.gz" "$out/"
  if [ -d "$work/ddp-tiny" ]; then
    (cd "$work" && tar -czf ddp-tiny.tar.gz --exclude=rendezvous ddp-tiny 2>/dev/null) && cp "$work/ddp-tiny.tar.gz" "$out/"
  fi
}
still_running() {  # MARK: the pids of the processes whose environment holds DC_STEP_MARK=MARK
  grep -lzx -- "DC_STEP_MARK=$1" /proc/[0-9]*/environ 2> /dev/null | sed -n 's|^/proc/\([0-9]*\)/environ$|\1|p' | tr '\n' ' ' |
    sed 's/ *$//'
}
write_summary() {
  printf '%s\n' "${summary[@]}" > "$out/summary.txt"
}
finish() {  # CODE: the result line, the summary into $OUT, the log flushed, then exit
  stop_mps
  local verdict=PASS
  [ "$1" = 0 ] || verdict=FAIL
  summary+=("result $verdict exit=$1 failed=$(IFS=,; echo "${failed[*]:--}") dry_run=$dry_run")
  write_summary
  echo
  echo "# device-check summary"
  cat "$out/summary.txt"
  rm -rf "$work"
  exec > /dev/null 2>&1
  wait "$tee_pid"
  exit "$1"
}
give_up() {  # CODE WHY: the preflight refuses
  note "$2"
  summary+=("preflight FAIL time_s=$SECONDS deadline_s=${deadline[preflight]} # $2")
  failed+=(preflight)
  finish "$1"
}

# ---- preflight: what is packed, the GPU, mpirun, MPS ----
echo "######## preflight ($(date -u +%H:%M:%S))"
[ -z "$plan_error" ] || give_up 2 "$plan_error"
if [ -z "${OPAL_PREFIX:-}" ] && [ -f .device/on-device.sh ] && [ "$bin" = .device/bin ]; then
  # shellcheck source=/dev/null
  source .device/on-device.sh
fi
commtune=$bin/commtune nccl_tests=$bin python=python3
if [ "$dry_run" = 1 ]; then
  commtune=${DEVICE_CHECK_TEST_COMMTUNE:-$commtune}
  nccl_tests=${DEVICE_CHECK_TEST_NCCL_TESTS:-$nccl_tests}
  python=${DEVICE_CHECK_TEST_PYTHON:-$python}
fi
[ -x "$commtune" ] || give_up 2 "no $commtune: pack the binaries first (docs/nccl-backend.md, 'Checking on a GPU machine')"
commtune=$(realpath "$commtune")
[ ! -d "$bin" ] || bin=$(cd "$bin" && pwd)
[ ! -d "$nccl_tests" ] || nccl_tests=$(cd "$nccl_tests" && pwd)
unresolved=$(for b in "$commtune" "$bin"/*; do [ -f "$b" ] && ldd "$b" 2>/dev/null | grep 'not found' | sed "s|^|$(basename "$b"): |"; done)
[ -z "$unresolved" ] || give_up 2 "libraries missing on this machine (carry them too): $(echo "$unresolved" | tr -s ' \n\t' ' ')"
info=$(timeout 6 "$commtune" info 2>&1) || note "commtune info exited $?"
echo "$info"
gpus=$(echo "$info" | sed -n 's/^visible GPUs: \([0-9]*\).*/\1/p')
gpu_line=$(echo "$info" | sed -n 's/^visible GPUs: //p')
nccl_runtime=$(echo "$info" | sed -n 's/^nccl runtime: //p' | tr -s ' ' '_')
if [ "$dry_run" != 1 ]; then
  case "$gpus" in
    '' | 0) give_up 3 "no GPU visible here (commtune info says visible GPUs: ${gpu_line:-nothing}): this check is for a GPU machine" ;;
  esac
fi
! command -v nvidia-smi > /dev/null || timeout 4 nvidia-smi -L
note "mpirun: $(command -v mpirun || echo 'not found') $(timeout 3 mpirun --version 2>/dev/null | head -n 1)"

# Every rank talks over loopback; Open MPI's single-copy path needs ptrace rights a VM may lack.
export NCCL_SOCKET_IFNAME=lo OMPI_MCA_btl_vader_single_copy_mechanism=none
mpirun_words="mpirun --oversubscribe"
[ "$(id -u)" -ne 0 ] || mpirun_words+=" --allow-run-as-root"
export COMMTUNE_TEST_BIN_DIR=$bin COMMTUNE_MPIRUN=$mpirun_words

mps="absent"
if [ "${DEVICE_CHECK_MPS:-auto}" = 0 ]; then
  mps="off(DEVICE_CHECK_MPS=0)"
elif command -v nvidia-cuda-mps-control > /dev/null; then
  export CUDA_MPS_PIPE_DIRECTORY=$work/mps-pipe CUDA_MPS_LOG_DIRECTORY=$work/mps-log
  mkdir -p "$CUDA_MPS_PIPE_DIRECTORY" "$CUDA_MPS_LOG_DIRECTORY"
  if timeout 5 nvidia-cuda-mps-control -d; then
    mps_started=1
    # CUDA clients must run under it as the steps run them: two workers on the GPU as emulated
    # nodes, one small all-reduce.
    if timeout 12 "$commtune" sweep --backend nccl --ranks 2 --emulate-nodes -b 1K -e 1K --collectives allreduce --placement out -n 5 -w 1 \
         --init-timeout 8 --case-timeout 5 --no-report --out "$work/mps-probe.json" > "$work/mps-probe.txt" 2>&1; then
      mps="on"
    else
      note "MPS: two ranks did not run under it: going on without MPS; the probe said: $(tail -n 3 "$work/mps-probe.txt" | tr '\n' ' ')"
      stop_mps
      unset CUDA_MPS_PIPE_DIRECTORY CUDA_MPS_LOG_DIRECTORY
      mps="off(probe-failed)"
    fi
  else
    unset CUDA_MPS_PIPE_DIRECTORY CUDA_MPS_LOG_DIRECTORY
    mps="off(start-failed)"
  fi
fi
note "MPS: $mps"
summary+=("preflight PASS time_s=$SECONDS deadline_s=${deadline[preflight]} gpus=${gpus:-unknown} nccl_runtime=${nccl_runtime:-unknown} mps=$mps")
write_summary

export DC_WORK=$work DC_BIN=$bin DC_COMMTUNE=$commtune DC_NCCL_TESTS=$nccl_tests DC_PYTHON=$python DC_MPIRUN=$mpirun_words

# ---- the steps ----
status=0
for s in "${steps[@]}"; do
  echo
  echo "######## step $s ($(date -u +%H:%M:%S)), deadline ${deadline[$s]} s"
  start=$SECONDS
  # By construction the deadline fits; should the preflight have overrun, it is cut to what is left.
  left=$((budget - deadline[finish] - SECONDS))
  d=${deadline[$s]}
  [ "$d" -le "$left" ] || d=$left
  if [ "$d" -lt 5 ]; then
    summary+=("$s SKIP time_s=0 deadline_s=${deadline[$s]} # out of time: the budget of $budget s is spent")
    failed+=("$s")
    status=1
    write_summary
    continue
  fi
  # The step's own process, killed with all it started at its deadline (timeout signals its
  # process group), KILLed 3 s later if it is still there: the step ends within d seconds. What
  # left the group (mpirun starts its ranks in groups of their own) carries the step's mark in
  # its environment, and whatever still runs with it once the step has ended is killed.
  rc=0
  mark="$$-$RANDOM-$s"
  DC_STEP_MARK=$mark DC_DEADLINE=$((d - 3)) timeout -k 3 "$((d - 3))" bash "$self" --step "$s" || rc=$?
  took=$((SECONDS - start))
  leftover=$(still_running "$mark")
  if [ -n "$leftover" ]; then
    sleep 1  # a rank may still be on its way out
    leftover=$(still_running "$mark")
  fi
  if [ -n "$leftover" ]; then
    note "step $s left processes running: killing them: $leftover"
    # shellcheck disable=SC2086  # pids, one word each
    kill -KILL $leftover 2> /dev/null
    echo "leftover=$(echo "$leftover" | wc -w)" >> "$work/figures-$s"
    echo "it left $(echo "$leftover" | wc -w) process(es) running after it ended: killed" >> "$work/why-$s"
  fi
  figures=$(tr '\n' ' ' 2>/dev/null < "$work/figures-$s" | tr -s ' ' | sed 's/ *$//')
  reasons=$(head -n 4 "$work/why-$s" 2>/dev/null | tr '\n' ';' | sed 's/;$//; s/;/; /g')
  if [ "$rc" = 0 ] && [ -z "$leftover" ]; then
    verdict=PASS
  elif [ "$rc" = 77 ] && [ -z "$leftover" ]; then
    verdict=SKIP
  elif { [ "$rc" = 124 ] || [ "$rc" = 137 ]; } && [ "$took" -ge $((d - 4)) ]; then
    verdict=TIMEOUT
    reasons="still running after $((d - 3)) s: killed with all it started (deadline $d s, the last 3 to end)${reasons:+; $reasons}"
  else
    verdict=FAIL
    [ -n "$reasons" ] || reasons="exit $rc"
  fi
  case "$verdict" in FAIL | TIMEOUT) failed+=("$s"); status=1 ;; esac
  line="$s $verdict time_s=$took deadline_s=$d"
  [ -z "$figures" ] || line+=" $figures"
  [ -z "$reasons" ] || line+=" # $reasons"
  summary+=("$line")
  note "step $s: $verdict in $took s"
  collect
  write_summary
done
finish "$status"
