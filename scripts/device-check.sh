#!/usr/bin/env bash
# The whole GPU check in one run, for a session lent a GPU machine for a few minutes
# (docs/nccl-backend.md, "Checking on a GPU machine" has the commands that pack and start it).
# On the GPU machine, from the repository root, after `source .device/on-device.sh`:
#
#   scripts/device-check.sh [STEP...]     STEP: tests local doctor mpi tune bench (default: all, in that order)
#
#   tests  the gpu-labelled test binaries (gpu_kernel_tests, gpu_sweep_tests); nothing may skip
#   local  commtune sweep --config configs/nccl-quick.json, no launcher (one worker per GPU)
#   doctor commtune doctor --backend nccl --quick --ranks 2 --emulate-nodes: the NCCL pairwise map and
#          small sweep (exit 1, something to attend to on the machine, still passes; a failed map does not)
#   mpi    mpirun -np 4 commtune sweep --config configs/nccl-quick.json --emulate-nodes
#   tune   commtune tune on the mpi sweep (else the local one), then export --format all
#   bench  scripts/bench-nccl-tests.sh (4 ranks) when the nccl-tests binaries were packed
# Both sweeps stop at 16 MiB with --max-time 0.1 to fit the machine's minutes. Every step has its
# own deadline, cut to what is left of DEVICE_CHECK_BUDGET seconds (default 450: give the device
# tool a timeout above it), so one hang costs that step only and the summary is always written.
#
# Writes into $OUT (default ./device-check-out), as soon as each step ends: log.txt (everything),
# summary.txt (one line per step), sweep-local.json, doctor-nccl.json, sweep-mpi4.json,
# recommendation.json, bench-nccl-tests.txt, extras.tar.gz (exports, end-of-sweep recommendations,
# gtest XML, the benchmark's raw outputs and results): 8 files at most.
# Environment: DEVICE_BIN (the packed binaries, default .device/bin), DEVICE_CHECK_GTEST_FILTER
# (--gtest_filter for gpu_sweep_tests, to rerun a few), DEVICE_CHECK_BUDGET (seconds, above).
# Exit: 0 every step passed (bench may be skipped: no nccl-tests packed), 1 a step failed or ran out
# of time, 2 nothing packed or a library missing, 3 no GPU visible.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
bin=${DEVICE_BIN:-.device/bin}
out=${OUT:-device-check-out}
mkdir -p "$out" || exit 2
work=$(mktemp -d "${TMPDIR:-/tmp}/device-check.XXXXXX")
exec > >(tee -a "$out/log.txt") 2>&1
tee_pid=$!
summary=()
budget=${DEVICE_CHECK_BUDGET:-450}

note() { echo "device-check: $*"; }
within() {  # SECONDS: that deadline, or what is left of the budget (at least 1 s)
  local left=$((budget - SECONDS))
  [ "$left" -ge 1 ] || left=1
  echo $(($1 < left ? $1 : left))
}
finish() {  # CODE: the summary into $OUT, the log flushed, then exit
  printf '%s\n' "${summary[@]}" > "$out/summary.txt"
  echo "# device-check summary"
  cat "$out/summary.txt"
  rm -rf "$work"
  exec > /dev/null 2>&1
  wait "$tee_pid"
  exit "$1"
}
give_up() { note "$2"; summary+=("preflight FAIL: $2"); finish "$1"; }

if [ -z "${OPAL_PREFIX:-}" ] && [ -f .device/on-device.sh ] && [ "$bin" = .device/bin ]; then
  # shellcheck source=/dev/null
  source .device/on-device.sh
fi
[ -x "$bin/commtune" ] || give_up 2 "no $bin/commtune: pack the binaries first (docs/nccl-backend.md, 'Checking on a GPU machine')"
bin=$(cd "$bin" && pwd)
missing=$(for b in "$bin"/*; do ldd "$b" 2>/dev/null | grep 'not found' | sed "s|^|$(basename "$b"): |"; done)
[ -z "$missing" ] || give_up 2 "libraries missing on this machine (carry them too): $(echo "$missing" | tr -s ' \n\t' ' ')"
"$bin/commtune" info
gpus=$("$bin/commtune" info 2>/dev/null | sed -n 's/^visible GPUs: //p')
case "$gpus" in
  '' | *[!0-9]* | 0) give_up 3 "no GPU visible here (commtune info says visible GPUs: ${gpus:-nothing}): this check is for a GPU machine" ;;
esac
command -v nvidia-smi > /dev/null && nvidia-smi -L
note "mpirun: $(command -v mpirun || echo 'not found') $(mpirun --version 2>/dev/null | head -n 1)"

# Every rank talks over loopback; Open MPI's single-copy path needs ptrace rights a VM may lack.
export NCCL_SOCKET_IFNAME=lo OMPI_MCA_btl_vader_single_copy_mechanism=none
mpirun_words="mpirun --oversubscribe"
[ "$(id -u)" -ne 0 ] || mpirun_words+=" --allow-run-as-root"
read -r -a mpirun <<< "$mpirun_words"
export COMMTUNE_TEST_BIN_DIR=$bin COMMTUNE_MPIRUN=$mpirun_words

collect() {  # the files of $OUT, refreshed after every step
  for f in sweep-local.json doctor-nccl.json sweep-mpi4.json recommendation.json bench-nccl-tests.txt; do
    [ ! -s "$work/$f" ] || cp "$work/$f" "$out/$f"
  done
  (cd "$work" && find . -mindepth 1 -maxdepth 1 \( -name export -o -name bench -o -name '*.tune.json' -o -name 'gtest-*.xml' \) \
     -printf '%P\n' | tar -czf extras.tar.gz -T - 2>/dev/null) && cp "$work/extras.tar.gz" "$out/"
}

# RESULTS NRANKS: every case ok with #wrong 0 on NRANKS ranks (0: one per GPU the workers saw), complete.
check_results() {
  python3 - "$1" "$2" <<'PY'
import collections, json, sys
path, want = sys.argv[1], int(sys.argv[2])
results = json.load(open(path))
nccl = results.get("provenance", {}).get("nccl", {})
devices = nccl.get("supervisors", [{}])[0].get("devices", {})
if want == 0:
    want = len(devices.get("devices", []))
cases = results.get("cases", [])
bad = [c for c in cases if c.get("status") != "ok" or c.get("wrong") != 0 or c.get("nranks") != want]
print(f"{path}: {len(cases)} cases {dict(collections.Counter(c.get('status') for c in cases))}, complete {results.get('complete')},"
      f" {want} ranks, NCCL {devices.get('nccl_version')}, CUDA driver {devices.get('cuda_driver')},"
      f" GPU {[d.get('name') for d in devices.get('devices', [])]}")
for c in bad[:12]:
    print(f"  not ok: {c.get('setting')} {c.get('collective')} {c.get('bytes')} B {c.get('placement')} ranks {c.get('nranks')}:"
          f" {c.get('status')} wrong {c.get('wrong')} {c.get('reason', '')}")
sys.exit(0 if cases and results.get("complete") and not bad else 1)
PY
}

step_tests() {
  local rc=0 filter=()
  [ -z "${DEVICE_CHECK_GTEST_FILTER:-}" ] || filter=(--gtest_filter="$DEVICE_CHECK_GTEST_FILTER")
  timeout "$(within 120)" "$bin/gpu_kernel_tests" --gtest_output="xml:$work/gtest-kernels.xml" || rc=1
  timeout "$(within 300)" "$bin/gpu_sweep_tests" "${filter[@]}" --gtest_output="xml:$work/gtest-sweeps.xml" || rc=1
  if grep -l '<skipped' "$work"/gtest-*.xml > /dev/null 2>&1; then
    note "some GPU test skipped on a GPU machine: $(grep -ho 'testcase name="[^"]*"[^>]*>[^<]*<skipped' "$work"/gtest-*.xml | cut -d'"' -f2 | tr '\n' ' ')"
    rc=1
  fi
  return "$rc"
}

step_local() {
  timeout "$(within 150)" "$bin/commtune" sweep --config configs/nccl-quick.json -e 16M --max-time 0.1 --out "$work/sweep-local.json" &&
    check_results "$work/sweep-local.json" 0
}

step_doctor() {
  local rc=0
  timeout "$(within 90)" "$bin/commtune" doctor --backend nccl --quick --ranks 2 --emulate-nodes --init-timeout 60 \
    --case-timeout 30 --json "$work/doctor-nccl.json" || rc=$?
  [ "$rc" = 0 ] || [ "$rc" = 1 ] || return "$rc"
  python3 - "$work/doctor-nccl.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
ids = [f["id"] for f in d.get("findings", [])]
m = d.get("pairwise") or {}
print(f"doctor-nccl.json: findings {ids}; map {m.get('members')} GB/s {m.get('gbps')} us {m.get('latency_us')}")
sys.exit(0 if len(m.get("members", [])) == 2 and "pairwise-map-failed" not in ids and "sweep-case-failed" not in ids else 1)
PY
}

step_mpi() {
  timeout "$(within 240)" "${mpirun[@]}" -np 4 -x NCCL_SOCKET_IFNAME=lo "$bin/commtune" sweep --config configs/nccl-quick.json --emulate-nodes \
    -e 16M --max-time 0.1 --init-timeout 60 --case-timeout 30 --out "$work/sweep-mpi4.json" &&
    check_results "$work/sweep-mpi4.json" 4
}

step_tune() {
  local swept=$work/sweep-mpi4.json
  [ -s "$swept" ] || swept=$work/sweep-local.json
  [ -s "$swept" ] || { note "tune: no sweep results from this run (run the local or mpi step first)"; return 1; }
  timeout "$(within 30)" "$bin/commtune" tune "$swept" --out "$work/recommendation.json" &&
    timeout "$(within 30)" "$bin/commtune" export "$work/recommendation.json" --format all --out-dir "$work/export" &&
    for f in "$work"/export/*; do echo "== $(basename "$f")"; head -n 20 "$f"; done
}

step_bench() {
  local p
  for p in all_reduce_perf all_gather_perf broadcast_perf reduce_scatter_perf; do
    [ -x "$bin/$p" ] || { note "bench: no $p in $bin: nccl-tests was not packed"; return 2; }
  done
  NCCL_TESTS_DIR=$bin COMMTUNE=$bin/commtune BENCH_OUT=$work/bench timeout "$(within 240)" bash scripts/bench-nccl-tests.sh 4 8 16M 4 |
    tee "$work/bench-nccl-tests.txt"
}

steps=("$@")
[ ${#steps[@]} -gt 0 ] || steps=(tests local doctor mpi tune bench)
status=0
for s in "${steps[@]}"; do
  echo
  echo "######## step $s ($(date -u +%H:%M:%S))"
  start=$SECONDS
  rc=0
  if [ $((budget - SECONDS)) -lt 15 ]; then
    summary+=("$s SKIP (out of time: DEVICE_CHECK_BUDGET=$budget s)")
    status=1
    continue
  fi
  case "$s" in
    tests) step_tests || rc=$? ;;
    local) step_local || rc=$? ;;
    doctor) step_doctor || rc=$? ;;
    mpi) step_mpi || rc=$? ;;
    tune) step_tune || rc=$? ;;
    bench) step_bench || rc=$? ;;
    *) note "unknown step '$s' (tests local doctor mpi tune bench)"; rc=1 ;;
  esac
  if [ "$rc" = 0 ]; then
    verdict=PASS
  elif [ "$rc" = 2 ] && [ "$s" = bench ]; then
    verdict="SKIP (no nccl-tests binaries packed)"
  else
    [ "$rc" = 124 ] && verdict="FAIL (deadline)" || verdict="FAIL (exit $rc)"
    status=1
  fi
  summary+=("$s $verdict in $((SECONDS - start)) s")
  note "step $s: $verdict"
  collect
  printf '%s\n' "${summary[@]}" > "$out/summary.txt"
done
finish "$status"
