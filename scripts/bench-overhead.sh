#!/usr/bin/env bash
# Harness-overhead benchmark: commtune's median all-reduce latency (default setting, MPI host
# backend) next to an independent benchmark's, OSU Micro-Benchmarks' osu_allreduce, on the same
# machine, ranks and sizes. Prints both figures per size and their ratio (commtune / OSU).
#
# Usage: scripts/bench-overhead.sh /path/to/osu_allreduce [ranks=2] [min=8] [max=1048576] [repeats=5]
# OSU is not shipped or built by commtune: point this at a build of yours.
# The two tools run alternately, `repeats` times each, so that drift of a shared machine hits both;
# each figure is the median over the repeats. Semantics differ slightly: OSU times each call
# between barriers and averages over iterations and ranks; commtune times back-to-back calls and
# reports the median of the per-iteration max over ranks.
set -euo pipefail
cd "$(dirname "$0")/.."
osu=${1:?usage: $0 /path/to/osu_allreduce [ranks] [min_bytes] [max_bytes] [repeats]}
ranks=${2:-2}
min=${3:-8}
max=${4:-1048576}
repeats=${5:-5}
commtune=${COMMTUNE:-build/commtune}
[ -x "$osu" ] || { echo "not executable: $osu" >&2; exit 2; }
[ -x "$commtune" ] || { echo "build commtune first (scripts/build.sh)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

for r in $(seq 1 "$repeats"); do
  bash scripts/mpirun.sh -np "$ranks" "$osu" -m "$min:$max" -T mpi_float > "$work/osu.$r.txt"
  awk '/^[0-9]/ { print $1, $2 }' "$work/osu.$r.txt" >> "$work/osu.all"
  bash scripts/mpirun.sh -np "$ranks" "$commtune" sweep --backend mpi --collectives allreduce -d float \
    -b "$min" -e "$max" -f 2 --placement out --out "$work/commtune.$r.json" > "$work/commtune.$r.txt" 2> /dev/null
  awk '/^ +[0-9]/ { print $1, $6 }' "$work/commtune.$r.txt" >> "$work/ct.all"
done

# Median per size over the repeats: "size value" lines in, "size median" lines out.
median_per_size() {
  sort -k1,1n -k2,2g "$1" | awk '
    function flush() { if (n) print size, (n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2) }
    $1 != size { flush(); size = $1; n = 0 }
    { v[++n] = $2 }
    END { flush() }'
}
median_per_size "$work/osu.all" > "$work/osu.dat"
median_per_size "$work/ct.all" > "$work/ct.dat"

echo "# ranks=$ranks, repeats=$repeats (alternating), $(grep -m1 "OSU" "$work/osu.1.txt" | sed "s/^# //")"
printf "%12s  %14s  %18s  %8s\n" "size(B)" "osu avg(us)" "commtune med(us)" "ratio"
join "$work/osu.dat" "$work/ct.dat" | awk '
  { ratio = $3 / $2; printf "%12d  %14.2f  %18.2f  %8.3f\n", $1, $2, $3, ratio;
    n++; logsum += log(ratio); if (ratio > 1.10) over++; if (ratio < 0.90) under++ }
  END { if (n) printf "# %d sizes; geometric-mean ratio %.3f; above +10%%: %d; below -10%%: %d\n",
                      n, exp(logsum / n), over, under }'
