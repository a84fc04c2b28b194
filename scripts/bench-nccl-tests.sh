#!/usr/bin/env bash
# nccl-tests next to commtune on the same GPU, sizes and ranks: one table per collective with
# nccl-tests' own out-of-place time and busbw, commtune's nccl-tests-style time and busbw, and
# the ratio commtune / nccl-tests.
#
# Usage:
#   NCCL_TESTS_DIR=DIR scripts/bench-nccl-tests.sh [ranks=4] [min=8] [max=8M] [factor=4]
#   scripts/bench-nccl-tests.sh --parse NCCL_TESTS_OUTPUT        the out-of-place rows it read, tab-separated
#   scripts/bench-nccl-tests.sh --table COLLECTIVE NCCL_TESTS_OUTPUT RESULTS.json   one table from saved runs
#
# DIR holds all_reduce_perf, all_gather_perf, broadcast_perf and reduce_scatter_perf built with
# MPI=1 (nccl-tests is not part of commtune; docs/nccl-backend.md says how to build it). Both
# tools run under mpirun -np RANKS on one GPU (CUDA_VISIBLE_DEVICES=BENCH_GPU, default 0), every
# rank with its own NCCL_HOSTID, so NCCL treats each rank as a one-GPU node and talks over
# sockets on loopback (NCCL_NET=Socket, NCCL_SOCKET_IFNAME=lo): nccl-tests through a small wrapper
# that sets NCCL_HOSTID from OMPI_COMM_WORLD_RANK, commtune through --emulate-nodes. Float, sum,
# root 0, out-of-place, data check on in both.
#
# commtune's time is the results' nccl_tests_us (total time / iterations of back-to-back calls,
# what nccl-tests prints); where a results file has none, pipelined_us, else the median
# per-iteration time; the table says which. Its busbw is computed from that time with nccl-tests'
# factors, so the two busbw columns compare like the times.
#
# Environment: COMMTUNE (default build/commtune), MPIRUN (default scripts/mpirun.sh), COLLECTIVES
# (default allreduce,allgather,broadcast,reducescatter), BENCH_OUT (a folder that keeps every raw
# output and results file; default a temporary one), NCCL_TESTS_ARGS and COMMTUNE_ARGS (more flags
# for each tool), BENCH_MAX_TIME (commtune's --max-time, default 0.2).
# Exit: 0 done; 1 a run failed; 2 bad input (no NCCL_TESTS_DIR or a binary missing, no commtune);
# 3 no GPU visible.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)

# The parser and the table, in one Python program: `parse FILE` or `table COLLECTIVE FILE JSON`.
read_tables=$(cat <<'PY'
import json, math, sys

def number(text):
    value = float(text)
    if math.isnan(value) or math.isinf(value):
        raise ValueError(text)
    return value

def parse_nccl_tests(path):
    """nccl-tests' result rows (out-of-place half), its version line and its out-of-bounds count.
    A row is: size count type redop root, then time algbw busbw #wrong out of place, then the same
    in place (and, with -I 1 or -T 1, more columns after each half). Every other line (comments,
    NCCL_DEBUG output, launcher notices) is skipped."""
    found = {"rows": [], "version": "", "out_of_bounds": None, "time_column": None}
    with open(path, errors="replace") as text:
        for line in text:
            fields = line.split()
            if line.startswith("# nccl-tests version"):
                found["version"] = line[2:].strip()
            elif line.startswith("#") and "size" in fields and "count" in fields and "redop" in fields:
                found["time_column"] = fields[fields.index("root") + 1] if "root" in fields[:-1] else None
            elif line.startswith("# Out of bounds values"):
                found["out_of_bounds"] = line.split(":", 1)[1].strip()
            if line.startswith("#") or len(fields) < 9:
                continue
            try:
                row = {"size": int(fields[0]), "count": int(fields[1]), "type": fields[2], "redop": fields[3],
                       "root": int(fields[4]), "time_us": number(fields[5]), "algbw": number(fields[6]),
                       "busbw": number(fields[7]), "wrong": None if fields[8] == "N/A" else int(number(fields[8]))}
            except ValueError:
                continue
            if row["size"] < 0 or row["count"] < 0 or row["time_us"] <= 0 or not row["type"][0].isalpha():
                continue
            found["rows"].append(row)
    return found

BUS_FACTOR = {"allreduce": lambda n: 2.0 * (n - 1) / n, "allgather": lambda n: (n - 1) / n,
              "reducescatter": lambda n: (n - 1) / n, "broadcast": lambda n: 1.0}
PROGRAM = {"allreduce": "all_reduce_perf", "allgather": "all_gather_perf", "broadcast": "broadcast_perf",
           "reducescatter": "reduce_scatter_perf"}

def commtune_time(case):
    for field in ("nccl_tests_us", "pipelined_us"):
        if isinstance(case.get(field), (int, float)) and case[field] > 0:
            return case[field], field
    median = case.get("time_us", {}).get("median")
    return (median, "median") if isinstance(median, (int, float)) and median > 0 else (None, None)

def commtune_cases(path, collective):
    with open(path) as f:
        results = json.load(f)
    cases = [c for c in results.get("cases", []) if c.get("collective") == collective
             and c.get("placement") == "out-of-place" and c.get("setting") == "default"]
    return {c["bytes"]: c for c in cases}, results

def print_parse(path):
    found = parse_nccl_tests(path)
    print("# size\tcount\ttype\tredop\troot\ttime_us\talgbw\tbusbw\twrong")
    for r in found["rows"]:
        wrong = "N/A" if r["wrong"] is None else r["wrong"]
        print(f'{r["size"]}\t{r["count"]}\t{r["type"]}\t{r["redop"]}\t{r["root"]}\t{r["time_us"]:g}\t{r["algbw"]:g}\t{r["busbw"]:g}\t{wrong}')
    print(f'# rows {len(found["rows"])}; time column {found["time_column"]}; out of bounds {found["out_of_bounds"]}; {found["version"]}')
    return 0 if found["rows"] else 1

def print_table(collective, nccl_tests_path, results_path):
    if collective not in PROGRAM:
        print(f"unknown collective {collective}: one of {', '.join(PROGRAM)}", file=sys.stderr)
        return 2
    found = parse_nccl_tests(nccl_tests_path)
    theirs = {r["size"]: r for r in found["rows"]}
    ours, results = commtune_cases(results_path, collective)
    nranks = next((c.get("nranks") for c in ours.values() if c.get("nranks")), None)
    labels = "; ".join(results.get("provenance", {}).get("labels", [])) or "no labels"
    print(f"# {collective}: {PROGRAM[collective]} against commtune, {nranks} ranks, out-of-place ({labels})")
    print(f'# {found["version"] or "nccl-tests: no version line found"}; its time column: {found["time_column"]}')
    sources = sorted({commtune_time(c)[1] for c in ours.values() if commtune_time(c)[1]})
    print(f'# commtune time: {", ".join(sources) or "none"}; busbw from it with nccl-tests\' factor; ratio = commtune / nccl-tests')
    print(f'{"size(B)":>12}  {"nccl-tests(us)":>14}  {"busbw(GB/s)":>11}  {"commtune(us)":>12}  {"busbw(GB/s)":>11}  {"ratio":>7}')
    logs = []
    for size in sorted(set(theirs) | set(ours)):
        t = theirs.get(size)
        c = ours.get(size)
        left = f'{t["time_us"]:14.2f}  {t["busbw"]:11.2f}' if t else f'{"-":>14}  {"-":>11}'
        ratio = "-"
        if c is None:
            right = f'{"-":>12}  {"-":>11}'
        elif c.get("status") != "ok":
            right = f'{c.get("status", "?"):>12}  {"-":>11}'
        else:
            us, _ = commtune_time(c)
            busbw = c["bytes"] / (us * 1e3) * BUS_FACTOR[collective](c["nranks"])
            right = f"{us:12.2f}  {busbw:11.2f}"
            if t:
                logs.append(math.log(us / t["time_us"]))
                ratio = f'{us / t["time_us"]:.3f}'
        print(f"{size:12d}  {left}  {right}  {ratio:>7}")
    summary = f"geometric-mean ratio {math.exp(sum(logs) / len(logs)):.3f}" if logs else "no size measured by both"
    print(f'# {len(logs)} sizes in both; {summary}; nccl-tests out of bounds values: {found["out_of_bounds"]}')
    return 0 if logs else 1

if sys.argv[1] == "parse":
    sys.exit(print_parse(sys.argv[2]))
sys.exit(print_table(sys.argv[2], sys.argv[3], sys.argv[4]))
PY
)

case "${1:-}" in
  --parse)
    [ $# -eq 2 ] || { echo "usage: $0 --parse NCCL_TESTS_OUTPUT" >&2; exit 2; }
    exec python3 -c "$read_tables" parse "$2" ;;
  --table)
    [ $# -eq 4 ] || { echo "usage: $0 --table COLLECTIVE NCCL_TESTS_OUTPUT RESULTS.json" >&2; exit 2; }
    exec python3 -c "$read_tables" table "$2" "$3" "$4" ;;
  -h|--help)
    sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
esac

ranks=${1:-4}
min=${2:-8}
max=${3:-8M}
factor=${4:-4}
commtune=${COMMTUNE:-$root/build/commtune}
read -r -a mpirun <<< "${MPIRUN:-bash $root/scripts/mpirun.sh}"
IFS=, read -r -a collectives <<< "${COLLECTIVES:-allreduce,allgather,broadcast,reducescatter}"
declare -A program=([allreduce]=all_reduce_perf [allgather]=all_gather_perf [broadcast]=broadcast_perf
                    [reducescatter]=reduce_scatter_perf)

[ -x "$commtune" ] || { echo "bench-nccl-tests: no commtune at $commtune (build it: scripts/build.sh, or set COMMTUNE)" >&2; exit 2; }
if [ -z "${NCCL_TESTS_DIR:-}" ] || [ ! -d "$NCCL_TESTS_DIR" ]; then
  if [ -z "${NCCL_TESTS_DIR:-}" ]; then what="NCCL_TESTS_DIR is not set"; else what="NCCL_TESTS_DIR=$NCCL_TESTS_DIR is not a folder"; fi
  echo "bench-nccl-tests: $what: point it at nccl-tests' build folder (all_reduce_perf and the others," \
       "built with MPI=1; docs/nccl-backend.md, 'Checking on a GPU machine')" >&2
  exit 2
fi
for c in "${collectives[@]}"; do
  [ -n "${program[$c]:-}" ] || { echo "bench-nccl-tests: unknown collective '$c' in COLLECTIVES" >&2; exit 2; }
  [ -x "$NCCL_TESTS_DIR/${program[$c]}" ] || { echo "bench-nccl-tests: $NCCL_TESTS_DIR/${program[$c]} is missing or not executable" >&2; exit 2; }
done
command -v python3 > /dev/null || { echo "bench-nccl-tests: python3 is needed to read the results" >&2; exit 2; }
gpus=$("$commtune" info 2>/dev/null | sed -n 's/^visible GPUs: //p' || true)
case "$gpus" in
  '' | *[!0-9]* | 0)
    echo "bench-nccl-tests: no GPU visible here ($commtune info says visible GPUs: ${gpus:-nothing}): nothing to compare; run it on a GPU machine" >&2
    exit 3 ;;
esac

if [ -n "${BENCH_OUT:-}" ]; then
  work=$BENCH_OUT
  mkdir -p "$work"
else
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
fi
# nccl-tests' ranks find their GPU by NCCL_TESTS_DEVICE (all on the one visible GPU) and their
# NCCL host by NCCL_HOSTID, which this wrapper sets per rank as --emulate-nodes does for commtune.
cat > "$work/hostid-per-rank.sh" <<'SH'
#!/bin/sh
: "${OMPI_COMM_WORLD_RANK:?this wrapper runs under Open MPI mpirun}"
export NCCL_HOSTID="nccl-tests-emulated-node-$OMPI_COMM_WORLD_RANK" NCCL_TESTS_DEVICE=0
exec "$@"
SH
chmod +x "$work/hostid-per-rank.sh"
network=(-x CUDA_VISIBLE_DEVICES="${BENCH_GPU:-0}" -x NCCL_NET=Socket -x NCCL_SOCKET_IFNAME=lo -x NCCL_MNNVL_ENABLE=0)
read -r -a nccl_tests_args <<< "${NCCL_TESTS_ARGS:-}"
read -r -a commtune_args <<< "${COMMTUNE_ARGS:-}"

echo "# bench-nccl-tests: $ranks ranks on GPU ${BENCH_GPU:-0} as emulated nodes over loopback sockets, $min to $max, factor $factor"
status=0
for c in "${collectives[@]}"; do
  if ! "${mpirun[@]}" -np "$ranks" "${network[@]}" "$work/hostid-per-rank.sh" "$NCCL_TESTS_DIR/${program[$c]}" \
         -b "$min" -e "$max" -f "$factor" -g 1 -w 5 -n 20 -c 1 -d float -o sum -r 0 "${nccl_tests_args[@]}" \
         > "$work/nccl-tests-$c.txt" 2>&1; then
    echo "bench-nccl-tests: ${program[$c]} failed; its output ends:" >&2
    tail -n 15 "$work/nccl-tests-$c.txt" >&2
    status=1
    continue
  fi
  rm -f "$work/commtune-$c.json"
  if ! "${mpirun[@]}" -np "$ranks" "${network[@]}" "$commtune" sweep --backend nccl --emulate-nodes --collectives "$c" \
         -b "$min" -e "$max" -f "$factor" -d float -o sum -r 0 --placement out -w 5 --max-time "${BENCH_MAX_TIME:-0.2}" \
         --out "$work/commtune-$c.json" "${commtune_args[@]}" > "$work/commtune-$c.txt" 2>&1; then
    echo "bench-nccl-tests: commtune sweep of $c failed (wrong data, or the run broke); its output ends:" >&2
    tail -n 15 "$work/commtune-$c.txt" >&2
    status=1
  fi
  [ -s "$work/commtune-$c.json" ] || continue
  echo
  python3 -c "$read_tables" table "$c" "$work/nccl-tests-$c.txt" "$work/commtune-$c.json" || status=1
done
exit "$status"
