#!/usr/bin/env bash
# scripts/bench-nccl-tests.sh without a GPU.
#   parse:  its reading of nccl-tests' output (the fixtures in tests/fixtures/: rows, the NCCL
#           version), its table against a results file of the simulated test build (the median
#           of several runs; the verdict with BENCH_TOLERANCE), and its refusals (no
#           NCCL_TESTS_DIR, a missing binary, no GPU).
#   launch: the whole run under mpirun -np 4 with stand-ins: an nccl-tests binary that records what
#           each rank was given and prints a fixture, and commtune-simulated behind a commtune that
#           says it sees a GPU.
# Usage: bench_nccl_tests_test.sh parse|launch COMMTUNE COMMTUNE_SIMULATED
set -euo pipefail
mode=$1 commtune=$(realpath "$2") simulated=$(realpath "$3")
src=$(cd "$(dirname "$0")/../.." && pwd)
bench=$src/scripts/bench-nccl-tests.sh
fixtures=$src/tests/fixtures
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
expect_line() {  # FILE REGEX WHAT
  grep -Eq -- "$2" "$1" || { fail "$3: no line matching /$2/ in:"; sed 's/^/    /' "$1" >&2; }
}
data_rows() { grep -Ec '^ +[0-9]+ ' "$1" || true; }

fake_nccl_tests_dir() {  # DIR: stand-ins for the four binaries; each rank appends its view to DIR/seen.txt
  mkdir -p "$1"
  for b in all_reduce_perf all_gather_perf broadcast_perf reduce_scatter_perf; do
    cat > "$1/$b" <<SH
#!/bin/sh
echo "rank=\$OMPI_COMM_WORLD_RANK hostid=\$NCCL_HOSTID device=\$NCCL_TESTS_DEVICE net=\$NCCL_NET ifname=\$NCCL_SOCKET_IFNAME gpus=\$CUDA_VISIBLE_DEVICES args=\$*" >> "$1/seen.txt"
[ "\$OMPI_COMM_WORLD_RANK" != 0 ] || cat "$fixtures/nccl-tests-all_reduce_perf.txt"
SH
    chmod +x "$1/$b"
  done
}

if [ "$mode" = parse ]; then
  # The clean fixture: 11 rows, out-of-place figures, check column numeric.
  "$bench" --parse "$fixtures/nccl-tests-all_reduce_perf.txt" > "$work/ar.tsv" || fail "--parse of the all-reduce fixture"
  [ "$(grep -vc '^#' "$work/ar.tsv")" = 11 ] || fail "all-reduce fixture: want 11 rows"
  expect_line "$work/ar.tsv" $'^8\t2\tfloat\tsum\t-1\t57.78\t0\t0\t0$' "first all-reduce row"
  expect_line "$work/ar.tsv" $'^8388608\t2097152\tfloat\tsum\t-1\t4523.62\t1.85\t2.78\t0$' "last all-reduce row (out-of-place, not in-place)"
  expect_line "$work/ar.tsv" 'out of bounds 0 OK; nccl-tests version 2.19.6' "footer and version"
  # The noisy fixture: launcher notices and NCCL INFO lines skipped, N/A check column, a 7-digit time.
  "$bench" --parse "$fixtures/nccl-tests-all_gather_perf-noisy.txt" > "$work/ag.tsv" || fail "--parse of the noisy fixture"
  [ "$(grep -vc '^#' "$work/ag.tsv")" = 6 ] || fail "noisy all-gather fixture: want 6 rows"
  expect_line "$work/ag.tsv" $'^65536\t4096\tfloat\tnone\t-1\t69.26\t0.95\t0.71\tN/A$' "row after an NCCL INFO line"
  expect_line "$work/ag.tsv" $'^33554432\t2097152\tfloat\tnone\t-1\t12721.2\t' "row with a time printed to one decimal"
  printf 'mpirun noticed that process rank 0 exited on signal 11\n# Out of bounds values : 0 OK\n' > "$work/broken.txt"
  if "$bench" --parse "$work/broken.txt" > /dev/null; then fail "--parse of an output without rows must fail"; fi

  # The table against commtune results (simulated workers, 4 emulated nodes, the fixture's sizes).
  "$simulated" sweep --backend nccl --ranks 4 --emulate-nodes --collectives allreduce -b 8 -e 8M -f 4 --placement out \
    --min-time 0 --max-time 0.01 --out "$work/r.json" > /dev/null 2>&1 || fail "simulated sweep"
  "$bench" --table allreduce "$fixtures/nccl-tests-all_reduce_perf.txt" "$work/r.json" > "$work/table.txt" || fail "--table"
  [ "$(data_rows "$work/table.txt")" = 11 ] || fail "table: want 11 size rows"
  expect_line "$work/table.txt" '^ +8388608 +4523\.62 +2\.78 +[0-9.]+ +[0-9.]+ +[0-9]+\.[0-9]{3}$' "table row with both sides and a ratio"
  expect_line "$work/table.txt" '^# 11 sizes in both; geometric-mean ratio [0-9.]+' "table summary"
  expect_line "$work/table.txt" '^# commtune time: (nccl_tests_us|pipelined_us|median);' "which commtune figure"
  # nccl_tests_us, where a results file has it, is the figure used, and busbw follows from it.
  python3 - "$work/r.json" "$work/r-ntu.json" <<'PY'
import json, sys
results = json.load(open(sys.argv[1]))
for case in results["cases"]:
    case["nccl_tests_us"] = 1000.0
json.dump(results, open(sys.argv[2], "w"))
PY
  "$bench" --table allreduce "$fixtures/nccl-tests-all_reduce_perf.txt" "$work/r-ntu.json" > "$work/table-ntu.txt" || fail "--table with nccl_tests_us"
  expect_line "$work/table-ntu.txt" '^# commtune time: nccl_tests_us;' "nccl_tests_us preferred"
  # 8 MiB all-reduce on 4 ranks in 1000 us: busbw = 8388608 / 1e9 / 1e-3 * 1.5 = 12.58 GB/s.
  expect_line "$work/table-ntu.txt" '^ +8388608 +4523\.62 +2\.78 +1000\.00 +12\.58 +0\.221$' "busbw from nccl_tests_us"
  # Sizes on one side only are listed with dashes and not counted.
  "$bench" --table allreduce "$fixtures/nccl-tests-all_gather_perf-noisy.txt" "$work/r.json" > "$work/mixed.txt" || fail "--table, partial overlap"
  expect_line "$work/mixed.txt" '^ +1024 +46\.42 +0\.02 +- +- +-$' "size only nccl-tests ran"
  expect_line "$work/mixed.txt" '^# 2 sizes in both;' "overlap counted"

  # The NCCL version nccl-tests ran: NCCL's own line (noisy fixture), else nccl-tests' nccl-library= code.
  expect_line "$work/ag.tsv" '; NCCL 2\.28\.9$' "NCCL version from NCCL's line"
  expect_line "$work/ar.tsv" '; NCCL 2\.28\.9$' "NCCL version from nccl-library="
  # Several runs in one output (BENCH_REPEATS): each size's median time, busbw scaled to it.
  { sed 's/4523\.62/4975.98/' "$fixtures/nccl-tests-all_reduce_perf.txt"; cat "$fixtures/nccl-tests-all_reduce_perf.txt"
    sed 's/4523\.62/4071.26/' "$fixtures/nccl-tests-all_reduce_perf.txt"; } > "$work/three-runs.txt"
  "$bench" --table allreduce "$work/three-runs.txt" "$work/r.json" > "$work/table-3.txt" || fail "--table of three runs"
  expect_line "$work/table-3.txt" '^ +8388608 +4523\.62 +2\.78 ' "median of three runs"
  expect_line "$work/table-3.txt" '^# NCCL loaded: .*nccl-tests runs per size: 3\b' "runs counted"
  # The verdict (BENCH_TOLERANCE): the simulated results say NCCL "simulated", the fixture 2.28.9.
  rc=0
  BENCH_TOLERANCE=0.02 "$bench" --table allreduce "$fixtures/nccl-tests-all_reduce_perf.txt" "$work/r.json" > "$work/verdict.txt" || rc=$?
  [ "$rc" = 1 ] || fail "a failing verdict: want exit 1, got $rc"
  expect_line "$work/verdict.txt" '^# verdict allreduce: FAIL .*checked=4 .*nccl_tests_nccl=2\.28\.9 commtune_nccl=simulated reason=version-mismatch$' "verdict line"
  expect_line "$work/verdict.txt" '^ +131072 .* (ok|FAIL)$' "a checked size marked"
  expect_line "$work/verdict.txt" '^ +32768 .* -$' "a size under 64 KiB not judged"

  # Refusals, each with its message.
  for unset_or_missing in "" "$work/no-such-folder"; do
    rc=0
    NCCL_TESTS_DIR=$unset_or_missing COMMTUNE=$commtune "$bench" > "$work/out.txt" 2> "$work/err.txt" || rc=$?
    [ "$rc" = 2 ] || fail "NCCL_TESTS_DIR='$unset_or_missing': want exit 2, got $rc"
    expect_line "$work/err.txt" "NCCL_TESTS_DIR\\b.*${unset_or_missing}" "NCCL_TESTS_DIR (and the folder given) named"
  done
  fake_nccl_tests_dir "$work/nt"
  rm "$work/nt/broadcast_perf"
  rc=0
  NCCL_TESTS_DIR=$work/nt COMMTUNE=$commtune "$bench" 2> "$work/err.txt" || rc=$?
  [ "$rc" = 2 ] || fail "a missing nccl-tests binary: want exit 2, got $rc"
  expect_line "$work/err.txt" 'broadcast_perf' "missing binary named"
  fake_nccl_tests_dir "$work/nt"
  if "$commtune" info | grep -q '^visible GPUs: 0$'; then
    rc=0
    NCCL_TESTS_DIR=$work/nt COMMTUNE=$commtune "$bench" 2> "$work/err.txt" || rc=$?
    [ "$rc" = 3 ] || fail "no GPU: want exit 3, got $rc"
    [ ! -e "$work/nt/seen.txt" ] || fail "no GPU: nothing may have been launched"
  else
    echo "a GPU is visible here: the no-GPU refusal is not checked"
  fi
elif [ "$mode" = launch ]; then
  fake_nccl_tests_dir "$work/nt"
  cat > "$work/commtune" <<SH
#!/bin/sh
[ "\$1" != info ] || { echo "visible GPUs: 1"; exit 0; }
exec "$simulated" "\$@"
SH
  chmod +x "$work/commtune"
  rc=0
  NCCL_TESTS_DIR=$work/nt COMMTUNE=$work/commtune BENCH_OUT=$work/out BENCH_MAX_TIME=0.05 COMMTUNE_ARGS="--min-time 0" \
    "$bench" 4 8 8M 4 > "$work/tables.txt" 2> "$work/err.txt" || rc=$?
  [ "$rc" = 0 ] || { fail "the benchmark run: exit $rc"; cat "$work/err.txt" >&2; }
  for c in allreduce allgather broadcast reducescatter; do
    expect_line "$work/tables.txt" "^# $c: [a-z_]+_perf against commtune, 4 ranks, out-of-place" "table of $c"
    [ -s "$work/out/commtune-$c.json" ] || fail "BENCH_OUT keeps commtune-$c.json"
    [ -s "$work/out/nccl-tests-$c.txt" ] || fail "BENCH_OUT keeps nccl-tests-$c.txt"
  done
  # Four runs of four ranks: each rank its own NCCL host, all on GPU 0 over loopback sockets.
  [ "$(wc -l < "$work/nt/seen.txt")" = 16 ] || fail "want 16 rank launches of nccl-tests"
  [ "$(grep -o 'hostid=[^ ]*' "$work/nt/seen.txt" | sort -u | wc -l)" = 4 ] || fail "want 4 distinct NCCL_HOSTID values"
  [ "$(grep -vc 'device=0 net=Socket ifname=lo gpus=0 args=-b 8 -e 8M -f 4 ' "$work/nt/seen.txt")" = 0 ] ||
    { fail "every rank: NCCL_TESTS_DEVICE=0, NCCL_NET=Socket, NCCL_SOCKET_IFNAME=lo, the same sizes"; cat "$work/nt/seen.txt" >&2; }
else
  echo "usage: $0 parse|launch COMMTUNE COMMTUNE_SIMULATED" >&2
  exit 2
fi
[ "$failures" = 0 ] || { echo "$failures check(s) failed" >&2; exit 1; }
echo "bench-nccl-tests ($mode): all checks passed"
