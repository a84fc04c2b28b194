#!/usr/bin/env bash
# scripts/device-check.sh without a GPU.
#   refusals: nothing packed (exit 2) and no GPU (exit 3), each said in $OUT/log.txt and summary.txt.
#   dry-run:  every step with stand-ins in DEVICE_BIN: a commtune that says it sees a GPU and runs
#             the simulated test build, the GPU sweep tests in their simulated mode, a kernel-test
#             stand-in, nccl-tests stand-ins; then at most 8 files in $OUT, and a failing step
#             reported as such.
# Usage: device_check_test.sh refusals|dry-run COMMTUNE COMMTUNE_SIMULATED [GPU_SWEEP_TESTS]
set -euo pipefail
mode=$1 commtune=$(realpath "$2") simulated=$(realpath "$3") sweep_tests=${4:+$(realpath "$4")}
src=$(cd "$(dirname "$0")/../.." && pwd)
check=$src/scripts/device-check.sh
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
expect_line() {  # FILE REGEX WHAT
  grep -Eq -- "$2" "$1" || { fail "$3: no line matching /$2/ in $1:"; sed 's/^/    /' "$1" >&2; }
}
run_check() {  # OUT DEVICE_BIN STEP...: the exit code in $rc
  local out=$1 bin=$2
  shift 2
  rc=0
  OUT=$out DEVICE_BIN=$bin bash "$check" "$@" > "$work/stdout.txt" 2>&1 || rc=$?
}

if [ "$mode" = refusals ]; then
  run_check "$work/out-empty" "$work/nothing-packed"
  [ "$rc" = 2 ] || fail "nothing packed: want exit 2, got $rc"
  expect_line "$work/out-empty/log.txt" 'pack the binaries first' "nothing-packed message in the log"
  expect_line "$work/out-empty/summary.txt" '^preflight FAIL' "nothing-packed summary"
  mkdir -p "$work/bin"
  ln -s "$commtune" "$work/bin/commtune"
  if "$commtune" info | grep -q '^visible GPUs: 0$'; then
    run_check "$work/out-no-gpu" "$work/bin"
    [ "$rc" = 3 ] || fail "no GPU: want exit 3, got $rc"
    expect_line "$work/out-no-gpu/log.txt" 'no GPU visible here .*: this check is for a GPU machine' "no-GPU message"
    [ "$(find "$work/out-no-gpu" -type f | wc -l)" = 2 ] || fail "no GPU: want only log.txt and summary.txt"
  else
    echo "a GPU is visible here: the no-GPU refusal is not checked"
  fi
elif [ "$mode" = dry-run ]; then
  bin=$work/bin
  mkdir -p "$bin"
  cat > "$bin/commtune" <<SH
#!/bin/sh
[ "\$1" != info ] || { echo "visible GPUs: 1"; exit 0; }
exec "$simulated" "\$@"
SH
  cat > "$bin/gpu_kernel_tests" <<'SH'
#!/bin/sh
for a in "$@"; do
  case "$a" in --gtest_output=xml:*) echo '<testsuites tests="1"><testcase name="stand-in"/></testsuites>' > "${a#--gtest_output=xml:}" ;; esac
done
echo "[  PASSED  ] 1 test (stand-in for the kernel tests)"
SH
  if [ -n "$sweep_tests" ]; then
    printf '#!/bin/sh\nCOMMTUNE_GPU_TESTS_SIMULATED=1 exec "%s" "$@"\n' "$sweep_tests" > "$bin/gpu_sweep_tests"
  else
    cp "$bin/gpu_kernel_tests" "$bin/gpu_sweep_tests"
  fi
  for p in all_reduce_perf all_gather_perf broadcast_perf reduce_scatter_perf; do
    cat > "$bin/$p" <<SH
#!/bin/sh
[ "\$OMPI_COMM_WORLD_RANK" != 0 ] || cat "$src/tests/fixtures/nccl-tests-all_reduce_perf.txt"
SH
  done
  chmod +x "$bin"/*
  run_check "$work/out" "$bin"
  [ "$rc" = 0 ] || { fail "dry run: want exit 0, got $rc"; tail -n 40 "$work/stdout.txt" >&2; }
  for s in tests local doctor mpi tune bench; do expect_line "$work/out/summary.txt" "^$s PASS in [0-9]+ s$" "step $s"; done
  files=$(find "$work/out" -type f | wc -l)
  [ "$files" -le 8 ] || fail "want at most 8 files in \$OUT, got $files"
  for f in log.txt summary.txt sweep-local.json doctor-nccl.json sweep-mpi4.json recommendation.json bench-nccl-tests.txt extras.tar.gz; do
    [ -s "$work/out/$f" ] || fail "\$OUT/$f missing or empty"
  done
  tar -tzf "$work/out/extras.tar.gz" > "$work/extras.txt" || fail "extras.tar.gz unreadable"
  for entry in '^export/commtune.env.sh$' '^gtest-sweeps.xml$' '^bench/commtune-allreduce.json$' '^sweep-mpi4.tune.json$'; do
    expect_line "$work/extras.txt" "$entry" "extras.tar.gz holds $entry"
  done
  expect_line "$work/out/log.txt" 'sweep-mpi4.json: [0-9]+ cases \{.ok.: [0-9]+\}, complete True, 4 ranks' "mpi sweep checked on 4 ranks"
  expect_line "$work/out/bench-nccl-tests.txt" '^# 11 sizes in both' "benchmark table"
  expect_line "$work/out/log.txt" "doctor-nccl.json: findings .*; map \['rank 0', 'rank 1'\]" "the NCCL doctor's map checked"
  # A step that fails is reported, and the run exits 1.
  run_check "$work/out-tune-alone" "$bin" tune
  [ "$rc" = 1 ] || fail "tune without a sweep: want exit 1, got $rc"
  expect_line "$work/out-tune-alone/summary.txt" '^tune FAIL' "failing step in the summary"
  # Out of time: the steps not started are skipped, the run says so and exits 1.
  DEVICE_CHECK_BUDGET=10 run_check "$work/out-no-time" "$bin" local mpi
  [ "$rc" = 1 ] || fail "no time left: want exit 1, got $rc"
  expect_line "$work/out-no-time/summary.txt" '^mpi SKIP \(out of time' "steps out of time"
  # Without nccl-tests binaries the benchmark is skipped, not failed.
  rm "$bin"/*_perf
  run_check "$work/out-no-bench" "$bin" bench
  [ "$rc" = 0 ] || fail "bench without nccl-tests: want exit 0, got $rc"
  expect_line "$work/out-no-bench/summary.txt" '^bench SKIP' "benchmark skipped"
else
  echo "usage: $0 refusals|dry-run COMMTUNE COMMTUNE_SIMULATED [GPU_SWEEP_TESTS]" >&2
  exit 2
fi
[ "$failures" = 0 ] || { echo "$failures check(s) failed" >&2; exit 1; }
echo "device-check ($mode): all checks passed"
