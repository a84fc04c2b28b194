#!/usr/bin/env bash
# Fuzzes the readers of user files (config, results and nccl-tests JSON, recommendation, workload,
# NCCL logs and PyTorch traces, replay results) with libFuzzer: builds them
# with clang and -fsanitize=fuzzer,address,undefined in build-fuzz (or $COMMTUNE_FUZZ_BUILD_DIR),
# seeds each from the bad-input corpus (tests/badinput), the shipped configs and the fixtures, and
# runs each for COMMTUNE_FUZZ_SECONDS (default 30; CI's time limit), one target per core at a time.
# Fails on a crash, an exception other than InputError, a hang (10 s per input), a leak or a
# sanitizer report; prints runs per target.
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=${COMMTUNE_FUZZ_BUILD_DIR:-build-fuzz}
seconds=${COMMTUNE_FUZZ_SECONDS:-30}
jobs=${COMMTUNE_JOBS:-$(nproc)}
CC=clang CXX=clang++ cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=None -DCMAKE_CXX_FLAGS="-O1 -gline-tables-only" -DCOMMTUNE_BUILD_FUZZERS=ON \
  -DCOMMTUNE_BUILD_TESTS=OFF -DCOMMTUNE_WITH_NCCL=OFF -DCMAKE_UNITY_BUILD=ON -DCMAKE_UNITY_BUILD_BATCH_SIZE=16 > /dev/null
cmake --build "$build_dir" -j "$jobs" --target commtune_fuzzers
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 tests/badinput/run_corpus.py --materialize "$work/bad"
seed() {  # seed TARGET FILES...: a fresh working corpus for TARGET (libFuzzer adds to it)
  local dir="$work/corpus-$1"; shift
  mkdir -p "$dir"
  for f in "$@"; do cp "$f" "$dir/$(basename "$(dirname "$f")")-$(basename "$f")"; done
}
seed fuzz_config configs/*.json tests/badinput/base/config*.json "$work"/bad/configs/*.json
seed fuzz_results tests/fixtures/*.json tests/golden/results.json tests/badinput/base/results.json tests/badinput/base/nccl-tests.json \
  "$work"/bad/results/*.json "$work"/bad/nccl_tests/*.json
seed fuzz_recommendation tests/badinput/base/recommendation.json "$work"/bad/recommendations/*.json
seed fuzz_workload tests/badinput/base/workload.json tests/golden/workload/*.json "$work"/bad/workloads/*.json
seed fuzz_nccl_log tests/fixtures/workload/two_comms.log tests/fixtures/workload/ranks/rank_0.log \
  tests/fixtures/workload/h200-ddp-tiny/nccl-rank0.log
seed fuzz_torch_trace tests/fixtures/workload/rank0.pt.trace.json tests/fixtures/workload/h200-ddp-tiny/trace-rank0.json
seed fuzz_replay tests/golden/replay/results.json
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
fuzz_one() {  # fuzz_one TARGET: runs it for $seconds; its report goes to $work/TARGET.report
  local target=$1 log="$work/$1.log"
  if "$build_dir/fuzz/$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=262144 \
       -print_final_stats=1 -artifact_prefix="$work/$target-" "$work/corpus-$target" > "$log" 2>&1; then
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    echo "fuzz: $target: $runs runs in ${seconds} s, no crash, hang or sanitizer report" > "$work/$target.report"
  else
    { echo "fuzz: $target FAILED; the last lines of its log:"; tail -40 "$log"; } > "$work/$target.failed"
  fi
}
# One target per core at a time: each fuzzer is one single-threaded process, so running $jobs of them
# side by side gives each the same CPU time as running them one after the other, in 1/$jobs of the time.
targets=(fuzz_config fuzz_results fuzz_recommendation fuzz_workload fuzz_nccl_log fuzz_torch_trace fuzz_replay)
running=0
for target in "${targets[@]}"; do
  if [ "$running" -ge "$jobs" ]; then wait -n || true; running=$((running - 1)); fi
  fuzz_one "$target" &
  running=$((running + 1))
done
wait
status=0
for target in "${targets[@]}"; do
  if [ -e "$work/$target.report" ]; then
    cat "$work/$target.report"
  else
    status=1
    cat "$work/$target.failed" >&2 2>/dev/null || echo "fuzz: $target FAILED without a log" >&2
    for artifact in "$work/$target"-*; do
      [ -e "$artifact" ] && cp "$artifact" "${COMMTUNE_FUZZ_ARTIFACTS:-.}/" && echo "fuzz: kept $(basename "$artifact")" >&2
    done
  fi
done
exit $status
