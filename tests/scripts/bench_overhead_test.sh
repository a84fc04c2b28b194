#!/usr/bin/env bash
# scripts/bench-overhead.sh with osu_allreduce stand-ins (no OSU here) and the real commtune, both
# under mpirun -np 2:
#   v5:     OSU 5.x: its --help names no -T and it refuses -T; the bench runs it without -T.
#   v7:     OSU 7.x: its --help names -T; the bench passes -T mpi_float.
#   liar:   a --help that names -T, and a binary that refuses it: the bench falls back to no -T.
#   broken: an OSU that prints no sizes: exit 1.
#   bare:   BARE=1 against the v7 stand-in: the bare loop (scripts/bare-allreduce.cpp, built with
#           mpicxx) runs in the alternation; its column is the median of its kept outputs, and
#           commtune / bare and bare / OSU recompute.
#   again:  AA=1 against the v7 stand-in: OSU runs twice a repeat (runs 1, 3 first; 2, 4 again);
#           its column is OSU's median over the again median per size, and the floor's summary line
#           counts the sizes within 2%, as the last line does for commtune / OSU.
# Each stand-in prints nothing but data the test knows: size s's average latency in run r is
# (s / 8 + 1) x [1, 3, 2, 6][r - 1] us. The table is then checked against those and the results files
# the bench keeps (BENCH_OUT): per size OSU's median, commtune's median of time_us.mean, their
# ratio; the last line's geometric mean and worst size.
# Usage: bench_overhead_test.sh COMMTUNE
set -euo pipefail
commtune=$(realpath "$1")
src=$(cd "$(dirname "$0")/../.." && pwd)
bench=$src/scripts/bench-overhead.sh
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

fake_osu() {  # DIR FLAVOUR: DIR/osu_allreduce; rank 0 logs every call's arguments to DIR/calls.txt
  mkdir -p "$1"
  cat > "$1/osu_allreduce" <<SH
#!/usr/bin/env bash
flavour=$2 dir=$1
[ "\${OMPI_COMM_WORLD_RANK:-0}" = 0 ] || { [[ " \$* " == *" -T "* && \$flavour != v7 ]] && exit 1; exit 0; }
echo "\$*" >> "\$dir/calls.txt"
if [ "\$1" = --help ]; then
  echo "Usage: osu_allreduce [options]"
  echo "  -f, --full              print full statistics"
  echo "  -m, --message-size=[MIN:]MAX  message sizes"
  [ "\$flavour" = v5 ] || echo "  -T, --type=[TYPE]       type of data: mpi_char, mpi_int, mpi_float"
  echo "  -h, --help              print this help"
  exit 0
fi
if [[ " \$* " == *" -T "* && \$flavour != v7 ]]; then
  echo "osu_allreduce: invalid option -- 'T'" >&2
  exit 1
fi
[ "\$flavour" != broken ] || { echo "# OSU MPI Allreduce Latency Test v5.9"; exit 0; }
run=\$(( \$(cat "\$dir/runs" 2> /dev/null || echo 0) + 1 ))
echo "\$run" > "\$dir/runs"
factors=(0 1 3 2 6)
args="\$*"; range=\${args#*-m }; range=\${range%% *}
if [ "\$flavour" = v7 ]; then echo "# OSU MPI Allreduce Latency Test v7.4"; echo "# Datatype: MPI_FLOAT."; else echo "# OSU MPI Allreduce Latency Test v5.9"; fi
echo "# Size       Avg Latency(us)"
for ((s = \${range%:*}; s <= \${range#*:}; s *= 2)); do
  printf "%-10d%18.2f\n" "\$s" "\$(( (s / 8 + 1) * factors[run] ))"
done
SH
  chmod +x "$1/osu_allreduce"
}

run_bench() {  # FLAVOUR REPEATS [DIR]: the bench against that stand-in (in DIR, default FLAVOUR); exit code in $rc
  local dir=${3:-$1}
  fake_osu "$work/$dir" "$1"
  rc=0
  BENCH_OUT=$work/$dir/out COMMTUNE=$commtune COMMTUNE_ARGS="--min-time 0 --max-time 0.02" \
    bash "$bench" "$work/$dir/osu_allreduce" 2 8 64 "$2" > "$work/$dir/table.txt" 2> "$work/$dir/err.txt" || rc=$?
}

check_bare() {  # DIR REPEATS: the bare loop's columns against its kept outputs and the other two columns
  python3 - "$work/$1" "$2" <<'PY' || { fail "$1: the bare columns"; sed 's/^/    /' "$work/$1/table.txt" >&2; }
import json, math, statistics, sys
folder, repeats = sys.argv[1], int(sys.argv[2])
lines = open(f"{folder}/table.txt").read().splitlines()
rows = [l.split() for l in lines if l.split() and l.split()[0].isdigit()]
assert [int(r[0]) for r in rows] == [8, 16, 32, 64] and all(len(r) == 7 for r in rows), rows
harness = {}
for size, osu, _, _, bare, per_bare, bare_per_osu in ((int(r[0]), *map(float, r[1:])) for r in rows):
    runs, means = [], []
    for run in range(1, repeats + 1):
        runs += [float(l.split()[1]) for l in open(f"{folder}/out/bare.{run}.txt") if l.split()[0] == str(size)]
        cases = json.load(open(f"{folder}/out/commtune.{run}.json"))["cases"]
        means += [c["time_us"]["mean"] for c in cases if c["bytes"] == size and c["setting"] == "default"]
    assert len(runs) == repeats and all(x > 0 for x in runs), (size, runs)
    want = statistics.median(runs)
    assert abs(bare - want) <= 0.005 + 1e-9 * want, (size, bare, want)
    harness[size] = statistics.median(means) / want
    assert abs(per_bare - harness[size]) <= 0.002 + 1e-3 * harness[size], (size, per_bare, harness[size])
    assert abs(bare_per_osu - want / osu) <= 0.002 + 1e-3 * want / osu, (size, bare_per_osu, want / osu)
summary = [l for l in lines if l.startswith("# commtune / bare loop: ")]
assert len(summary) == 1, lines
geomean = math.exp(sum(map(math.log, harness.values())) / len(harness))
assert abs(float(summary[0].split()[7].rstrip(";")) - geomean) <= 0.002 + 1e-3 * geomean, (summary, geomean)
PY
}

check_table() {  # FLAVOUR REPEATS: the table against the stand-in's figures and the kept results files
  python3 - "$work/$1" "$2" <<'PY' || { fail "$1: the table"; sed 's/^/    /' "$work/$1/table.txt" >&2; }
import json, math, statistics, sys
folder, repeats = sys.argv[1], int(sys.argv[2])
lines = open(f"{folder}/table.txt").read().splitlines()
rows = [l.split() for l in lines if l.split() and l.split()[0].isdigit()]
assert [int(r[0]) for r in rows] == [8, 16, 32, 64], rows
factors = [1, 3, 2][:repeats]
ratios = {}
for size, osu, ours, ratio in ((int(r[0]), *map(float, r[1:])) for r in rows):
    assert osu == (size // 8 + 1) * statistics.median(factors), (size, osu)
    means = []
    for run in range(1, repeats + 1):
        cases = json.load(open(f"{folder}/out/commtune.{run}.json"))["cases"]
        means += [c["time_us"]["mean"] for c in cases if c["bytes"] == size and c["setting"] == "default"]
    assert len(means) == repeats, (size, means)
    want = statistics.median(means)
    assert abs(ours - want) <= 0.005 + 1e-9 * want, (size, ours, want)
    ratios[size] = want / osu
    assert abs(ratio - ratios[size]) <= 0.0005 + 1e-6, (size, ratio, ratios[size])
last = lines[-1].split()
geomean = math.exp(sum(map(math.log, ratios.values())) / len(ratios))
worst = max(ratios, key=lambda s: abs(math.log(ratios[s])))
assert lines[-1].startswith("# 4 sizes; "), lines[-1]
assert abs(float(last[last.index("ratio") + 1].rstrip(";")) - geomean) <= 0.0005 + 1e-6, (last, geomean)
worst_ratio = float(last[len(last) - 1 - last[::-1].index("ratio") + 1].rstrip(";"))
assert int(last[last.index("size") + 1]) == worst and abs(worst_ratio - ratios[worst]) <= 0.0005 + 1e-6, (last, worst)
within = sum(abs(round(r, 3) - 1) <= 0.02 for r in ratios.values())
assert lines[-1].endswith(f"within 2% at {within} of 4 sizes"), (lines[-1], within)
PY
}

check_again() {  # DIR: the floor's column and summary against the stand-in's runs 1, 3 and 2, 4
  python3 - "$work/$1" <<'PY' || { fail "$1: the floor's column"; sed 's/^/    /' "$work/$1/table.txt" >&2; }
import math, sys
lines = open(f"{sys.argv[1]}/table.txt").read().splitlines()
rows = [l.split() for l in lines if l.split() and l.split()[0].isdigit()]
assert [int(r[0]) for r in rows] == [8, 16, 32, 64] and all(len(r) == 5 for r in rows), rows
for r in rows:  # OSU: runs 1 and 3 (x1, x2, median x1.5); again: runs 2 and 4 (x3, x6, median x4.5)
    assert float(r[1]) == (int(r[0]) // 8 + 1) * 1.5 and abs(float(r[4]) - 1.5 / 4.5) <= 0.0005, r
floor = [l for l in lines if l.startswith("# OSU / OSU again (the floor): ")]
assert len(floor) == 1 and floor[0].endswith("within 2% at 0 of 4 sizes"), lines
assert abs(float(floor[0].split()[9].rstrip(";")) - 1.5 / 4.5) <= 0.0005, floor
PY
}

calls_with_T() { grep -c -- '-m 8:64 -T mpi_float' "$work/$1/calls.txt" || true; }
calls_without_T() { grep -c -- '^-m 8:64$' "$work/$1/calls.txt" || true; }

run_bench v7 3
[ "$rc" = 0 ] || { fail "v7: exit $rc"; cat "$work/v7/err.txt" >&2; }
check_table v7 3
[ "$(calls_with_T v7)" = 3 ] && [ "$(calls_without_T v7)" = 0 ] || fail "v7: want 3 runs with -T mpi_float: $(cat "$work/v7/calls.txt")"

run_bench v5 3
[ "$rc" = 0 ] || { fail "v5: exit $rc"; cat "$work/v5/err.txt" >&2; }
check_table v5 3
[ "$(calls_with_T v5)" = 0 ] && [ "$(calls_without_T v5)" = 3 ] || fail "v5: want 3 runs without -T: $(cat "$work/v5/calls.txt")"

run_bench liar 1
[ "$rc" = 0 ] || { fail "liar: exit $rc"; cat "$work/liar/err.txt" >&2; }
check_table liar 1
[ "$(calls_with_T liar)" = 1 ] && [ "$(calls_without_T liar)" = 1 ] || fail "liar: want one refused run with -T, then one without: $(cat "$work/liar/calls.txt")"
grep -q -- '-T' "$work/liar/err.txt" || fail "liar: the fallback is not named on stderr"

if command -v mpicxx > /dev/null; then
  BARE=1 run_bench v7 2 bare
  [ "$rc" = 0 ] || { fail "bare: exit $rc"; cat "$work/bare/err.txt" >&2; }
  check_bare bare 2
else
  echo "bench-overhead: BARE=1 not checked: no mpicxx here" >&2
fi

AA=1 run_bench v7 2 again
[ "$rc" = 0 ] || { fail "again: exit $rc"; cat "$work/again/err.txt" >&2; }
check_again again
[ "$(calls_with_T again)" = 4 ] || fail "again: want 4 OSU runs for 2 repeats: $(cat "$work/again/calls.txt")"

AA=2 run_bench v7 1 badaa
[ "$rc" = 2 ] || fail "AA=2: want exit 2, got $rc"

run_bench broken 1
[ "$rc" = 1 ] || fail "broken: want exit 1, got $rc"
[ ! -e "$work/broken/out/commtune.1.json" ] || fail "broken: commtune ran after OSU measured nothing"

[ "$failures" = 0 ] || { echo "$failures check(s) failed" >&2; exit 1; }
echo "bench-overhead: all checks passed"
