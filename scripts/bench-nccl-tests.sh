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
# Repeats: with BENCH_REPEATS=N (default 1), nccl-tests runs N times per collective (its outputs one
# after another in nccl-tests-COLLECTIVE.txt) and each size's time is the median over the runs;
# commtune runs with --repeat N and its time is the median of the runs' nccl_tests_us.
# The verdict: with BENCH_TOLERANCE=F (e.g. 0.02), every size from BENCH_CHECK_FROM (default 64K)
# up must be measured by both with |commtune / nccl-tests - 1| <= F, without wrong data, and both
# tools must have loaded the same NCCL version (NCCL's "NCCL version X" line, which nccl-tests
# runs print with NCCL_DEBUG=VERSION, else its nccl-library= code; commtune's results provenance):
# else FAIL, and the run exits 1. Each table then ends with one line
#   # verdict COLLECTIVE: PASS|FAIL worst_ratio=R worst_size=B geomean=G compared=N checked=N tolerance=F from=B
#     nccl_tests_nccl=V commtune_nccl=V reason=CODE
# (one line; worst over the checked sizes, geomean over all compared; reason - when it passes) and
# a "# COLLECTIVE FAIL: why" line per problem. Without BENCH_TOLERANCE the tables only report (a
# version difference is a warning line).
#
# Environment: COMMTUNE (default build/commtune), MPIRUN (default scripts/mpirun.sh), COLLECTIVES
# (default allreduce,allgather,broadcast,reducescatter), BENCH_OUT (a folder that keeps every raw
# output and results file; default a temporary one), NCCL_TESTS_ARGS and COMMTUNE_ARGS (more flags
# for each tool), BENCH_MAX_TIME (commtune's --max-time, default 0.2), BENCH_REPEATS,
# BENCH_TOLERANCE, BENCH_CHECK_FROM (above), BENCH_NO_GPU_CHECK=1 (skip the "no GPU visible"
# refusal: for a caller that checked already, as scripts/device-check.sh does).
# Exit: 0 done (and, with BENCH_TOLERANCE, every verdict PASS); 1 a run failed or a verdict FAILed;
# 2 bad input (no NCCL_TESTS_DIR or a binary missing, no commtune); 3 no GPU visible.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)

# The parser and the table, in one Python program: `parse FILE` or `table COLLECTIVE FILE JSON`.
read_tables=$(cat <<'PY'
import json, math, os, sys

def number(text):
    value = float(text)
    if math.isnan(value) or math.isinf(value):
        raise ValueError(text)
    return value

def nccl_version_of(text):
    """'2.28.9' from '2.28.9+cuda13.0', or from nccl-tests' library code 22809 (2.9 on: major*10000)."""
    if text.isdigit():
        code = int(text)
        return f"{code // 10000}.{code // 100 % 100}.{code % 100}" if code >= 10000 else f"{code // 1000}.{code // 100 % 10}.{code % 100}"
    return text.split("+", 1)[0]

def parse_nccl_tests(path):
    """nccl-tests' result rows (out-of-place half), its version line, the NCCL version it loaded and
    its out-of-bounds count. A row is: size count type redop root, then time algbw busbw #wrong out
    of place, then the same in place (and, with -I 1 or -T 1, more columns after each half). Every
    other line (comments, NCCL_DEBUG output, launcher notices) is skipped. A file may hold several
    runs one after another (BENCH_REPEATS): every run's rows are kept.
    The NCCL version: NCCL's own 'NCCL version X' line (NCCL_DEBUG=VERSION or INFO), else the
    nccl-library= code of nccl-tests' version line (both are what the library says at run time)."""
    found = {"rows": [], "version": "", "out_of_bounds": None, "time_column": None, "nccl": "", "runs": 0}
    library = ""
    with open(path, errors="replace") as text:
        for line in text:
            fields = line.split()
            if line.startswith("# nccl-tests version"):
                found["version"] = line[2:].strip()
                found["runs"] += 1
                code = [f.split("=", 1)[1] for f in fields if f.startswith("nccl-library=")]
                library = library or (code[0] if code and code[0].isdigit() else "")
            elif line.startswith("#") and "size" in fields and "count" in fields and "redop" in fields:
                found["time_column"] = fields[fields.index("root") + 1] if "root" in fields[:-1] else None
            elif line.startswith("# Out of bounds values"):
                value = line.split(":", 1)[1].strip()
                if found["out_of_bounds"] in (None, "0 OK"):
                    found["out_of_bounds"] = value
            if "NCCL version " in line and not found["nccl"]:
                words = line.split("NCCL version ", 1)[1].split()
                found["nccl"] = nccl_version_of(words[0]) if words else ""
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
    if not found["nccl"] and library:
        found["nccl"] = nccl_version_of(library)
    return found

def median(values):
    values = sorted(values)
    middle = len(values) // 2
    return values[middle] if len(values) % 2 else (values[middle - 1] + values[middle]) / 2

def median_rows(rows):
    """One row per size: the median time over the runs, busbw scaled to it, #wrong summed."""
    by_size = {}
    for r in rows:
        by_size.setdefault(r["size"], []).append(r)
    merged = {}
    for size, runs in by_size.items():
        time_us = median([r["time_us"] for r in runs])
        wrong = [r["wrong"] for r in runs if r["wrong"] is not None]
        nearest = min(runs, key=lambda r: abs(r["time_us"] - time_us))  # the median run itself, when the count is odd
        merged[size] = dict(nearest, time_us=time_us, busbw=nearest["busbw"] * nearest["time_us"] / time_us,
                            wrong=sum(wrong) if wrong else None, runs=len(runs))
    return merged

def size_bytes(text):
    """'64K' -> 65536: digits and an optional binary suffix K, M or G, as commtune's -b/-e."""
    text = text.strip().upper().rstrip("B").rstrip("I")
    scale = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}.get(text[-1:], 1)
    return int(text[:-1] if scale > 1 else text) * scale

def commtune_nccl_version(results):
    """The NCCL version commtune's workers loaded, from the results' provenance: every
    nccl_version under provenance.nccl (supervisors' probes, workers' inits); '' when none, the
    distinct values joined with '|' when they differ."""
    seen = set()
    def walk(node):
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "nccl_version" and isinstance(value, str):
                    seen.add(nccl_version_of(value))
                else:
                    walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)
    walk(results.get("provenance", {}).get("nccl", {}))
    return "|".join(sorted(seen))

BUS_FACTOR = {"allreduce": lambda n: 2.0 * (n - 1) / n, "allgather": lambda n: (n - 1) / n,
              "reducescatter": lambda n: (n - 1) / n, "broadcast": lambda n: 1.0}
PROGRAM = {"allreduce": "all_reduce_perf", "allgather": "all_gather_perf", "broadcast": "broadcast_perf",
           "reducescatter": "reduce_scatter_perf"}

def commtune_time(case):
    """commtune's figure for a case, and its name: with --repeat, the median of every run's
    nccl_tests_us (as nccl-tests' runs are taken by their median); else nccl_tests_us, else
    pipelined_us, else the median per-iteration time."""
    runs = [v for v in case.get("nccl_tests_run_us", []) if isinstance(v, (int, float)) and v > 0]
    if len(runs) > 1:
        return median(runs), f"nccl_tests_us median of {len(runs)} runs"
    for field in ("nccl_tests_us", "pipelined_us"):
        if isinstance(case.get(field), (int, float)) and case[field] > 0:
            return case[field], field
    middle = case.get("time_us", {}).get("median")
    return (middle, "median") if isinstance(middle, (int, float)) and middle > 0 else (None, None)

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
    print(f'# rows {len(found["rows"])}; time column {found["time_column"]}; out of bounds {found["out_of_bounds"]}; {found["version"]};'
          f' NCCL {found["nccl"] or "unknown"}')
    return 0 if found["rows"] else 1

def print_table(collective, nccl_tests_path, results_path):
    """The table; with BENCH_TOLERANCE set, also the verdict: every size from BENCH_CHECK_FROM up
    (default 64K) measured by both within the tolerance of nccl-tests' time, on the same NCCL
    version, with no wrong data; one machine-readable line '# verdict COLLECTIVE: PASS|FAIL k=v ...'."""
    if collective not in PROGRAM:
        print(f"unknown collective {collective}: one of {', '.join(PROGRAM)}", file=sys.stderr)
        return 2
    tolerance_text = os.environ.get("BENCH_TOLERANCE", "")
    tolerance = float(tolerance_text) if tolerance_text else None
    check_from = size_bytes(os.environ.get("BENCH_CHECK_FROM") or "64K")
    found = parse_nccl_tests(nccl_tests_path)
    theirs = median_rows(found["rows"])
    ours, results = commtune_cases(results_path, collective)
    nranks = next((c.get("nranks") for c in ours.values() if c.get("nranks")), None)
    labels = "; ".join(results.get("provenance", {}).get("labels", [])) or "no labels"
    their_nccl, our_nccl = found["nccl"], commtune_nccl_version(results)
    runs = sorted({r["runs"] for r in theirs.values()})
    print(f"# {collective}: {PROGRAM[collective]} against commtune, {nranks} ranks, out-of-place ({labels})")
    print(f'# {found["version"] or "nccl-tests: no version line found"}; its time column: {found["time_column"]}')
    print(f"# NCCL loaded: nccl-tests {their_nccl or 'unknown'}, commtune {our_nccl or 'unknown'};"
          f" nccl-tests runs per size: {'/'.join(map(str, runs)) or 0} (median taken)")
    sources = sorted({commtune_time(c)[1] for c in ours.values() if commtune_time(c)[1]})
    print(f'# commtune time: {", ".join(sources) or "none"}; busbw from it with nccl-tests\' factor; ratio = commtune / nccl-tests')
    mark_header = f"  {'check':>5}" if tolerance is not None else ""
    print(f'{"size(B)":>12}  {"nccl-tests(us)":>14}  {"busbw(GB/s)":>11}  {"commtune(us)":>12}  {"busbw(GB/s)":>11}  {"ratio":>7}{mark_header}')
    logs, checked, problems = [], [], []
    for size in sorted(set(theirs) | set(ours)):
        t = theirs.get(size)
        c = ours.get(size)
        left = f'{t["time_us"]:14.2f}  {t["busbw"]:11.2f}' if t else f'{"-":>14}  {"-":>11}'
        ratio = "-"
        value = None
        if c is None:
            right = f'{"-":>12}  {"-":>11}'
        elif c.get("status") != "ok":
            right = f'{c.get("status", "?"):>12}  {"-":>11}'
        else:
            us, _ = commtune_time(c)
            busbw = c["bytes"] / (us * 1e3) * BUS_FACTOR[collective](c["nranks"])
            right = f"{us:12.2f}  {busbw:11.2f}"
            if t:
                value = us / t["time_us"]
                logs.append(math.log(value))
                ratio = f"{value:.3f}"
        mark = ""
        if tolerance is not None:
            mark = f"  {'-':>5}"
            if size >= check_from:
                if t and t["wrong"]:
                    problems.append(("nccl-tests-wrong-data", f"nccl-tests counted {t['wrong']} wrong elements at {size} B"))
                if value is None:
                    problems.append(("not-measured-by-both", f"{size} B: " + ("commtune " + (c.get("status", "?") if c else "has no case")
                                                                             if t else "nccl-tests has no row")))
                    mark = f"  {'FAIL':>5}"
                else:
                    checked.append((size, value))
                    mark = f"  {'ok' if abs(value - 1) <= tolerance else 'FAIL':>5}"
        print(f"{size:12d}  {left}  {right}  {ratio:>7}{mark}")
    geomean = math.exp(sum(logs) / len(logs)) if logs else None
    summary = f"geometric-mean ratio {geomean:.3f}" if logs else "no size measured by both"
    print(f'# {len(logs)} sizes in both; {summary}; nccl-tests out of bounds values: {found["out_of_bounds"]}')
    if not their_nccl or not our_nccl:
        versions = ("version-unknown", f"the NCCL version is unknown for {'nccl-tests' if not their_nccl else 'commtune'}:"
                    " refusing to compare figures that may come from two NCCL versions")
    elif their_nccl != our_nccl:
        versions = ("version-mismatch", f"nccl-tests ran NCCL {their_nccl}, commtune NCCL {our_nccl}: figures from two NCCL"
                    " versions are not compared")
    else:
        versions = None
    if tolerance is None:
        if versions:
            print(f"# warning: {versions[1]}")
        return 0 if logs else 1
    if versions:
        problems.insert(0, versions)
    worst = max(checked, key=lambda sv: abs(sv[1] - 1)) if checked else None
    if worst and abs(worst[1] - 1) > tolerance:
        problems.append(("ratio-out-of-tolerance", f"commtune/nccl-tests {worst[1]:.3f} at {worst[0]} B is off by"
                         f" {abs(worst[1] - 1) * 100:.1f}% (> {tolerance * 100:g}%)"))
    if not checked and not any(p[0] == "not-measured-by-both" for p in problems):
        problems.append(("nothing-compared", f"no size from {check_from} B up measured by both"))
    status = "FAIL" if problems else "PASS"
    fields = {"worst_ratio": f"{worst[1]:.4f}" if worst else "-", "worst_size": worst[0] if worst else "-",
              "geomean": f"{geomean:.4f}" if geomean else "-", "compared": len(logs), "checked": len(checked), "tolerance": tolerance,
              "from": check_from, "nccl_tests_nccl": their_nccl or "unknown", "commtune_nccl": our_nccl or "unknown",
              "reason": problems[0][0] if problems else "-"}
    print(f"# verdict {collective}: {status} " + " ".join(f"{k}={v}" for k, v in fields.items()))
    for _, why in problems:
        print(f"# {collective} FAIL: {why}")
    return 1 if problems else 0

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
repeats=${BENCH_REPEATS:-1}
case "$repeats" in
  '' | *[!0-9]* | 0) echo "bench-nccl-tests: BENCH_REPEATS=$repeats: want a whole number from 1 to 100" >&2; exit 2 ;;
esac
[ "$repeats" -le 100 ] || { echo "bench-nccl-tests: BENCH_REPEATS=$repeats: want a whole number from 1 to 100" >&2; exit 2; }
if [ -n "${BENCH_TOLERANCE:-}" ] && ! python3 -c 'import sys; v = float(sys.argv[1]); sys.exit(0 if 0 < v < 1 else 1)' "$BENCH_TOLERANCE" 2>/dev/null; then
  echo "bench-nccl-tests: BENCH_TOLERANCE=$BENCH_TOLERANCE: want a fraction above 0 and below 1, e.g. 0.02" >&2
  exit 2
fi
if [ "${BENCH_NO_GPU_CHECK:-}" = 1 ]; then
  gpus="checked by the caller"
else
  gpus=$("$commtune" info 2>/dev/null | sed -n 's/^visible GPUs: \([0-9]*\).*/\1/p' || true)
fi
case "$gpus" in
  "checked by the caller") ;;
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
# NCCL says which version it is in nccl-tests' output (NCCL_DEBUG=VERSION: that line only).
version_line=()
[ -n "${NCCL_DEBUG:-}" ] || version_line=(-x NCCL_DEBUG=VERSION)
read -r -a nccl_tests_args <<< "${NCCL_TESTS_ARGS:-}"
read -r -a commtune_args <<< "${COMMTUNE_ARGS:-}"
[ "$repeats" = 1 ] || commtune_args=(--repeat "$repeats" "${commtune_args[@]}")

echo "# bench-nccl-tests: $ranks ranks on GPU ${BENCH_GPU:-0} as emulated nodes over loopback sockets, $min to $max, factor $factor," \
     "$repeats run(s) of each tool${BENCH_TOLERANCE:+, tolerance $BENCH_TOLERANCE from ${BENCH_CHECK_FROM:-64K} up}"
status=0
failed_verdict() {  # COLLECTIVE REASON: the verdict line of a collective whose runs broke
  [ -z "${BENCH_TOLERANCE:-}" ] || echo "# verdict $1: FAIL worst_ratio=- worst_size=- geomean=- checked=0 reason=$2"
}
for c in "${collectives[@]}"; do
  : > "$work/nccl-tests-$c.txt"
  broke=
  for ((run = 1; run <= repeats; run++)); do
    [ "$repeats" = 1 ] || echo "# bench-nccl-tests: ${program[$c]} run $run of $repeats" >> "$work/nccl-tests-$c.txt"
    if ! "${mpirun[@]}" -np "$ranks" "${network[@]}" "${version_line[@]}" "$work/hostid-per-rank.sh" "$NCCL_TESTS_DIR/${program[$c]}" \
           -b "$min" -e "$max" -f "$factor" -g 1 -w 5 -n 20 -c 1 -d float -o sum -r 0 "${nccl_tests_args[@]}" \
           >> "$work/nccl-tests-$c.txt" 2>&1; then
      echo "bench-nccl-tests: ${program[$c]} failed (run $run of $repeats); its output ends:" >&2
      tail -n 15 "$work/nccl-tests-$c.txt" >&2
      broke=1
      break
    fi
  done
  if [ -n "$broke" ]; then
    status=1
    failed_verdict "$c" nccl-tests-run-failed
    continue
  fi
  rm -f "$work/commtune-$c.json"
  if ! "${mpirun[@]}" -np "$ranks" "${network[@]}" "$commtune" sweep --backend nccl --emulate-nodes --collectives "$c" \
         -b "$min" -e "$max" -f "$factor" -d float -o sum -r 0 --placement out -w 5 --max-time "${BENCH_MAX_TIME:-0.2}" \
         --out "$work/commtune-$c.json" "${commtune_args[@]}" > "$work/commtune-$c.txt" 2>&1; then
    echo "bench-nccl-tests: commtune sweep of $c failed (wrong data, or the run broke); its output ends:" >&2
    tail -n 15 "$work/commtune-$c.txt" >&2
    status=1
    [ -s "$work/commtune-$c.json" ] || failed_verdict "$c" commtune-run-failed
  fi
  [ -s "$work/commtune-$c.json" ] || continue
  echo
  python3 -c "$read_tables" table "$c" "$work/nccl-tests-$c.txt" "$work/commtune-$c.json" || status=1
done
exit "$status"
