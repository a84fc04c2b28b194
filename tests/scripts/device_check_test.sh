#!/usr/bin/env bash
# scripts/device-check.sh without a GPU: its verdicts, read from summary.txt's fields and the exit
# codes, never from its prose.
#   refusals: nothing packed (exit 2), no GPU (exit 3), the test-only variables ignored without
#             DEVICE_CHECK_DRY_RUN=1.
#   dry-run:  every step end to end in the dry run (DEVICE_CHECK_DRY_RUN=1): the test build
#             commtune-simulated as commtune, the GPU sweep tests in their simulated mode (a
#             kernel-test stand-in), nccl-tests stand-ins that print nccl-tests' format with the
#             simulated engine's own times, a python stand-in for the torch job, an MPS control
#             stand-in: every step PASS, exit 0, the 8 files in $OUT and what they hold, MPS
#             started and stopped. Then tune without a sweep: FAIL, exit 1.
#   verdicts: the bench FAILs (exit 1) with nccl-tests 5% slower at one size from 64 KiB up, with
#             nccl-tests missing, with another NCCL version; a hanging step is a TIMEOUT, killed,
#             and the next step still runs (exit 1); the torch step is a SKIP without torch
#             (exit 0); a plan over the budget is refused (exit 2); MPS off when asked, or when its
#             daemon does not start. And scripts/ddp-tiny.py's own part that needs no torch.
# Usage: device_check_test.sh refusals|dry-run|verdicts COMMTUNE COMMTUNE_SIMULATED [GPU_SWEEP_TESTS]
set -euo pipefail
mode=$1 commtune=$(realpath "$2") simulated=$(realpath "$3") sweep_tests=${4:+$(realpath "$4")}
src=$(cd "$(dirname "$0")/../.." && pwd)
check=$src/scripts/device-check.sh
work=$(mktemp -d)
# DEVICE_CHECK_TEST_KEEP=1 keeps the scratch folder (every $OUT of every case) to look at.
if [ "${DEVICE_CHECK_TEST_KEEP:-}" = 1 ]; then echo "scratch folder kept: $work"; else trap 'rm -rf "$work"' EXIT; fi
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
expect_line() {  # FILE REGEX WHAT
  grep -Eq -- "$2" "$1" || { fail "$3: no line matching /$2/ in $1:"; sed 's/^/    /' "$1" >&2; }
}
# summary.txt's fields: a step's verdict (second word) and its KEY=VALUE words (before any ' # ').
verdict() { awk -v s="$2" '$1 == s { print $2; exit }' "$1/summary.txt"; }
field() { awk -v s="$2" '$1 == s { sub(/ # .*/, ""); print; exit }' "$1/summary.txt" | tr ' ' '\n' | sed -n "s/^$3=//p" | head -n 1; }
expect_verdict() {  # OUT STEP VERDICT
  local got
  got=$(verdict "$1" "$2")
  [ "$got" = "$3" ] || { fail "$(basename "$1"): step $2: want $3, got '${got:-no line}'"; sed 's/^/    /' "$1/summary.txt" >&2; }
}
expect_field() {  # OUT STEP KEY VALUE-REGEX
  local got
  got=$(field "$1" "$2" "$3")
  [[ "$got" =~ ^($4)$ ]] || { fail "$(basename "$1"): $2 $3: want /$4/, got '$got'"; sed 's/^/    /' "$1/summary.txt" >&2; }
}
expect_exit() {  # WHAT WANT
  [ "$rc" = "$2" ] || { fail "$1: want exit $2, got $rc"; tail -n 30 "$work/stdout.txt" >&2; }
}
run_check() {  # OUT STEP...: the check with the environment set up by the caller; the exit code in $rc
  local out=$1
  shift
  rc=0
  OUT=$out bash "$check" "$@" > "$work/stdout.txt" 2>&1 || rc=$?
}

# ---- stand-ins ----
gtest_standin() {  # FILE SUITE: a gtest binary's stand-in, one passing test in its XML report
  cat > "$1" <<SH
#!/bin/sh
for a in "\$@"; do
  case "\$a" in --gtest_output=xml:*) echo '<testsuites tests="1"><testsuite name="$2"><testcase classname="$2" name="StandIn"/></testsuite></testsuites>' > "\${a#--gtest_output=xml:}" ;; esac
done
echo "[  PASSED  ] 1 test (stand-in)"
SH
}

make_bin() {  # DIR [hang]: DEVICE_BIN with the two GPU test binaries (the kernel tests hang with "hang")
  mkdir -p "$1"
  if [ "${2:-}" = hang ]; then  # it hangs, and leaves behind one more that escaped its process group and ignores SIGTERM
    cat > "$1/gpu_kernel_tests" <<SH
#!/bin/sh
setsid sh -c 'trap "" TERM; echo \$\$ > "$work/escaped.pid"; exec sleep 300' > /dev/null 2>&1 &
echo \$\$ > "$work/hung.pid"
exec sleep 300
SH
  else
    gtest_standin "$1/gpu_kernel_tests" GpuKernels
  fi
  if [ -n "$sweep_tests" ]; then
    printf '#!/bin/sh\nCOMMTUNE_GPU_TESTS_SIMULATED=1 exec "%s" "$@"\n' "$sweep_tests" > "$1/gpu_sweep_tests"
  else  # no NCCL backend in this build: a stand-in for the sweep tests too
    gtest_standin "$1/gpu_sweep_tests" GpuSweep
  fi
  chmod +x "$1"/*
}

# nccl-tests stand-ins: nccl-tests 2.19.6's output format (rank 0 prints; every rank records its
# NCCL_HOSTID), its time per size from TIMES ("collective size us" lines: the simulated engine's own),
# SLOW ("SIZE FACTOR": that size's time times FACTOR), NCCL VERSION as NCCL prints it.
make_nccl_tests() {  # DIR TIMES SLOW VERSION
  local dir=$1 p
  mkdir -p "$dir"
  cat > "$dir/fake_perf" <<SH
#!/bin/sh
echo "\$NCCL_HOSTID" >> "$dir/hostids.txt"
[ "\$OMPI_COMM_WORLD_RANK" = 0 ] || exit 0
case "\$(basename "\$0")" in
  all_reduce_perf) c=allreduce op=sum ;; all_gather_perf) c=allgather op=none ;;
  broadcast_perf) c=broadcast op=none ;; *) c=reducescatter op=sum ;;
esac
echo "# nccl-tests version 2.19.6 nccl-headers=22809 nccl-library=22809"
echo "# Collective test starting: \$(basename "\$0")"
echo "NCCL version $4"
echo "#       size         count      type   redop    root     time   algbw   busbw  #wrong     time   algbw   busbw  #wrong"
awk -v c="\$c" -v op="\$op" -v slow="$3" 'BEGIN { split(slow, s, " ") }
  \$1 == c { t = \$3; if (\$2 == s[1]) t *= s[2];
            printf "%12d  %12d  float  %6s  %6d  %8.2f  %6.2f  %6.2f  %6d  %8.2f  %6.2f  %6.2f  %6d\n", \$2, \$2 / 4, op, -1, t, 1, 1, 0, t, 1, 1, 0 }' "$2"
echo "# Out of bounds values : 0 OK"
echo "# Collective test concluded: \$(basename "\$0")"
SH
  chmod +x "$dir/fake_perf"
  for p in all_reduce_perf all_gather_perf broadcast_perf reduce_scatter_perf; do ln -sf fake_perf "$dir/$p"; done
}

# The python of the torch step: "-c 'import torch'" answers as torch would (or fails: notorch),
# scripts/ddp-tiny.py writes what the real job writes (NCCL logs, traces, ddp-tiny.json).
make_python() {  # FILE [notorch]
  if [ "${2:-}" = notorch ]; then
    printf '#!/bin/sh\necho "ModuleNotFoundError: No module named '"'"'torch'"'"'" >&2\nexit 1\n' > "$1"
  else
    cat > "$1" <<SH
#!/bin/sh
[ "\$1" != -c ] || exit 0
echo "\$*" > "$work/python-args.txt"
while [ \$# -gt 0 ]; do [ "\$1" = --out ] && out=\$2; shift; done
for r in 0 1; do
  echo "host:10\$r:10\$r [0] NCCL INFO AllReduce: opCount 0 sendbuff 0x1 recvbuff 0x1 count 139792 datatype 7 op 0 root 0 comm 0x2 [nranks=2] stream 0x3" > "\$out/nccl-rank\$r.log"
  echo '{"distributedInfo": {"backend": "nccl", "rank": 0, "world_size": 2}, "traceEvents": [{"name": "nccl:all_reduce", "ph": "X", "cat": "cpu_op"}, {"name": "ncclDevKernel_AllReduce_Sum_f32_RING_LL", "ph": "X", "cat": "kernel"}, {"name": "record_param_comms", "ph": "X", "cat": "cpu_op", "ts": 1, "dur": 1, "args": {"Collective name": "allreduce", "dtype": "Float", "In msg nelems": 139792, "Out msg nelems": 139792, "Group size": 2, "Process Group Ranks": "[0, 1]", "Rank": 0}}]}' > "\$out/trace-rank\$r.json"
done
echo '{"ranks": 2, "steps": 6, "exit_codes": [0, 0], "parameters_agree": true, "per_rank": [{"torch": "2.11.0-standin", "nccl": "2.28.9"}, {"torch": "2.11.0-standin", "nccl": "2.28.9"}]}' > "\$out/ddp-tiny.json"
SH
  fi
  chmod +x "$1"
}

# An MPS control daemon stand-in: records how it was called in LOG; with "fail" it cannot start.
make_mps() {  # DIR LOG [fail]
  mkdir -p "$1"
  cat > "$1/nvidia-cuda-mps-control" <<SH
#!/bin/sh
if [ "\$1" = -d ]; then echo "start pipe=\$CUDA_MPS_PIPE_DIRECTORY" >> "$2"; [ "${3:-}" != fail ]; else echo "command \$(cat)" >> "$2"; fi
SH
  chmod +x "$1/nvidia-cuda-mps-control"
}

# The simulated engine's own figures for the bench's cases: nccl-tests stand-ins print these.
calibrate() {  # TIMES
  "$simulated" sweep --backend nccl --ranks 2 --emulate-nodes --collectives allreduce,allgather -b 16K -e 1M -f 4 \
    --placement out -w 5 --min-samples 20 --max-time 0.02 --no-report --out "$work/calibration.json" > "$work/calibration.txt" 2>&1 ||
    { cat "$work/calibration.txt" >&2; echo "calibration sweep failed" >&2; exit 1; }
  python3 - "$work/calibration.json" > "$1" <<'PY'
import json, sys
for c in json.load(open(sys.argv[1]))["cases"]:
    print(c["collective"], c["bytes"], c.get("nccl_tests_us") or c["time_us"]["median"])
PY
}

# The dry run's environment: small sizes, short cases, two sweep tests (one per shard).
dry_run_environment() {
  export DEVICE_CHECK_DRY_RUN=1 DEVICE_CHECK_TEST_COMMTUNE=$simulated DEVICE_BIN=$work/bin
  export DEVICE_CHECK_BENCH_MIN=16K DEVICE_CHECK_BENCH_MAX=1M DEVICE_CHECK_BENCH_MAX_TIME=0.02
  export DEVICE_CHECK_SWEEP_MAX=64K DEVICE_CHECK_MPI_MAX=16K DEVICE_CHECK_MAX_TIME=0.02
  export DEVICE_CHECK_GTEST_FILTER='GpuSweep.ReduceScatterAllGatherAndBroadcastOnThreeRanks:GpuSweep.CtaBoundsAloneOrTogetherInitAndMeasure'
  make_bin "$work/bin"
}

if [ "$mode" = refusals ]; then
  DEVICE_BIN=$work/nothing-packed run_check "$work/out-empty"
  expect_exit "nothing packed" 2
  expect_verdict "$work/out-empty" preflight FAIL
  expect_field "$work/out-empty" result exit 2
  expect_line "$work/out-empty/summary.txt" "^preflight FAIL .* # .*$work/nothing-packed/commtune" "the missing binary named"
  mkdir -p "$work/bin"
  ln -s "$commtune" "$work/bin/commtune"
  if "$commtune" info | grep -q '^visible GPUs: 0'; then
    # The test-only variables do nothing without DEVICE_CHECK_DRY_RUN=1: still no GPU here.
    DEVICE_BIN=$work/bin DEVICE_CHECK_TEST_COMMTUNE=$simulated run_check "$work/out-no-gpu"
    expect_exit "no GPU" 3
    expect_verdict "$work/out-no-gpu" preflight FAIL
    expect_field "$work/out-no-gpu" result dry_run 0
    # Exit 3 and dry_run=0: the real check ran, not the dry run; the log names the variable it ignored.
    expect_line "$work/out-no-gpu/summary.txt" '^preflight FAIL .* # .*visible GPUs: 0' "commtune info's GPU count quoted"
    expect_line "$work/out-no-gpu/log.txt" '^device-check: DEVICE_CHECK_TEST_COMMTUNE\b' "test-only variable named"
    [ "$(find "$work/out-no-gpu" -type f | wc -l)" = 2 ] || fail "no GPU: want only log.txt and summary.txt"
  else
    echo "a GPU is visible here: the no-GPU refusal is not checked"
  fi
elif [ "$mode" = dry-run ]; then
  dry_run_environment
  calibrate "$work/times.txt"
  make_nccl_tests "$work/nt" "$work/times.txt" "" "simulated"
  make_python "$work/python"
  make_mps "$work/path" "$work/mps.txt"
  PATH=$work/path:$PATH DEVICE_CHECK_TEST_NCCL_TESTS=$work/nt DEVICE_CHECK_TEST_PYTHON=$work/python run_check "$work/out"
  expect_exit "dry run" 0
  for s in preflight bench tests local mpi doctor tune replay torch; do expect_verdict "$work/out" "$s" PASS; done
  expect_field "$work/out" result exit 0
  expect_field "$work/out" result failed -
  expect_field "$work/out" result dry_run 1
  head -n 1 "$work/out/summary.txt" | grep -q '^# DRY RUN' || fail "a dry run's summary must say so in its first line"
  # The plan: fixed deadlines within the budget, every step's own.
  expect_line "$work/out/summary.txt" '^# plan \(deadlines in s\): preflight=[0-9]+ bench=[0-9]+ tests=[0-9]+ local=[0-9]+ mpi=[0-9]+ doctor=[0-9]+ tune=[0-9]+ replay=[0-9]+ torch=[0-9]+ finish=[0-9]+; sum [0-9]+ of budget 480$' "the plan"
  total=$(sed -n 's/^# plan .*; sum \([0-9]*\) of budget.*/\1/p' "$work/out/summary.txt")
  [ "${total:-999}" -le 480 ] || fail "the deadlines sum to $total, over 480"
  # The bench: both collectives compared at the 3 sizes from 64 KiB up, within 2%, on one NCCL version.
  expect_field "$work/out" bench checked 6
  expect_field "$work/out" bench worst_size '65536|262144|1048576'
  expect_field "$work/out" bench worst_ratio '(0\.9[89]|1\.0[0-2])[0-9]*'
  expect_field "$work/out" bench geomean '(0\.9[89]|1\.0[0-2])[0-9]*'
  expect_field "$work/out" bench nccl_tests_nccl simulated
  expect_field "$work/out" bench commtune_nccl simulated
  expect_field "$work/out" bench reason -
  # nccl-tests ran 5 times per collective, 2 ranks each, every rank its own NCCL host.
  [ "$(wc -l < "$work/nt/hostids.txt")" = 20 ] || fail "want 20 rank launches of nccl-tests (2 collectives x 5 runs x 2 ranks)"
  [ "$(sort -u "$work/nt/hostids.txt" | wc -l)" = 2 ] || fail "want 2 distinct NCCL_HOSTID values"
  expect_field "$work/out" tests tests 3
  expect_field "$work/out" tests failed 0
  expect_field "$work/out" tests skipped 0
  expect_field "$work/out" tests reports 3
  expect_field "$work/out" mpi ranks 4
  expect_field "$work/out" mpi not_ok 0
  expect_field "$work/out" local not_ok 0
  expect_field "$work/out" doctor members 2
  expect_field "$work/out" tune from sweep-mpi.json
  expect_field "$work/out" tune sizes '[1-9][0-9]*'
  expect_field "$work/out" replay settings 3
  expect_field "$work/out" replay failed -
  expect_field "$work/out" torch ranks 2
  expect_field "$work/out" torch coll_lines 2
  expect_field "$work/out" torch nccl_events 4
  expect_field "$work/out" torch gpu_kernels 2
  expect_field "$work/out" torch workload_log ok
  expect_field "$work/out" torch workload_trace ok
  expect_field "$work/out" torch workloads_agree true
  expect_field "$work/out" preflight mps on
  expect_line "$work/mps.txt" "^start pipe=/" "MPS control daemon started with a pipe folder of its own"
  expect_line "$work/mps.txt" "^command quit$" "MPS control daemon stopped"
  expect_line "$work/python-args.txt" "scripts/ddp-tiny.py --out .* --ranks 2 " "the torch job's arguments"
  # $OUT: exactly these 8 files.
  (cd "$work/out" && find . -type f -printf '%P\n' | sort) > "$work/files.txt"
  printf '%s\n' bench-nccl-tests.txt ddp-tiny.tar.gz extras.tar.gz log.txt recommendation.json summary.txt sweep-local.json \
    sweep-mpi.json > "$work/want-files.txt"
  diff "$work/want-files.txt" "$work/files.txt" > /dev/null || { fail "\$OUT holds other files than the 8 wanted:"; diff "$work/want-files.txt" "$work/files.txt" >&2 || true; }
  while read -r f; do [ -s "$work/out/$f" ] || fail "\$OUT/$f is empty"; done < "$work/files.txt"
  tar -tzf "$work/out/extras.tar.gz" > "$work/extras.txt" || fail "extras.tar.gz unreadable"
  for entry in '^doctor-nccl.json$' '^export/commtune.env.sh$' '^gtest-sweeps-0.xml$' '^gtest-sweeps-1.xml$' '^gtest-kernels.xml$' \
               '^bench/commtune-allreduce.json$' '^bench/nccl-tests-allgather.txt$' '^sweep-mpi.tune.json$' '^mps-log/'; do
    expect_line "$work/extras.txt" "$entry" "extras.tar.gz holds $entry"
  done
  tar -tzf "$work/out/ddp-tiny.tar.gz" > "$work/ddp.txt" || fail "ddp-tiny.tar.gz unreadable"
  for entry in '^ddp-tiny/nccl-rank0.log$' '^ddp-tiny/nccl-rank1.log$' '^ddp-tiny/trace-rank0.json$' '^ddp-tiny/trace-rank1.json$' \
               '^ddp-tiny/ddp-tiny.json$'; do
    expect_line "$work/ddp.txt" "$entry" "ddp-tiny.tar.gz holds $entry"
  done
  expect_line "$work/out/bench-nccl-tests.txt" '^# verdict allreduce: PASS ' "the all-reduce verdict line"
  expect_line "$work/out/bench-nccl-tests.txt" '^# NCCL loaded: nccl-tests simulated, commtune simulated; nccl-tests runs per size: 5 ' "5 runs per size"
  # A step that fails is reported, and the run exits 1.
  run_check "$work/out-tune-alone" tune
  expect_exit "tune without a sweep" 1
  expect_verdict "$work/out-tune-alone" tune FAIL
  expect_field "$work/out-tune-alone" result failed tune
elif [ "$mode" = verdicts ]; then
  dry_run_environment
  export DEVICE_CHECK_BENCH_COLLECTIVES=allreduce
  calibrate "$work/times.txt"
  # nccl-tests 5% slower at 256 KiB: commtune / nccl-tests = 0.952 there.
  make_nccl_tests "$work/nt-slow" "$work/times.txt" "262144 1.05" "simulated"
  DEVICE_CHECK_TEST_NCCL_TESTS=$work/nt-slow run_check "$work/out-slow" bench
  expect_exit "nccl-tests 5% slower at 256 KiB" 1
  expect_verdict "$work/out-slow" bench FAIL
  expect_field "$work/out-slow" bench worst_size 262144
  expect_field "$work/out-slow" bench worst_ratio '0\.9[45][0-9]*'
  expect_field "$work/out-slow" bench reason ratio-out-of-tolerance
  expect_field "$work/out-slow" result failed bench
  # No nccl-tests at all: a FAIL, not a skip.
  # (With an MPS control daemon there, but DEVICE_CHECK_MPS=0: not started.)
  mkdir -p "$work/nt-none"
  make_mps "$work/path-mps" "$work/mps-not-wanted.txt"
  PATH=$work/path-mps:$PATH DEVICE_CHECK_MPS=0 DEVICE_CHECK_TEST_NCCL_TESTS=$work/nt-none run_check "$work/out-none" bench
  expect_exit "nccl-tests missing" 1
  expect_verdict "$work/out-none" bench FAIL
  expect_field "$work/out-none" bench missing all_reduce_perf
  expect_field "$work/out-none" preflight mps 'off\(DEVICE_CHECK_MPS=0\)'
  [ ! -e "$work/mps-not-wanted.txt" ] || fail "DEVICE_CHECK_MPS=0: the MPS control daemon was called"
  # Another NCCL version under nccl-tests than under commtune: not compared.
  make_nccl_tests "$work/nt-other" "$work/times.txt" "" "2.27.3+cuda12.9"
  DEVICE_CHECK_TEST_NCCL_TESTS=$work/nt-other run_check "$work/out-version" bench
  expect_exit "NCCL versions differ" 1
  expect_verdict "$work/out-version" bench FAIL
  expect_field "$work/out-version" bench reason version-mismatch
  expect_field "$work/out-version" bench nccl_tests_nccl 2.27.3
  expect_field "$work/out-version" bench commtune_nccl simulated
  # A hanging step: killed at its deadline (TIMEOUT), the next step runs, the summary is written.
  make_bin "$work/bin-hang" hang
  DEVICE_BIN=$work/bin-hang DEVICE_CHECK_DEADLINES=tests=8 run_check "$work/out-hang" tests local
  expect_exit "a hanging step" 1
  expect_verdict "$work/out-hang" tests TIMEOUT
  expect_field "$work/out-hang" tests deadline_s 8
  expect_field "$work/out-hang" tests time_s '[4-8]'
  expect_verdict "$work/out-hang" local PASS
  expect_field "$work/out-hang" result failed tests
  expect_field "$work/out-hang" tests leftover 1
  # Killed with its step, the escaped one too (a zombie not yet reaped by whoever inherited it
  # counts as ended).
  for f in hung.pid escaped.pid; do
    [ -s "$work/$f" ] || { fail "the hanging stand-in did not write $f"; continue; }
    state=$(ps -o stat= -p "$(cat "$work/$f")" 2> /dev/null || true)
    if [ -n "$state" ] && [ "${state#Z}" = "$state" ]; then
      fail "a process of the hung step ($f: pid $(cat "$work/$f"), state $state) outlived its step"
      kill -KILL "$(cat "$work/$f")" || true
    fi
  done
  # Without torch, the torch step is skipped, and the run still passes.
  # (With an MPS control daemon that cannot start: the check goes on without MPS, and says so.)
  make_python "$work/python-notorch" notorch
  make_mps "$work/path-mps-broken" "$work/mps-broken.txt" fail
  PATH=$work/path-mps-broken:$PATH DEVICE_CHECK_TEST_PYTHON=$work/python-notorch run_check "$work/out-notorch" torch
  expect_exit "torch absent" 0
  expect_verdict "$work/out-notorch" torch SKIP
  expect_field "$work/out-notorch" preflight mps 'off\(start-failed\)'
  expect_line "$work/mps-broken.txt" '^start ' "the MPS start tried"
  if grep -q '^command' "$work/mps-broken.txt"; then fail "an MPS daemon that did not start was sent a command"; fi
  expect_field "$work/out-notorch" torch torch absent
  expect_field "$work/out-notorch" result exit 0
  # scripts/ddp-tiny.py's own part without torch: its refusals, and ranks that fail reported as such.
  rc=0
  python3 "$src/scripts/ddp-tiny.py" --out "$work/ddp-bad" --ranks 1 > /dev/null 2>&1 || rc=$?
  expect_exit "ddp-tiny.py --ranks 1" 2
  if python3 -c 'import torch' 2> /dev/null; then
    echo "torch is importable here: ddp-tiny.py's failing ranks are not checked"
  else
    rc=0
    python3 "$src/scripts/ddp-tiny.py" --out "$work/ddp" --steps 1 --timeout 60 > "$work/ddp.txt" 2>&1 || rc=$?
    expect_exit "ddp-tiny.py without torch" 1
    python3 - "$work/ddp/ddp-tiny.json" <<'PY' || fail "ddp-tiny.json of failed ranks"
import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(0 if d["exit_codes"] == [1, 1] and d["parameters_agree"] is False and not d["timed_out"] else 1)
PY
    expect_line "$work/ddp/rank1.txt" "No module named 'torch'" "a rank's own output kept"
  fi
  # A plan whose deadlines exceed the budget is refused before anything runs.
  DEVICE_CHECK_BUDGET=100 run_check "$work/out-budget"
  expect_exit "plan over the budget" 2
  expect_verdict "$work/out-budget" preflight FAIL
  expect_line "$work/out-budget/summary.txt" '^# plan .*; sum [0-9]+ of budget 100$' "the refused plan"
else
  echo "usage: $0 refusals|dry-run|verdicts COMMTUNE COMMTUNE_SIMULATED [GPU_SWEEP_TESTS]" >&2
  exit 2
fi
[ "$failures" = 0 ] || { echo "$failures check(s) failed" >&2; exit 1; }
echo "device-check ($mode): all checks passed"
