#!/usr/bin/env bash
# Harness-overhead benchmark: commtune's mean all-reduce latency (default setting, MPI host
# backend, float, out-of-place) next to an independent benchmark's, OSU Micro-Benchmarks'
# osu_allreduce, on the same machine, ranks and sizes. Prints both figures per size, their ratio
# (commtune / OSU), and a last line with the geometric-mean ratio and the worst size.
#
# Usage: scripts/bench-overhead.sh /path/to/osu_allreduce [ranks=2] [min=8] [max=1048576] [repeats=5]
# OSU is not shipped or built by commtune: point this at a build of yours, OSU 5.x or 7.x. OSU 7
# takes the element type (`-T mpi_float`); OSU 5.x has no -T and always reduces floats. Which one
# it is comes from `osu_allreduce --help` (an option list naming -T); should a run with -T still
# fail, the bench says so and runs OSU without it.
# The two tools run alternately, `repeats` times each, so that drift of a shared machine hits both.
# Per run, OSU's figure is its average latency and commtune's the mean of its per-iteration times
# (time_us.mean in the results file); each figure printed is the median of a size's runs.
# Semantics still differ: OSU times each call between barriers and averages over iterations and
# ranks; commtune times back-to-back calls and takes each iteration's slowest rank.
# BARE=1 adds a third figure per size: scripts/bare-allreduce.cpp (built here with mpicxx), a bare
# loop of back-to-back calls timed as commtune times them (each iteration's slowest rank, their
# mean) with nothing of commtune around it, run in the same alternation. commtune / bare is then
# what the harness costs; bare / OSU what the method differs by.
# AA=1 runs OSU a second time in each repeat (after commtune and the bare loop) and prints OSU
# against itself per size: the floor a per-size target sits on, on this machine, over these
# repeats (two runs of one program are not within 2% of each other at every size on a noisy VM).
# Each ratio line also counts the sizes within 2% of 1.
# Environment: COMMTUNE (default build/commtune), COMMTUNE_ARGS (more sweep flags), BENCH_OUT (a
# folder that keeps every OSU output and results file; default a temporary one), BARE, AA.
# Exit: 0 done, 1 a run failed or measured nothing, 2 bad input.
set -euo pipefail
cd "$(dirname "$0")/.."
osu=${1:?usage: $0 /path/to/osu_allreduce [ranks] [min_bytes] [max_bytes] [repeats]}
ranks=${2:-2}
min=${3:-8}
max=${4:-1048576}
repeats=${5:-5}
commtune=${COMMTUNE:-build/commtune}
read -r -a commtune_args <<< "${COMMTUNE_ARGS:-}"
[ -x "$osu" ] || { echo "bench: not executable: $osu" >&2; exit 2; }
[ -x "$commtune" ] || { echo "bench: build commtune first (scripts/build.sh)" >&2; exit 2; }
if [ -n "${BENCH_OUT:-}" ]; then
  mkdir -p "$BENCH_OUT"
  work=$BENCH_OUT
else
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
fi

case ${AA:-0} in 0 | 1) ;; *) echo "bench: AA must be 0 or 1, got '$AA'" >&2; exit 2 ;; esac
bare=()
case ${BARE:-0} in 0 | 1) ;; *) echo "bench: BARE must be 0 or 1, got '$BARE'" >&2; exit 2 ;; esac
if [ "${BARE:-0}" = 1 ]; then
  command -v mpicxx > /dev/null || { echo "bench: BARE=1 needs mpicxx (Open MPI's compiler wrapper)" >&2; exit 2; }
  mpicxx -std=c++20 -O2 -o "$work/bare-allreduce" scripts/bare-allreduce.cpp
  bare=("$work/bare-allreduce")
fi

# OSU 7's option list names -T (--type); OSU 5.x's does not.
type_flag=()
if bash scripts/mpirun.sh -np 1 "$osu" --help 2>&1 | grep -Eq -- '(^|[[:space:],])(-T|--type)([[:space:],=]|$)'; then
  type_flag=(-T mpi_float)
fi

run_osu() {  # OUT: one OSU run; without -T from then on if OSU refuses it
  if bash scripts/mpirun.sh -np "$ranks" "$osu" -m "$min:$max" "${type_flag[@]}" > "$1" 2> "$1.err" &&
     grep -Eq '^[0-9]+[[:space:]]+[0-9.]+' "$1"; then
    return 0
  fi
  if [ ${#type_flag[@]} -gt 0 ]; then
    echo "bench: $osu failed with ${type_flag[*]}; running it without (OSU 5.x: floats, its only type)" >&2
    type_flag=()
    run_osu "$1"
    return
  fi
  cat "$1.err" >&2
  echo "bench: $osu failed or printed no sizes" >&2
  exit 1
}

for r in $(seq 1 "$repeats"); do
  run_osu "$work/osu.$r.txt"
  rm -f "$work/commtune.$r.json"
  bash scripts/mpirun.sh -np "$ranks" "$commtune" sweep --backend mpi --collectives allreduce -d float \
    -b "$min" -e "$max" -f 2 --placement out --setting default --no-report "${commtune_args[@]}" \
    --out "$work/commtune.$r.json" > "$work/commtune.$r.txt" 2> "$work/commtune.$r.err" ||
    { cat "$work/commtune.$r.err" >&2; echo "bench: the commtune sweep failed" >&2; exit 1; }
  if [ ${#bare[@]} -gt 0 ]; then  # with Open MPI's dynamic rules on, as commtune runs
    OMPI_MCA_coll_tuned_use_dynamic_rules=1 bash scripts/mpirun.sh -np "$ranks" "${bare[@]}" "$min" "$max" \
      > "$work/bare.$r.txt" 2> "$work/bare.$r.err" || { cat "$work/bare.$r.err" >&2; echo "bench: the bare loop failed" >&2; exit 1; }
  fi
  if [ "${AA:-0}" = 1 ]; then run_osu "$work/osu-again.$r.txt"; fi
done

python3 - "$work" "$repeats" "$ranks" "${type_flag[*]:-}" "${#bare[@]}" "${AA:-0}" <<'PY'
import json, math, statistics, sys

work, repeats, ranks, type_flag = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
with_bare, with_again = sys.argv[5] != "0", sys.argv[6] == "1"
osu, again, ours, bare, header = {}, {}, {}, {}, ""

def read_osu(path, into):  # size, average latency (then min, max, ... with -f)
    global header
    for line in open(path):
        words = line.split()
        if line.startswith("# OSU") and not header:
            header = line[1:].strip()
        if len(words) >= 2 and words[0].isdigit():
            into.setdefault(int(words[0]), []).append(float(words[1]))

for r in range(1, repeats + 1):
    read_osu(f"{work}/osu.{r}.txt", osu)
    if with_again:
        read_osu(f"{work}/osu-again.{r}.txt", again)
    for case in json.load(open(f"{work}/commtune.{r}.json"))["cases"]:
        if (case["setting"], case["collective"], case["placement"], case["status"]) == ("default", "allreduce", "out-of-place", "ok"):
            ours.setdefault(case["bytes"], []).append(case["time_us"]["mean"])
    if with_bare:
        for line in open(f"{work}/bare.{r}.txt"):
            words = line.split()
            if len(words) == 2 and words[0].isdigit():
                bare.setdefault(int(words[0]), []).append(float(words[1]))

sizes = sorted(set(osu) & set(ours) & (set(bare) if with_bare else set(osu)) & (set(again) if with_again else set(osu)))
if not sizes:
    sys.exit("bench: no size measured by both")
print(f"# ranks={ranks}, repeats={repeats} (alternating), {header or 'OSU (no header line)'}, "
      f"OSU type flag: {type_flag or 'none (floats)'}; each figure the median of its runs")
extra = f"  {'bare mean(us)':>14}  {'commtune/bare':>14}  {'bare/osu':>9}" if with_bare else ""
extra += f"  {'osu/osu again':>14}" if with_again else ""
print(f"{'size(B)':>12}  {'osu avg(us)':>14}  {'commtune mean(us)':>18}  {'ratio':>8}{extra}")
ratios, harness, floor = {}, {}, {}
for size in sizes:
    o, c = statistics.median(osu[size]), statistics.median(ours[size])
    ratios[size] = c / o
    row = f"{size:>12}  {o:>14.2f}  {c:>18.2f}  {ratios[size]:>8.3f}"
    if with_bare:
        b = statistics.median(bare[size])
        harness[size] = c / b
        row += f"  {b:>14.2f}  {harness[size]:>14.3f}  {b / o:>9.3f}"
    if with_again:
        floor[size] = o / statistics.median(again[size])
        row += f"  {floor[size]:>14.3f}"
    print(row)
one_side = sorted((set(osu) | set(ours) | set(bare) | set(again)) - set(sizes))
if one_side:
    print(f"# measured by one tool only (left out): {', '.join(map(str, one_side))}")
def geomean_and_worst(by_size):  # the geometric mean of per-size ratios, and the size farthest from 1
    return (math.exp(sum(math.log(x) for x in by_size.values()) / len(by_size)),
            max(by_size, key=lambda s: abs(math.log(by_size[s]))))

def within_2pct(by_size):  # how many sizes a "within 2% at every size" target would pass
    return f"within 2% at {sum(abs(x - 1) <= 0.02 for x in by_size.values())} of {len(by_size)} sizes"

geomean, worst = geomean_and_worst(ratios)
if with_again:
    fgeo, fworst = geomean_and_worst(floor)
    print(f"# OSU / OSU again (the floor): geometric mean {fgeo:.3f}; worst size {fworst} B: {floor[fworst]:.3f}; "
          f"{within_2pct(floor)}")
if with_bare:
    hgeo, hworst = geomean_and_worst(harness)
    print(f"# commtune / bare loop: geometric mean {hgeo:.3f}; worst size {hworst} B: {harness[hworst]:.3f}; "
          f"{within_2pct(harness)}")
print(f"# {len(sizes)} sizes; geometric-mean ratio {geomean:.3f}; worst size {worst} B: ratio {ratios[worst]:.3f}; "
      f"{within_2pct(ratios)}")
PY
