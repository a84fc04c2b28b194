#!/usr/bin/env bash
# The test suite under AddressSanitizer and UndefinedBehaviorSanitizer: a second build tree
# (build-asan, or $COMMTUNE_ASAN_BUILD_DIR) with -fsanitize=address,undefined at -O1 (tests' own code
# -O0, which halves the build time against -O3), every report fatal,
# without the NCCL backend (the simulated NCCL tests still run). MPI tests included: Open MPI 4.1
# keeps memory until exit, so LeakSanitizer is off (detect_leaks=0); the fuzzers (scripts/fuzz.sh)
# check leaks in the readers, which do not touch MPI. The emulated-cluster tests (label cluster)
# are left out here: they run the same binaries across namespaces, and their shaped-link check
# judges timings that the sanitizers' slowdown distorts; the plain build runs them.
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=${COMMTUNE_ASAN_BUILD_DIR:-build-asan}
COMMTUNE_BUILD_DIR=$build_dir bash scripts/build.sh -DCMAKE_BUILD_TYPE=None -DCOMMTUNE_SANITIZE=ON -DCOMMTUNE_WITH_NCCL=OFF
# handle_segv=0: the fault-injection tests crash a simulated worker with SIGSEGV on purpose and
# assert that the supervisor reports signal 11; ASan's own SEGV handler would turn it into an abort.
# Memory errors are still caught by ASan's instrumentation, which does not rely on that handler.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:abort_on_error=1:strict_string_checks=1:handle_segv=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
# Left to the plain stage (CI time): the emulated cluster and the browser; the scripts that drive
# the same commtune paths the other tests run (the device check's dry run, every bench script's
# test); and the architecture checks, which read the sources, not the build (clang-format, the
# include and size rules, the backend recipe's syntax-only compile). Under the sanitizers they
# would add three minutes and no code of their own.
bash scripts/run-ctest.sh "$build_dir" --skip-labels 'cluster|browser' \
  -E '^(device_check_dry_run|device_check_verdicts|bench_.*|architecture_.*)$' ${COMMTUNE_ASAN_CTEST_ARGS:-}
echo "sanitized tests: passed under -fsanitize=address,undefined"
